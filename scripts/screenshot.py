"""Screenshots of the results page for the README, in headless Chromium (Debian's).

    python scripts/screenshot.py [--query "ผู้เล่นแพ้เมื่อไหร่"] [--game one-piece] [--fake]

Starts the app on a free 127.0.0.1 port (the real store and index by default; ``--fake``
uses the test fixture), then writes docs/screenshot-search.png (phone, 390x844) and
docs/screenshot-search-laptop.png (1280x800), and prints the page weight of / and the
results page (HTML + CSS + JS, bytes) as JSON.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.service.browsing import ARGS, CHROMIUM  # noqa: E402  (the tests' own launch flags)

VIEWPORTS = {"screenshot-search.png": (390, 844), "screenshot-search-laptop.png": (1280, 800)}


def make_app(fake: bool):  # type: ignore[no-untyped-def]
    from judgekb.config import get_settings
    from judgekb.service.app import create_app

    if not fake:
        return create_app(get_settings())
    from tests.service.conftest import make_app as tiny_app  # the real Searcher, keyword encoder

    return tiny_app(Path(tempfile.mkdtemp()))


def serve(app) -> tuple[str, object]:  # type: ignore[no-untyped-def]
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def weight(base: str, path: str) -> dict[str, int]:
    """Bytes of HTML + CSS + JS, raw and gzipped as served."""
    urls = [path, "/static/app.css", "/static/app.js"]
    with httpx.Client(base_url=base) as http:
        raw = sum(len(http.get(u, headers={"Accept-Encoding": "identity"}).content) for u in urls)
        gz = 0
        for u in urls:
            r = http.stream("GET", u, headers={"Accept-Encoding": "gzip"})
            with r as resp:
                gz += sum(len(c) for c in resp.iter_raw())
    return {"raw_bytes": raw, "gzip_bytes": gz}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--query", default="ผู้เล่นแพ้เมื่อไหร่")
    ap.add_argument("--game", default="")
    ap.add_argument("--fake", action="store_true", help="use the test fixture, not var/")
    ap.add_argument("--out", type=Path, default=REPO / "docs")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    base, server = serve(make_app(args.fake))
    path = "/search?" + urlencode({"q": args.query, **({"game": args.game} if args.game else {})})
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for name, (w, h) in VIEWPORTS.items():
            page = browser.new_page(viewport={"width": w, "height": h})
            page.goto(base + path)
            page.screenshot(path=str(args.out / name))
            page.close()
        browser.close()
    report = {"home": weight(base, "/"), "results": weight(base, path), "results_path": path}
    server.should_exit = True  # type: ignore[attr-defined]
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
