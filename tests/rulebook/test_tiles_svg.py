"""The committed tile set: one well-formed SVG per tile, one viewBox, small, and exactly what
scripts/draw_tiles.py draws from the installed fonts."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulebook.scoring.tiles import NUM_ALL, tile_name

ROOT = Path(__file__).resolve().parents[2]
TILES = ROOT / "static" / "tiles"
SVG_NS = "{http://www.w3.org/2000/svg}"
EXPECTED = sorted(
    [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    + list("ESWNCFP")
    + [f"f{k}" for k in range(1, 5)]
    + [f"s{k}" for k in range(1, 5)]
    + ["J", "back"]
)


def _script():
    spec = importlib.util.spec_from_file_location("draw_tiles", ROOT / "scripts" / "draw_tiles.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_file_per_notation_token_and_the_back():
    tokens = {tile_name(t) for t in range(NUM_ALL)} | {"back"}
    assert tokens == set(EXPECTED)
    assert sorted(p.stem for p in TILES.glob("*.svg")) == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_well_formed_shared_viewbox_small_and_font_independent(name):
    path = TILES / f"{name}.svg"
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("viewBox") == "0 0 60 80"
    assert path.stat().st_size < 4096
    # glyphs are paths: no text elements, no font references
    assert root.find(f".//{SVG_NS}text") is None
    assert "font-family" not in path.read_text()


def test_faces_differ():
    contents = {(TILES / f"{n}.svg").read_text().split("</title>", 1)[1] for n in EXPECTED}
    assert len(contents) == len(EXPECTED)


def test_committed_files_equal_the_generator_output():
    module = _script()
    if not module.fonts_available():
        pytest.skip(f"fonts-noto-cjk not installed ({module.SERIF_FONT}); cannot regenerate")
    rendered = module.render_all()
    assert sorted(rendered) == [f"{n}.svg" for n in EXPECTED]
    for name, text in rendered.items():
        assert (TILES / name).read_text() == text, f"{name} differs: run scripts/draw_tiles.py"
