"""The README's pictures (issue 28): every image it shows exists, every picture of
docs/screenshots/ is shown, and the pages ``make screenshots`` photographs still render,
through the script's own code, against the live server with the demo federation."""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"


@functools.cache
def _script():
    """scripts/readme_screenshots.py, the code ``make screenshots`` runs."""
    spec = importlib.util.spec_from_file_location(
        "readme_screenshots", ROOT / "scripts" / "readme_screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _readme_images() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)", readme) + re.findall(
        r'<img [^>]*src="([^"]+)"', readme)


def test_every_image_the_readme_shows_exists() -> None:
    images = _readme_images()
    assert images, "the README shows the main pages"
    for image in images:
        assert (ROOT / image).is_file(), f"README shows {image}, which is not in the repository"


def test_the_readme_shows_every_picture_the_script_takes() -> None:
    shown = {Path(image).name for image in _readme_images()}
    for shot in _script().SHOTS:
        assert f"{shot.name}.png" in shown, shot.name
        assert (SCREENSHOTS / f"{shot.name}.png").is_file(), shot.name
    kept = {p.name for p in SCREENSHOTS.glob("*.png")}
    assert kept <= shown, f"pictures no page shows: {sorted(kept - shown)}"


def test_the_pictures_are_small_pngs_of_the_desktop_width() -> None:
    from PIL import Image

    for path in SCREENSHOTS.glob("*.png"):
        assert path.stat().st_size < 150_000, path.name
        with Image.open(path) as image:
            assert image.format == "PNG" and image.size == (1280, 800), path.name


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_pages_of_the_readme_still_render(browser, live_server, site_content,
                                              rulebook_content_committed, tmp_path) -> None:
    from django.core.cache import cache
    from PIL import Image

    from config import demo

    demo.demo_federation_load()
    cache.clear()
    script = _script()
    written = script.shoot(browser, live_server.url, tmp_path)
    assert [p.name for p in written] == [f"{s.name}.png" for s in script.SHOTS]
    for path in written:
        with Image.open(path) as image:
            assert image.size == (1280, 800)
    # a page that does not render fails the check, saying which
    broken = script.Shot("broken", lambda: "/en/tournaments/999999/standings/", "main")
    with pytest.raises(script.ShotError, match=r"broken: .* answered 404"):
        script.shoot(browser, live_server.url, tmp_path, [broken])
