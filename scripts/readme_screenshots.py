"""The README's pictures of the main pages, taken from the current code (``make screenshots``).

Loads the rulebook and the demo federation into a scratch SQLite database, serves it with
``runserver``, and photographs each page of :data:`SHOTS` in Debian's Chromium at 1280x800,
in English, into ``docs/screenshots/`` as small palette PNGs. ``--check`` photographs them
into a temporary folder instead and fails when a page does not render; the test suite does
the same against its live server (tests/config/test_readme_screenshots.py).

    python scripts/readme_screenshots.py [--out docs/screenshots] [--db PATH [--reuse]]
    python scripts/readme_screenshots.py --check
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VIEWPORT = {"width": 1280, "height": 800}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]


class ShotError(Exception):
    """A page of the README did not render."""


@dataclass(frozen=True)
class Shot:
    name: str  # docs/screenshots/<name>.png, shown in the README with its caption
    path: Callable[[], str]  # the page's address; may ask the database (Django set up)
    ready: str  # a selector the rendered page shows
    login: bool = False  # as the demo member
    scroll_to: str | None = None  # the part of a long page the picture shows


def _standings() -> str:
    from config.demo import CHAMPIONSHIP
    from tournaments.models import Tournament

    return f"/en/tournaments/{Tournament.objects.get(name=CHAMPIONSHIP[0]).pk}/standings/"


def _player() -> str:
    from config.demo import DEMO_MEMBER
    from tournaments.models import Player

    return f"/en/ratings/players/{Player.objects.get(member__user__email=DEMO_MEMBER).pk}/"


SHOTS = [
    Shot("rule-chapter", lambda: "/en/rules/mcr/3/", "main h1"),
    Shot("fan-page", lambda: "/en/rules/mcr/fans/57a/", "main h1"),
    Shot("calculator", lambda: "/en/calculator/?rules=mcr&hand=%5B1111s%5D%5BEEEE%5DSSS7889m8m"
         "&self_drawn=1&seat=N", "main h1"),
    Shot("standings", _standings, "main table"),
    Shot("rating-chart", _player, "#rating-chart", scroll_to="main h1"),
    Shot("member-page", lambda: "/en/members/me/", "main h1", login=True),
]


def optimise_png(data: bytes) -> bytes:
    """A palette PNG (256 colours, no dithering): a fifth of the size, text stays sharp."""
    from PIL import Image

    image = Image.open(io.BytesIO(data)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                   dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def shoot(browser: Any, base_url: str, out: Path, shots: list[Shot] = SHOTS) -> list[Path]:
    """Each shot into ``out``; :class:`ShotError` when a page answers an error or does not
    show what it should."""
    from config.demo import DEMO_MEMBER, DEMO_PASSWORD

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for shot in shots:
        context = browser.new_context(base_url=base_url, locale="en-US", viewport=VIEWPORT,
                                      color_scheme="light")
        page = context.new_page()
        page.set_default_timeout(20_000)
        try:
            if shot.login:
                page.goto("/en/accounts/login/")
                page.get_by_label("Email").fill(DEMO_MEMBER)
                page.get_by_label("Password").fill(DEMO_PASSWORD)
                page.locator("main form button[type=submit]").click()
                page.wait_for_load_state()
            path = shot.path()
            response = page.goto(path)
            if response is None or response.status >= 400:
                status = response.status if response else "no answer"
                raise ShotError(f"{shot.name}: {path} answered {status}")
            if page.locator(shot.ready).count() == 0:
                raise ShotError(f"{shot.name}: {path} shows no {shot.ready}")
            page.locator(shot.ready).first.wait_for(state="visible")
            page.wait_for_load_state("networkidle")
            if shot.scroll_to:
                page.locator(shot.scroll_to).first.evaluate(
                    "element => { element.scrollIntoView({block: 'start'}); window.scrollBy(0, -24); }")
                page.wait_for_timeout(300)  # the chart's animation, if any
            target = out / f"{shot.name}.png"
            target.write_bytes(optimise_png(page.screenshot()))
            written.append(target)
        finally:
            context.close()
    return written


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(env: dict[str, str], port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(120):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise ShotError("the development server did not start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--check", action="store_true",
                        help="render into a temporary folder; fail if a page does not render")
    parser.add_argument("--db", type=Path, help="the scratch SQLite file (default: temporary)")
    parser.add_argument("--reuse", action="store_true",
                        help="the --db file already has the content and the demo")
    args = parser.parse_args(argv)

    scratch = Path(tempfile.mkdtemp(prefix="readme-shots-"))
    database = args.db or scratch / "db.sqlite3"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev",
           "DATABASE_URL": f"sqlite:///{database.resolve()}", "CACHE_BACKEND": "locmem"}
    os.environ.update(env)
    # Playwright's sync API runs an event loop in this thread; the ORM must still answer
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    if not args.reuse:
        call_command("migrate", verbosity=0, interactive=False)
        call_command("load_content", verbosity=0)
        call_command("load_demo")

    from playwright.sync_api import sync_playwright

    out = scratch / "shots" if args.check else args.out
    port = _free_port()
    server = _serve(env, port)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=os.environ.get("CHROMIUM_PATH") or shutil.which("chromium"),
                args=CHROMIUM_ARGS)
            try:
                for path in shoot(browser, f"http://127.0.0.1:{port}", out):
                    checked = " (checked)" if args.check else ""
                    print(f"{path.name}: {path.stat().st_size // 1024} KB{checked}")
            finally:
                browser.close()
    except ShotError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(scratch, ignore_errors=True)  # (a --db file lives elsewhere)
    return 0


if __name__ == "__main__":
    sys.exit(main())
