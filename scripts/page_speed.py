"""First byte and page weight of the main pages, as a phone on a fresh visit sees them.

    python scripts/page_speed.py [--runs 40] [--baseline DIR]

Starts ``judgekb serve`` on the real store and index (var/) in a child process on a free
loopback port and, for each page, reports the weight of the HTML plus every stylesheet and
script it links (raw and gzip, as served) and the time to first byte over ``--runs``
sequential requests (median and p95, after 3 warm-up requests; a search repeats the same
query, so the searcher's query-vector cache answers after the first: the figure is the cost of
the page itself). ``--baseline DIR`` also serves another checkout of the code (e.g.
``git archive <commit> | tar -x -C DIR``) over the same var/ and alternates requests between
the two, so that both see the same machine load. Timings only mean something on an idle
machine: the load average is printed with them.
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
from contextlib import ExitStack
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


def start(code: Path, stack: ExitStack) -> httpx.Client:
    """``judgekb serve`` from the source tree ``code`` over this repository's var/."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(code),
        "JUDGEKB_DATA_DIR": str(REPO / "var"),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    cmd = [sys.executable, "-c", "from judgekb.cli import app; app()", "serve", "--port", str(port)]
    server = subprocess.Popen(
        cmd, cwd=code, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    stack.callback(server.wait, 10)
    stack.callback(server.terminate)
    http = stack.enter_context(httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30))
    deadline = time.monotonic() + 180
    while True:
        try:
            if http.get("/healthz").status_code == 200:
                return http
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit(f"the server of {code} did not start")
        time.sleep(0.5)


def served_bytes(http: httpx.Client, url: str) -> tuple[int, int, str]:
    raw = http.get(url, headers={"Accept-Encoding": "identity"})
    with http.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as r:
        gz = sum(len(c) for c in r.iter_raw())
    return len(raw.content), gz, raw.text


def weight(http: httpx.Client, path: str) -> dict[str, int]:
    """HTML + the CSS and JS it links (what a first visit downloads before it can run)."""
    raw, gz, html = served_bytes(http, path)
    for asset in dict.fromkeys(ASSET_RE.findall(html)):
        r, g, _ = served_bytes(http, asset)
        raw, gz = raw + r, gz + g
    return {"raw_bytes": raw, "gzip_bytes": gz}


def first_byte(http: httpx.Client, path: str) -> float:
    t0 = time.perf_counter()
    with http.stream("GET", path, headers={"Accept-Encoding": "gzip"}) as r:
        next(r.iter_raw(), b"")
        return (time.perf_counter() - t0) * 1000


def summary(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {
        "ttfb_p50_ms": round(statistics.median(times), 2),
        "ttfb_p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--baseline", type=Path, help="another source tree to compare with")
    args = ap.parse_args()
    with ExitStack() as stack:
        servers = {"current": start(REPO, stack)}
        if args.baseline:
            servers["baseline"] = start(args.baseline.resolve(), stack)
        report: dict[str, object] = {"load_average_before": os.getloadavg()[0]}
        for name, path in PAGES.items():
            times: dict[str, list[float]] = {s: [] for s in servers}
            for i in range(args.runs + 3):
                for label, http in servers.items():  # alternate: both see the same load
                    dt = first_byte(http, path)
                    if i >= 3:
                        times[label].append(dt)
            report[name] = {
                label: {"path": path, **weight(http, path), **summary(times[label])}
                for label, http in servers.items()
            }
        report["load_average_after"] = os.getloadavg()[0]
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
