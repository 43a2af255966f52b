"""Issue 38, item 9: every button colour of the site's stylesheets meets WCAG AA for text
(4.5:1), a disabled button does not look like an enabled one, and an agreement given at the
table is dark on pale green, not white on it. The stylesheets are read as they are served
(static/css and the tournaments' static CSS); a rule's missing colour is the base button's
(``button, .button``), a transparent background the page's (or the red header's)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHEETS = sorted([*ROOT.glob("static/css/*.css"), *ROOT.glob("*/static/*/*.css")])
SHEETS = [s for s in SHEETS if "vendor" not in s.parts and ".venv" not in s.parts]

RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
BUTTON = re.compile(r"(^|[\s>+~,(])button\b|\.button\b|input\[type=submit\]|"
                    r"\.t-confirm[\w-]* > summary|\.link-button")


def _variables() -> dict[str, str]:
    text = (ROOT / "static/css/site.css").read_text()
    root = re.search(r":root\s*\{([^}]*)\}", text)
    assert root
    return dict(re.findall(r"(--[\w-]+)\s*:\s*([^;]+);", root.group(1)))


VARS = _variables()


def _value(raw: str) -> str:
    raw = raw.strip().split("!")[0].strip()
    match = re.fullmatch(r"var\((--[\w-]+)\)", raw)
    return VARS[match.group(1)].split("/*")[0].strip() if match else raw


def _rgb(colour: str) -> tuple[float, float, float]:
    colour = colour.strip().lower()
    if colour in ("white",):
        colour = "#ffffff"
    match = re.fullmatch(r"#([0-9a-f]{3}|[0-9a-f]{6})", colour)
    assert match, f"not a colour this test reads: {colour}"
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return tuple(int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _luminance(colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, two: str) -> float:
    a, b = sorted((_luminance(one), _luminance(two)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def _rules() -> list[tuple[str, str, dict[str, str]]]:
    out = []
    for sheet in SHEETS:
        text = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.S)
        for selector, body in RULE.findall(text):
            selector = selector.split(";")[-1].strip()
            declarations = dict(
                (name.strip(), value.strip())
                for name, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", body))
            out.append((sheet.name, selector, declarations))
    return out


RULES = _rules()


def _background(declarations: dict[str, str]) -> str | None:
    for name in ("background-color", "background"):
        if name in declarations:
            return _value(declarations[name].split()[0])
    return None


BASE = next(d for _s, sel, d in RULES if sel.startswith("button, .button"))
BASE_FG, BASE_BG = _value(BASE["color"]), _background(BASE)
BUTTON_RULES = [(sheet, sel, d) for sheet, sel, d in RULES
                if BUTTON.search(sel) and ("color" in d or _background(d) is not None)
                and ":focus" not in sel and "::" not in sel]


def _pair(selector: str, declarations: dict[str, str]) -> tuple[str, str]:
    on_header = ".site-header" in selector or ".header-search" in selector
    page = _value("var(--accent)") if on_header else _value("var(--paper)")
    page_ink = _value("var(--accent-ink)") if on_header else _value("var(--ink)")
    background = _background(declarations)
    if background is None:  # a summary is no button: the page shows through
        background = page if selector.rstrip().endswith("summary") else BASE_BG
    if background in ("none", "transparent"):
        background = page
    colour = _value(declarations.get("color", BASE_FG or ""))
    if colour in ("inherit", "currentcolor"):
        colour = page_ink
    return colour, background or page


def test_the_stylesheets_have_button_rules_to_check():
    assert len(BUTTON_RULES) >= 8
    selectors = " ".join(sel for _s, sel, _d in BUTTON_RULES)
    assert ':disabled' in selectors and 'aria-pressed="true"' in selectors


@pytest.mark.parametrize(("sheet", "selector", "declarations"), BUTTON_RULES,
                         ids=[f"{s}:{sel[:60]}" for s, sel, _d in BUTTON_RULES])
def test_every_button_rule_meets_aa_contrast(sheet, selector, declarations):
    colour, background = _pair(selector, declarations)
    ratio = contrast(colour, background)
    assert ratio >= 4.5, f"{sheet} {selector}: {colour} on {background} is {ratio:.2f}:1"


def test_a_disabled_button_does_not_look_enabled():
    (disabled,) = [d for _s, sel, d in RULES if sel.startswith("button:disabled")]
    background = _background(disabled)
    assert background and background != BASE_BG
    assert contrast(_value(disabled["color"]), background) >= 4.5
    assert disabled.get("cursor") == "not-allowed"


def test_an_agreement_given_is_dark_on_pale_green():
    (agreed,) = [d for _s, sel, d in RULES if sel.startswith('.t-agree button[aria-pressed="true"]')]
    colour, background = _value(agreed["color"]), _background(agreed)
    assert background is not None and contrast(colour, background) >= 4.5
    assert contrast(colour, "#ffffff") >= 4.5


def test_the_contrast_formula():
    assert round(contrast("#ffffff", "#000000"), 1) == 21.0
    assert round(contrast("#ffffff", "#8a1c1c"), 1) >= 7.5
    assert contrast("#ffffff", "#e6f2e6") < 1.2  # what the agreed button used to be
