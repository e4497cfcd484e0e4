"""Draw the home-screen icons (web/icons/*.png) from web/favicon.svg with Debian's chromium.

The manifest (web/manifest.webmanifest) lists them: a phone's launcher wants PNGs of fixed sizes, and a
"maskable" one whose picture keeps inside the central safe circle. Run after changing the favicon:
``.venv/bin/python scripts/make_icons.py``.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parents[1] / "web"
#: (file, size in pixels, share of the side the picture takes: a maskable icon keeps to the safe zone)
ICONS = [("icon-192.png", 192, 1.0), ("icon-512.png", 512, 1.0), ("maskable-512.png", 512, 0.72)]


def main() -> None:
    """Render each icon of ``ICONS`` into web/icons/."""
    svg = base64.b64encode((WEB / "favicon.svg").read_bytes()).decode()
    out = WEB / "icons"
    out.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        for name, size, share in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            inner = round(size * share)
            # a maskable icon fills its square with the felt green, so any mask shape shows no edge
            back = "#0f6b3a" if share < 1 else "transparent"
            page.set_content(
                f'<body style="margin:0;background:{back};display:grid;place-items:center;height:{size}px">'
                f'<img src="data:image/svg+xml;base64,{svg}" width="{inner}" height="{inner}"></body>'
            )
            page.screenshot(path=str(out / name), omit_background=share == 1.0)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
