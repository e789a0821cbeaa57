"""Bounded HTTP load test of /api/search on this machine only.

    python scripts/loadtest.py [--url http://127.0.0.1:8000] [--clients 16] [--seconds 30]

N concurrent clients send a mix of Thai, Malay and English queries (and clause-number
lookups) for a fixed time, then print requests/s, p50/p95/p99 latency and the error count as
JSON. Only loopback addresses are accepted, and both the duration and the request count are
capped, so the run always stops by itself.

``--serve-fake`` starts the app in-process on a free loopback port over a tiny store (the test
fixture's FakeSearcher) to check the script itself without a built index.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import statistics
import sys
import time
from urllib.parse import urlsplit

import httpx

QUERIES = [
    ("ผู้เล่นแพ้เมื่อไหร่", None),
    ("การ์ดในมือเกินจำนวน", None),
    ("ร่าย Seal", "summoner-master"),
    ("602.1.4", "summoner-master"),
    ("ข้อ 1-2-2-1", "gundam"),
    ("ดอนการ์ด", "one-piece"),
    ("เงื่อนไขการแพ้", "one-piece"),
    ("Bilakah pemain kalah?", "vanguard"),
    ("tindakan peraturan", "vanguard"),
    ("fasal 13.1", "vanguard"),
    ("when does a player lose the game", None),
    ("draw a card at the start of the turn", None),
    ("Trigger Effect", "summoner-master"),
]
MAX_SECONDS = 300
MAX_CLIENTS = 64
MAX_REQUESTS = 1_000_000


def check_loopback(url: str) -> str:
    """Refuse any target that is not this machine."""
    host = urlsplit(url).hostname or ""
    try:
        ok = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        ok = False
    if not ok:
        raise SystemExit(f"refusing {url!r}: the load test targets 127.0.0.1/localhost only")
    return url.rstrip("/")


async def client_loop(
    http: httpx.AsyncClient,
    n: int,
    deadline: float,
    lat: list[float],
    errors: list[str],
    queries: list[tuple[str, str | None]],
    interval: float = 0.0,
    unique: bool = False,
) -> None:
    i = n
    next_at = time.perf_counter() + interval * n / max(1, len(queries))
    while time.perf_counter() < deadline and len(lat) + len(errors) < MAX_REQUESTS:
        if interval:  # open loop: this client sends one request every `interval` seconds
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            next_at += interval
        q, game = queries[i % len(queries)]
        if unique:  # a fresh text every time: no cache can answer it
            q = f"{q} {i}"
        i += 1
        params = {"q": q, "k": "10", **({"game": game} if game else {})}
        t0 = time.perf_counter()
        try:
            r = await http.get("/api/search", params=params)
            if r.status_code != 200:
                errors.append(f"{r.status_code} {q}")
                continue
        except httpx.HTTPError as exc:
            errors.append(f"{type(exc).__name__} {q}")
            continue
        lat.append(time.perf_counter() - t0)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def run(
    url: str, clients: int, seconds: float, rate: float = 0.0, unique: bool = False
) -> dict:
    lat: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        (await http.get("/healthz")).raise_for_status()  # fail fast when no server is there
        games = {g["slug"] for g in (await http.get("/api/games")).json()}
        queries = [(q, g) for q, g in QUERIES if g is None or g in games]
        start = time.perf_counter()
        deadline = start + seconds
        await asyncio.gather(
            *(
                client_loop(
                    http, n, deadline, lat, errors, queries, clients / rate if rate else 0.0, unique
                )
                for n in range(clients)
            )
        )
        elapsed = time.perf_counter() - start
    return {
        "url": url + "/api/search",
        "clients": clients,
        "rate": rate or "closed loop",
        "unique_queries": unique,
        "seconds": round(elapsed, 2),
        "requests": len(lat) + len(errors),
        "requests_per_s": round((len(lat) + len(errors)) / elapsed, 1),
        "p50_ms": round(percentile(lat, 50) * 1000, 1),
        "p95_ms": round(percentile(lat, 95) * 1000, 1),
        "p99_ms": round(percentile(lat, 99) * 1000, 1),
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else 0.0,
        "errors": len(errors),
        "error_samples": sorted(set(errors))[:5],
    }


def serve_fake() -> tuple[str, object]:
    """Start the app over the test fixture's tiny store on a free loopback port."""
    import socket
    import tempfile
    import threading
    from pathlib import Path

    import uvicorn

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from judgekb.config import Settings
    from judgekb.corpus.store import ClauseStore, write_store
    from judgekb.service.app import create_app
    from tests.service.conftest import AMENDMENTS, CLAUSES, DOCS, REFS, FakeSearcher

    path = Path(tempfile.mkdtemp()) / "clauses.sqlite"
    write_store(path, DOCS, CLAUSES, REFS, AMENDMENTS)
    app = create_app(Settings(data_dir=path.parent), FakeSearcher(ClauseStore(path)))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--url", default="http://127.0.0.1:8000", help="loopback base URL")
    ap.add_argument(
        "--clients", type=int, default=16, help=f"concurrent clients (<= {MAX_CLIENTS})"
    )
    ap.add_argument("--seconds", type=float, default=30, help=f"duration (<= {MAX_SECONDS})")
    ap.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="open loop: total requests/s spread over the clients (0 = closed loop)",
    )
    ap.add_argument(
        "--unique",
        action="store_true",
        help="make every query text unique (defeats the query-vector cache)",
    )
    ap.add_argument("--serve-fake", action="store_true", help="load an in-process fake app")
    args = ap.parse_args(argv)
    clients = max(1, min(args.clients, MAX_CLIENTS))
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    server = None
    url = args.url
    if args.serve_fake:
        url, server = serve_fake()
    report = asyncio.run(run(check_loopback(url), clients, seconds, args.rate, args.unique))
    if server is not None:
        server.should_exit = True  # type: ignore[attr-defined]
        report["server"] = "in-process fake (tests/service/conftest.py)"
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0 if report["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
