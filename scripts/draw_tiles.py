"""Draw the SVG tile set into ``static/tiles/`` (one file per notation token, plus ``back``).

Usage::

    .venv/bin/python scripts/draw_tiles.py            # write static/tiles/*.svg
    .venv/bin/python scripts/draw_tiles.py --check    # exit 1 if a committed file differs

The Chinese characters (and the small corner index) are turned into SVG paths with fontTools
from Noto Serif CJK / Noto Sans CJK (SIL Open Font License 1.1, Debian package
``fonts-noto-cjk``), so the tiles never depend on the visitor's fonts. The output is
deterministic: same fonts, same bytes. fontTools is a development dependency only
(requirements/test.in); the site serves the committed files. See docs/tiles.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "static" / "tiles"
FONT_DIR = Path("/usr/share/fonts/opentype/noto")
SERIF_FONT = FONT_DIR / "NotoSerifCJK-Bold.ttc"
SANS_FONT = FONT_DIR / "NotoSansCJK-Bold.ttc"
SERIF_FAMILY = "Noto Serif CJK TC"
SANS_FAMILY = "Noto Sans CJK TC"

VIEWBOX = "0 0 60 80"
W, H = 60, 80

INK = "#1f2a44"  # numerals, winds
RED = "#c8242b"
GREEN = "#1d7a3e"
BLUE = "#1f5fa8"
GOLD = "#b8860b"

NUMERALS = "一二三四五六七八九"
WIND_CHARS = {"E": "東", "S": "南", "W": "西", "N": "北"}
FLOWER_CHARS = ("梅", "蘭", "菊", "竹")
FLOWER_COLOURS = ("#c2185b", "#6a3d9a", "#c26a00", "#1d7a3e")
SEASON_CHARS = ("春", "夏", "秋", "冬")
SEASON_COLOURS = ("#2e7d32", "#c62828", "#a0522d", "#1565c0")


def fmt(x: float) -> str:
    """A short, stable number: at most one decimal, no trailing zeros."""
    s = f"{x:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    if s == "-0":
        s = "0"
    return s


class Glyphs:
    """Outlines of characters from one face of a font collection, as SVG path data."""

    def __init__(self, path: Path, family: str) -> None:
        from fontTools.ttLib import TTCollection

        collection = TTCollection(str(path), lazy=True)
        for font in collection.fonts:
            if font["name"].getDebugName(1) == family:
                self.font = font
                break
        else:  # pragma: no cover - depends on the installed font
            raise SystemExit(f"{family} not found in {path}")
        self.cmap = self.font.getBestCmap()
        self.glyph_set = self.font.getGlyphSet()
        self.units = self.font["head"].unitsPerEm
        self.ascent = self.font["OS/2"].sTypoAscender
        self.descent = -self.font["OS/2"].sTypoDescender

    def ink_box(self, ch: str) -> tuple[float, float, float, float]:
        """The bounding box of the glyph's ink, in font units (xmin, ymin, xmax, ymax)."""
        from fontTools.pens.boundsPen import BoundsPen

        pen = BoundsPen(self.glyph_set)
        self.glyph_set[self.cmap[ord(ch)]].draw(pen)
        assert pen.bounds is not None
        return pen.bounds

    def fitted(
        self, ch: str, cx: float, cy: float, height: float, width: float | None = None
    ) -> str:
        """Path data of ``ch`` whose ink fits ``height`` (and ``width``), centred on (cx, cy)."""
        from fontTools.pens.svgPathPen import SVGPathPen
        from fontTools.pens.transformPen import TransformPen

        xmin, ymin, xmax, ymax = self.ink_box(ch)
        scale = height / (ymax - ymin)
        if width is not None:
            scale = min(scale, width / (xmax - xmin))
        x0 = cx - (xmin + xmax) / 2 * scale
        y0 = cy + (ymin + ymax) / 2 * scale
        pen = SVGPathPen(self.glyph_set, ntos=fmt)
        self.glyph_set[self.cmap[ord(ch)]].draw(TransformPen(pen, (scale, 0, 0, -scale, x0, y0)))
        return pen.getCommands()


# --- the tile body -------------------------------------------------------------------------

BODY = (
    '<rect x="1" y="2.5" width="58" height="77" rx="6" fill="#c9b98f"/>'
    '<rect x="1" y="1" width="58" height="75.5" rx="6" fill="url(#f)" stroke="#b9ab86" '
    'stroke-width=".6"/>'
)
FACE_GRADIENT = (
    '<linearGradient id="f" x1="0" y1="0" x2="1" y2="1">'
    '<stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#f1e8d2"/>'
    "</linearGradient>"
)


def svg(content: str, defs: str = "", *, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'viewBox="{VIEWBOX}" width="{W}" height="{H}">'
        f"<title>{title}</title>"
        f"<defs>{FACE_GRADIENT}{defs}</defs>{BODY}{content}</svg>\n"
    )


def path(d: str, fill: str) -> str:
    return f'<path fill="{fill}" d="{d}"/>'


class Painter:
    def __init__(self, serif: Glyphs, sans: Glyphs) -> None:
        self.serif = serif
        self.sans = sans

    def index(self, text: str, colour: str = INK) -> str:
        """The small corner index (top left)."""
        parts = []
        x = 6.2 if len(text) == 1 else 5.2
        for k, ch in enumerate(text):
            parts.append(self.sans.fitted(ch, x + k * 5.2, 9, 7.4))
        return path("".join(parts), colour)

    # characters ------------------------------------------------------------------------
    def characters(self, rank: int) -> str:
        numeral = self.serif.fitted(NUMERALS[rank - 1], 31, 24, 18, 30)
        wan = self.serif.fitted("萬", 30, 54, 30)
        return svg(
            path(numeral, INK) + path(wan, RED) + self.index(str(rank)),
            title=f"{rank}m",
        )

    # dots --------------------------------------------------------------------------------
    def dots(self, rank: int) -> str:
        defs = "".join(
            f'<g id="{k}"><circle r="7" fill="{c}"/><circle r="5.2" fill="#fffaf0"/>'
            f'<circle r="3.9" fill="{c}"/><circle r="1.3" fill="#fffaf0"/></g>'
            for k, c in (("b", BLUE), ("g", GREEN), ("r", RED))
        )
        placed: list[tuple[str, float, float, float]] = []  # (colour, x, y, scale)
        cx, top, bottom = 30.5, 17, 70
        mid = (top + bottom) / 2
        if rank == 1:
            defs += (
                '<g id="o"><circle r="19" fill="' + GREEN + '"/><circle r="16.6" fill="#fffaf0"/>'
                '<circle r="15.4" fill="' + BLUE + '"/><circle r="12.4" fill="#fffaf0"/>'
                '<circle r="8.4" fill="' + RED + '"/><circle r="5" fill="#fffaf0"/>'
                '<circle r="3" fill="' + GREEN + '"/>'
                + "".join(
                    f'<circle cx="{fmt(14 * c)}" cy="{fmt(14 * s)}" r="1.5" fill="{RED}"/>'
                    for c, s in _ring(8)
                )
                + "</g>"
            )
            content = f'<use xlink:href="#o" x="{cx}" y="{fmt(mid)}"/>'
            return svg(content + self.index("1"), defs, title="1p")
        layouts: dict[int, list[tuple[str, float, float]]] = {
            2: [("g", cx, 30), ("b", cx, 58)],
            3: [("b", 16.5, 24), ("r", cx, mid), ("g", 44.5, 63)],
            4: [("b", 19, 30), ("g", 42, 30), ("g", 19, 58), ("b", 42, 58)],
            5: [("b", 17, 26), ("g", 44, 26), ("r", cx, mid), ("g", 17, 62), ("b", 44, 62)],
            6: [("g", 20, 22), ("g", 41, 22), ("r", 20, 46), ("r", 41, 46), ("r", 20, 64),
                ("r", 41, 64)],
            7: [("g", 16, 19), ("g", cx, 25), ("g", 45, 31), ("r", 20, 48), ("r", 41, 48),
                ("r", 20, 65), ("r", 41, 65)],
            8: [("b", 20, y) for y in (20, 36, 52, 68)] + [("b", 41, y) for y in (20, 36, 52, 68)],
            9: [(c, x, y) for c, y in (("b", 23), ("r", 44), ("g", 65)) for x in (15, cx, 46)],
        }
        scale = {2: 1.45, 3: 1.15, 4: 1.3, 5: 1.15, 6: 1.05, 7: 0.95, 8: 0.95, 9: 1.02}[rank]
        placed = [(c, x, y, scale) for c, x, y in layouts[rank]]
        content = "".join(
            f'<use xlink:href="#{c}" transform="translate({fmt(x)} {fmt(y)}) scale({s})"/>'
            for c, x, y, s in placed
        )
        return svg(content + self.index(str(rank)), defs, title=f"{rank}p")

    # bamboo ------------------------------------------------------------------------------
    def bamboo(self, rank: int) -> str:
        if rank == 1:
            return svg(self.bird() + self.index("1"), title="1s")
        defs = "".join(
            f'<g id="{k}"><rect x="-3.1" y="-10" width="6.2" height="20" rx="2.6" fill="{c}"/>'
            f'<path d="M0-8.4V8.4" stroke="#fffaf0" stroke-width=".9" opacity=".7"/>'
            f'<rect x="-3.9" y="-1" width="7.8" height="2" rx="1" fill="{d}"/>'
            f'<rect x="-3.9" y="-10.4" width="7.8" height="2" rx="1" fill="{d}"/>'
            f'<rect x="-3.9" y="8.4" width="7.8" height="2" rx="1" fill="{d}"/></g>'
            for k, c, d in (("g", "#2a8a4a", "#155c2e"), ("r", "#cf3a33", "#8e1c17"),
                            ("b", "#2b6cb0", "#17416e"))
        )
        cx = 30.5
        # (colour, x, y, rotation degrees) with sticks 20 units tall before scaling
        sticks: dict[int, list[tuple[str, float, float, float]]] = {
            2: [("g", cx, 28, 0), ("b", cx, 58, 0)],
            3: [("g", cx, 28, 0), ("b", 20, 58, 0), ("b", 41, 58, 0)],
            4: [("b", 20, 28, 0), ("g", 41, 28, 0), ("g", 20, 58, 0), ("b", 41, 58, 0)],
            5: [("g", 15, 28, 0), ("b", 46, 28, 0), ("r", cx, 43, 0), ("b", 15, 58, 0),
                ("g", 46, 58, 0)],
            6: [("g", x, y, 0) for y in (28, 58) for x in (17, cx, 44)],
            7: [("r", cx, 20, 0)] + [("g", x, y, 0) for y in (44, 65) for x in (17, cx, 44)],
            8: [("g", 12, 28, 0), ("g", 49, 28, 0), ("g", 23.5, 28, 24), ("g", 37.5, 28, -24),
                ("g", 12, 58, 0), ("g", 49, 58, 0), ("g", 23.5, 58, -24), ("g", 37.5, 58, 24)],
            9: [(("g", "r", "g")[i], x, y, 0) for y in (21, 43, 65)
                for i, x in enumerate((17, cx, 44))],
        }
        scale = {2: 1.2, 3: 1.2, 4: 1.2, 5: 1.2, 6: 1.2, 7: 0.92, 8: 1.2, 9: 0.92}[rank]
        parts = []
        for c, x, y, rot in sticks[rank]:
            transform = f"translate({fmt(x)} {fmt(y)})"
            if rot:
                transform += f" rotate({rot})"
            transform += f" scale({scale})"
            parts.append(f'<use xlink:href="#{c}" transform="{transform}"/>')
        return svg("".join(parts) + self.index(str(rank)), defs, title=f"{rank}s")

    def bird(self) -> str:
        """The one of bamboo: a sparrow standing on a bamboo stick."""
        return (
            # tail feathers
            '<path fill="#2b6cb0" d="M24 48 L8 66 Q10 70 14 68 Z"/>'
            '<path fill="#2a8a4a" d="M25 49 L12 71 Q16 74 19 71 Z"/>'
            '<path fill="#cf3a33" d="M27 50 L19 73 Q23 75 25 72 Z"/>'
            # body
            '<path fill="#2a8a4a" d="M22 47 C22 33 32 24 41 26 C47 27 50 33 48 39 '
            'C45 50 33 56 22 47 Z"/>'
            # breast
            '<path fill="#e8b04a" d="M46 36 C46 45 38 51 30 50 C38 47 43 42 46 36 Z"/>'
            # wing
            '<path fill="#155c2e" d="M26 42 C28 34 35 31 40 34 C37 40 32 44 26 42 Z"/>'
            '<path fill="none" stroke="#fffaf0" stroke-width=".8" d="M29 40 C32 37 35 36 38 36"/>'
            # head, eye, beak, crest
            '<circle cx="43" cy="23" r="7.5" fill="#cf3a33"/>'
            '<circle cx="45" cy="21.5" r="2" fill="#fffaf0"/>'
            '<circle cx="45.4" cy="21.5" r="1.1" fill="#1f2a44"/>'
            '<path fill="#e8b04a" d="M49.5 21 L56 24 L49.5 26 Z"/>'
            '<path fill="#2b6cb0" d="M38 17 C37 12 41 10 44 13 C42 13 40 15 40 18 Z"/>'
            # legs and perch
            '<path fill="none" stroke="#8e1c17" stroke-width="1.2" d="M34 52 L33 60 M38 51 L38 60"/>'
            '<rect x="16" y="59.5" width="34" height="4" rx="2" fill="#2a8a4a"/>'
            '<rect x="31" y="59" width="2" height="5" fill="#155c2e"/>'
        )

    # honours -----------------------------------------------------------------------------
    def wind(self, letter: str) -> str:
        glyph = self.serif.fitted(WIND_CHARS[letter], 30.5, 44, 40)
        return svg(path(glyph, INK) + self.index(letter), title=letter)

    def dragon(self, letter: str) -> str:
        if letter == "C":
            body = path(self.serif.fitted("中", 30.5, 42, 46), RED)
            colour = RED
        elif letter == "F":
            body = path(self.serif.fitted("發", 30.5, 43, 42), GREEN)
            colour = GREEN
        else:
            body = (
                f'<rect x="12" y="14" width="37" height="54" rx="2" fill="none" stroke="{BLUE}" '
                f'stroke-width="3.4"/>'
                f'<rect x="17.5" y="19.5" width="26" height="43" fill="none" stroke="{BLUE}" '
                f'stroke-width="1.2"/>'
            )
            colour = BLUE
            return svg(body + self.index(letter, colour), title=letter)
        return svg(body + self.index(letter, colour), title=letter)

    def bonus(self, kind: str, number: int) -> str:
        chars, colours = (FLOWER_CHARS, FLOWER_COLOURS) if kind == "f" else (
            SEASON_CHARS, SEASON_COLOURS)
        colour = colours[number - 1]
        glyph = self.serif.fitted(chars[number - 1], 30.5, 46, 36)
        # a coloured band at the bottom tells bonus tiles apart from the playing tiles
        band = (
            f'<rect x="8" y="67" width="45" height="3" rx="1.5" fill="{colour}" opacity=".85"/>'
        )
        return svg(path(glyph, colour) + band + self.index(str(number), colour),
                   title=f"{kind}{number}")

    def joker(self) -> str:
        star = _star(30.5, 23, 11, 4.6)
        bai = self.serif.fitted("百", 30.5, 45.5, 13.5)
        da = self.serif.fitted("搭", 30.5, 62.5, 14.5)
        return svg(
            f'<path fill="#e0a81e" stroke="{GOLD}" stroke-width="1" stroke-linejoin="round" '
            f'd="{star}"/>' + path(bai + da, GOLD) + self.index("J", GOLD),
            title="J",
        )

    def back(self) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{VIEWBOX}" width="{W}" '
            f'height="{H}"><title>back</title>'
            '<defs><linearGradient id="k" x1="0" y1="0" x2="1" y2="1">'
            '<stop offset="0" stop-color="#2f8f6a"/><stop offset="1" stop-color="#1c6a4c"/>'
            "</linearGradient></defs>"
            '<rect x="1" y="2.5" width="58" height="77" rx="6" fill="#c9b98f"/>'
            '<rect x="1" y="1" width="58" height="75.5" rx="6" fill="url(#k)" '
            'stroke="#17553d" stroke-width=".6"/>'
            '<rect x="6" y="6" width="48" height="65.5" rx="3.5" fill="none" stroke="#8fd1b4" '
            'stroke-width=".8" opacity=".6"/>'
            "</svg>\n"
        )


def _ring(n: int) -> list[tuple[float, float]]:
    import math

    return [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    import math

    points = []
    for k in range(10):
        r = outer if k % 2 == 0 else inner
        a = -math.pi / 2 + k * math.pi / 5
        points.append(f"{fmt(cx + r * math.cos(a))} {fmt(cy + r * math.sin(a))}")
    return "M" + " L".join(points) + " Z"


def tiles() -> dict[str, Callable[[Painter], str]]:
    """Every file name (without .svg) and how to draw it."""
    out: dict[str, Callable[[Painter], str]] = {}
    for rank in range(1, 10):
        out[f"{rank}m"] = lambda p, r=rank: p.characters(r)
        out[f"{rank}p"] = lambda p, r=rank: p.dots(r)
        out[f"{rank}s"] = lambda p, r=rank: p.bamboo(r)
    for letter in "ESWN":
        out[letter] = lambda p, x=letter: p.wind(x)
    for letter in "CFP":
        out[letter] = lambda p, x=letter: p.dragon(x)
    for number in range(1, 5):
        out[f"f{number}"] = lambda p, n=number: p.bonus("f", n)
        out[f"s{number}"] = lambda p, n=number: p.bonus("s", n)
    out["J"] = lambda p: p.joker()
    out["back"] = lambda p: p.back()
    return out


def fonts_available() -> bool:
    return SERIF_FONT.exists() and SANS_FONT.exists()


def render_all() -> dict[str, str]:
    """File name -> SVG text of every tile."""
    painter = Painter(Glyphs(SERIF_FONT, SERIF_FAMILY), Glyphs(SANS_FONT, SANS_FAMILY))
    return {f"{name}.svg": draw(painter) for name, draw in tiles().items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    if not fonts_available():
        print(f"fonts missing: {SERIF_FONT}, {SANS_FONT} (apt-get install fonts-noto-cjk)",
              file=sys.stderr)
        return 2
    rendered = render_all()
    if args.check:
        stale = [n for n, text in rendered.items()
                 if not (args.out / n).exists() or (args.out / n).read_text() != text]
        for name in stale:
            print(f"differs: {name}", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in rendered.items():
        (args.out / name).write_text(text)
    print(f"wrote {len(rendered)} tiles to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
