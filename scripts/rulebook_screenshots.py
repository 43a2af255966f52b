"""Screenshots of the rulebook pages at desktop (1280 px) and phone (390 px) width, and the
fan table's print view as PDF. Needs a running site with the content loaded.

    python scripts/rulebook_screenshots.py http://127.0.0.1:8131 /tmp/shots
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

PAGES = {
    "rules-index": "/{lang}/rules/",
    "mcr-chapter": "/{lang}/rules/mcr/3/",
    "fan-table": "/{lang}/rules/mcr/fans/",
    "fan-57a": "/{lang}/rules/mcr/fans/57a/",
}
LANGUAGES = ("en", "zh-hans")
WIDTHS = {"desktop": 1280, "phone": 390}


def main(base: str, out: Path, only: str | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-gpu"]
        )
        for lang in LANGUAGES:
            for name, path in PAGES.items():
                if only and only not in name:
                    continue
                for label, width in WIDTHS.items():
                    page = browser.new_page(viewport={"width": width, "height": 900})
                    page.goto(base + path.format(lang=lang))
                    page.screenshot(path=str(out / f"{name}-{lang}-{label}.png"), full_page=False)
                    page.close()
            page = browser.new_page()
            page.goto(base + PAGES["fan-table"].format(lang=lang))
            page.emulate_media(media="print")
            page.screenshot(path=str(out / f"fan-table-print-{lang}.png"), full_page=True)
            page.pdf(path=str(out / f"fan-table-{lang}.pdf"), format="A4")
            page.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None)
