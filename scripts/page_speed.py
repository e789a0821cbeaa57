"""First byte and page weight of the main pages, as a phone on a fresh visit sees them.

    python scripts/page_speed.py [--port 8017] [--runs 40] [--json]

Starts ``judgekb serve`` on the real store and index (var/) in a child process on a free
loopback port, then for each page: the weight of the HTML plus every stylesheet and script it
links (raw and gzip, as served), and the time to first byte over ``--runs`` sequential
requests (median and p95, after 3 warm-up requests; a search query is the same each time, so
the searcher's query-vector cache answers after the first: the figure is the page's own cost).
Timings are only meaningful on an idle machine: the script prints ``uptime``'s load average.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx

REPO = Path(__file__).resolve().parents[1]
PAGES = {
    "home": "/",
    "search": "/search?q=" + quote("ผู้เล่นแพ้เมื่อไหร่") + "&game=gundam",
    "clause": "/rules/summoner-master/602.1.4",
    "toc": "/rules/vanguard",
}
ASSET_RE = re.compile(r'<(?:script[^>]+src|link[^>]+rel="stylesheet"[^>]+href)="(/[^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def served_bytes(http: httpx.Client, url: str) -> tuple[int, int, str]:
    raw = http.get(url, headers={"Accept-Encoding": "identity"})
    with http.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
        gz = sum(len(c) for c in r.iter_raw())
    return len(raw.content), gz, raw.text


def weight(http: httpx.Client, path: str) -> dict[str, int]:
    """HTML + the CSS and JS it links (what a first visit downloads before it can render)."""
    raw, gz, html = served_bytes(http, path)
    for asset in dict.fromkeys(ASSET_RE.findall(html)):
        r, g, _ = served_bytes(http, asset)
        raw, gz = raw + r, gz + g
    return {"raw_bytes": raw, "gzip_bytes": gz}


def first_byte_ms(http: httpx.Client, path: str, runs: int) -> dict[str, float]:
    times = []
    for i in range(runs + 3):
        t0 = time.perf_counter()
        with http.stream("GET", path, headers={"Accept-Encoding": "gzip"}) as r:
            next(r.iter_raw(), b"")
            dt = (time.perf_counter() - t0) * 1000
        if i >= 3:
            times.append(dt)
    times.sort()
    return {
        "ttfb_p50_ms": round(statistics.median(times), 2),
        "ttfb_p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--runs", type=int, default=40)
    args = ap.parse_args()
    port = args.port or free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    server = subprocess.Popen(
        [str(REPO / ".venv/bin/judgekb"), "serve", "--port", str(port)],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if http.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start within 120 s")
                time.sleep(0.5)
            report: dict[str, object] = {"load_average": os.getloadavg()[0]}
            for name, path in PAGES.items():
                report[name] = {
                    "path": path,
                    **weight(http, path),
                    **first_byte_ms(http, path, args.runs),
                }
            report["load_average_after"] = os.getloadavg()[0]
    finally:
        server.terminate()
        server.wait(10)
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
