"""PURE: the typography of the site's languages that a catalogue or a data file must follow
(docs/decisions/0543): Chinese text uses full-width punctuation (，：；（）！？), French puts a
no-break space before the high punctuation ; : ! ? and inside « ».

Each rule has a finder (for the tests: what breaks it) and a fixer (what a translator's
text becomes). Placeholders (``%(name)s``, ``{{ n }}``, ``{n}``), HTML tags and URLs are
never touched.
"""

from __future__ import annotations

import re

NBSP = "\u00a0"  # before : and inside « » (espace insécable)
NNBSP = "\u202f"  # before ; ! ? (espace fine insécable)

_PROTECTED = re.compile(
    r"%\([^)]*\)[-#0 +]?\d*(?:\.\d+)?[sdifrx]"  # %(name)s
    r"|%[sdif]"
    r"|\{\{[^}]*\}\}|\{[a-z_0-9]*\}"  # {{ n }}, {n}
    r"|<[^>]*>"  # HTML tags
    r"|https?://\S+|[\w.+-]+@[\w.-]+"  # URLs, e-mail addresses
    r"|&[a-z]+;|&#\d+;"  # entities
)
_CJK = r"\u3000-\u303f\u3400-\u9fff\uff00-\uffef"


def _masked(text: str) -> tuple[str, list[str]]:
    """The text with each protected piece replaced by one private-use character (which is
    neither a digit, a letter nor a space), and those pieces in order."""
    pieces: list[str] = []

    def mask(found: re.Match[str]) -> str:
        pieces.append(found.group())
        return chr(_MASK + len(pieces) - 1)

    return _PROTECTED.sub(mask, text), pieces


def _unmasked(text: str, pieces: list[str]) -> str:
    return re.sub(r"[\ue000-\uf8ff]", lambda m: pieces[ord(m.group()) - _MASK], text)


_MASK = 0xE000


# --- Chinese -------------------------------------------------------------------------------

_ZH_HALF = re.compile(r"(?<!\d),|,(?!\d)|(?<!\d):|:(?!\d)|;")
_ZH_MAP = {",": "，", ":": "：", ";": "；", "(": "（", ")": "）", "!": "！", "?": "？"}


def chinese_half_width(text: str) -> list[str]:
    """The half-width commas, colons and semicolons of a Chinese text (outside placeholders,
    tags and URLs; a comma or colon between digits, 1,000 or 10:30, is a number's), and
    half-width parentheses or ! ? next to a Chinese character."""
    piece, _ = _masked(text)
    found = [m.group() for m in _ZH_HALF.finditer(piece)]
    found += re.findall(rf"[(!?](?=[{_CJK}])|(?<=[{_CJK}])[()!?]", piece)
    if re.search(rf"\([^()]*[{_CJK}][^()]*\)|(?<=[{_CJK}])\(", piece):
        found.append("(")
    return found


def chinese_full_width(text: str) -> str:
    """``text`` with full-width punctuation where :func:`chinese_half_width` finds half-width,
    and no space left around it."""
    piece, pieces = _masked(text)
    piece = _ZH_HALF.sub(lambda m: _ZH_MAP[m.group()], piece)
    piece = re.sub(rf"\(([^()]*[{_CJK}][^()]*)\)|(?<=[{_CJK}])\(([^()]*)\)",
                   lambda m: "（" + (m.group(1) or m.group(2) or "") + "）", piece)
    piece = re.sub(rf"(?<=[{_CJK}])([!?])|([!?])(?=[{_CJK}])",
                   lambda m: _ZH_MAP[m.group(1) or m.group(2)], piece)
    piece = re.sub(r" *([，：；）！？]) *", r"\1", piece)
    piece = re.sub(r" *（", "（", piece)
    return _unmasked(piece, pieces)


# --- French --------------------------------------------------------------------------------

_FR_BEFORE = re.compile(r"(?:(?<=\S)|^)[ \t]+([:;!?»])")
_FR_AFTER = re.compile(r"«[ \t]+")
_FR_MISSING = re.compile(r"(?<=[\w)\]»…])([;!?])(?=\s|$)|(?<=[\w)\]»…]):(?=\s)")
_FR_GUILLEMET = re.compile(r"«(?=\w)|(?<=[\w.!?…)])»")
_FR_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")


def french_ordinary_spaces(text: str) -> list[str]:
    """Where a French text has an ordinary space (or none) before ; : ! ? » or after «, or
    a straight apostrophe (each place with a few characters around it)."""
    piece, _ = _masked(text)
    found: list[str] = []
    for pattern in (_FR_BEFORE, _FR_AFTER, _FR_MISSING, _FR_GUILLEMET, _FR_APOSTROPHE):
        found += [piece[max(0, m.start() - 8):m.end() + 8] for m in pattern.finditer(piece)]
    return found


def french_spaced(text: str) -> str:
    """``text`` with a no-break space before : and » and after «, a narrow no-break space
    before ; ! ? (an ordinary space there replaced, a missing one added), and typographic
    apostrophes (l’exemple)."""
    piece, pieces = _masked(text)
    piece = _FR_BEFORE.sub(lambda m: _fr_space(m.group(1)) + m.group(1), piece)
    piece = _FR_AFTER.sub("«" + NBSP, piece)
    piece = _FR_MISSING.sub(lambda m: _fr_space(m.group()) + m.group(), piece)
    piece = _FR_GUILLEMET.sub(lambda m: "«" + NBSP if m.group() == "«" else NBSP + "»", piece)
    piece = _FR_APOSTROPHE.sub("’", piece)
    return _unmasked(piece, pieces)


def _fr_space(mark: str) -> str:
    return NBSP if mark in ":»" else NNBSP


_MONTH_NAME = frozenset("FENMb")  # Django's date format characters that write a month's name


def first_of_month_format(date_format: str, language: str | None) -> str:
    """The Django date format ``date_format`` for the first day of a month in ``language``:
    French writes that day as an ordinal, « 1er août 2026 » (never « 1 août »), so where the
    format puts the day (``j``) before or after a month's name, ``j`` becomes ``j`` followed
    by the literal ``er``. Numeric formats (01/08/2026) and other languages are unchanged.
    Backslash-escaped characters are literals, as Django reads them."""
    if not (language or "").lower().startswith("fr"):
        return date_format
    pieces: list[str] = []
    has_month_name = False
    escaped = False
    for char in date_format:
        if escaped:
            pieces.append(char)
            escaped = False
            continue
        if char == "\\":
            escaped = True
        elif char in _MONTH_NAME:
            has_month_name = True
        pieces.append(r"j\e\r" if char == "j" else char)
    return "".join(pieces) if has_month_name else date_format


# --- Dutch ---------------------------------------------------------------------------------

_NL_LOW = re.compile(r"„([^„“”]*)[”“]")
_NL_SINGLE = re.compile(r"(?<![\w’])‘((?:[^‘’]|’(?=\w))*)’(?!\w)")
_NL_DOUBLE = re.compile(r"“[^“”]*”")


def dutch_other_quotes(text: str) -> list[str]:
    """Where a Dutch text quotes otherwise than with “…” (decision 0550): a low „ and a
    single ‘…’ that is not a quote inside a “…” quote (each with a few characters around)."""
    piece, _ = _masked(text)
    found = [piece[max(0, m.start() - 8):m.end() + 8] for m in re.finditer("„", piece)]
    outside = _NL_DOUBLE.sub(lambda m: "\u2063" * len(m.group()), piece)
    found += [piece[max(0, m.start() - 8):m.end() + 8] for m in _NL_SINGLE.finditer(outside)]
    return found


def dutch_quoted(text: str) -> str:
    """``text`` quoting with “…”: „…” and a single ‘…’ outside a “…” quote become “…”;
    an apostrophe (foto’s, ’s avonds) and a quote inside a quote (“valse ‘Hu’”) stay."""
    piece, pieces = _masked(text)
    piece = _NL_LOW.sub(lambda m: "“" + m.group(1) + "”", piece)
    out, position = [], 0
    for quoted in _NL_DOUBLE.finditer(piece):
        out.append(_NL_SINGLE.sub(r"“\1”", piece[position:quoted.start()]))
        out.append(quoted.group())
        position = quoted.end()
    out.append(_NL_SINGLE.sub(r"“\1”", piece[position:]))
    return _unmasked("".join(out), pieces)
