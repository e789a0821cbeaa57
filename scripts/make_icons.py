"""The app icons: an open rulebook, white on judgekb blue, as SVG and as PNGs.

    python scripts/make_icons.py

Writes judgekb/service/static/icons/: icon.svg (rounded, any size), icon-<n>.png for the web
manifest (48 … 512), maskable-512.png (full bleed, the book inside the 80 % safe zone) and
apple-touch-icon.png (180, opaque). The PNGs are rasterised by Debian's chromium (the one the
browser tests use), so no imaging library is needed; they are committed, not built at set-up.
"""

from __future__ import annotations

import sys
from base64 import b64encode
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.service.browsing import ARGS, CHROMIUM  # noqa: E402  (the tests' own launch flags)

OUT = REPO / "judgekb/service/static/icons"
BLUE = "#0b5cad"
SIZES = (48, 72, 96, 144, 192, 512)

BOOK = (
    '<path d="M0 0 Q72 -30 144 0 V208 Q72 180 0 208 Z M160 0 Q232 -30 304 0 V208 Q232 180 160 '
    '208 Z" fill="#fff"/>'
    '<path d="M24 40 Q72 24 120 40 M24 80 Q72 64 120 80 M24 120 Q72 104 120 120 M184 40 Q232 24 '
    '280 40 M184 80 Q232 64 280 80 M184 120 Q232 104 280 120" stroke="{blue}" stroke-width="12" '
    'fill="none" stroke-linecap="round"/>'
)


def svg(rounded: bool, scale: float) -> str:
    """The icon on a 512 square; ``scale`` of the 304-wide book, centred."""
    w, h = 304 * scale, 208 * scale
    move = f"translate({(512 - w) / 2:.1f} {(512 - h) / 2 + 8 * scale:.1f}) scale({scale})"
    rx = ' rx="104"' if rounded else ""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
        f'<rect width="512" height="512"{rx} fill="{BLUE}"/>'
        f'<g transform="{move}">{BOOK.format(blue=BLUE)}</g></svg>\n'
    )


def main() -> int:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    icon, full, maskable = svg(True, 1.25), svg(False, 1.25), svg(False, 1.0)
    (OUT / "icon.svg").write_text(icon, encoding="utf-8")
    jobs = [(f"icon-{n}.png", icon, n, True) for n in SIZES]
    jobs += [("maskable-512.png", maskable, 512, False), ("apple-touch-icon.png", full, 180, False)]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for name, source, n, transparent in jobs:
            page = browser.new_page(viewport={"width": n, "height": n})
            page.set_content(
                '<html><body style="margin:0;background:transparent">'
                f'<img src="data:image/svg+xml;base64,{b64encode(source.encode()).decode()}" '
                f'width="{n}" height="{n}" style="display:block"></body></html>'
            )
            page.screenshot(path=str(OUT / name), omit_background=transparent)
            page.close()
        browser.close()
    print(f"wrote {len(jobs) + 1} icons to {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
