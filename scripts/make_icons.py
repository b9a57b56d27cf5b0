"""Draw the app's PNG icons from static/icons/icon.svg with the chromium the browser tests use.

Run once after changing the SVG, then commit the PNGs:

    .venv/bin/python scripts/make_icons.py

The maskable icon is the same drawing on a full square: the card sits inside the central circle
(80% of the width) that every launcher mask keeps.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# (file, size in px, full-bleed square background)
OUTPUTS = [
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
]


def main() -> None:
    svg = (ICONS / "icon.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=["--no-sandbox"])
        for name, size, square in OUTPUTS:
            drawing = svg.replace('rx="112"', 'rx="0"') if square else svg
            drawing = drawing.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<body style='margin:0'>{drawing}</body>")
            page.locator("svg").screenshot(path=ICONS / name, omit_background=True)
            page.close()
            print(f"wrote {ICONS / name}")
        browser.close()


if __name__ == "__main__":
    main()
