"""Bounded HTTP load test of /api/search on this machine only.

    python scripts/loadtest.py [--url http://127.0.0.1:8000] [--clients 16] [--seconds 60]
        [--rate 50] [--unique] [--long-clients 2] [--server-pid PID] [--json]

N clients send a mix of Thai, Malay and English questions and clause-number lookups.

- ``--rate R`` is an open loop: client *n* is due at ``start + n / R`` and then every
  ``clients / R`` seconds, and sends when due whether or not its previous answer came back.
  Latency is measured from when a request was *due*, so a client or server that falls behind
  cannot hide it (no coordinated omission). Without ``--rate`` each client waits for its answer
  before sending again (closed loop).
- ``--unique`` makes every text unique per client, per request and per run (a random run
  nonce), so no query-vector cache can answer; the script counts the distinct texts it sent
  and fails unless that equals the number of requests.
- ``--long-clients K``: the first K clients send 1,000-character questions (latency reported
  apart), the case of issue 16 where two such clients slowed everyone else.

Reported: requests due and sent, achieved rate, p50/p95/p99 of answered requests, errors
(timeouts, 5xx, anything but 200 and a well-formed 503), 503s (each checked for
``Retry-After`` and the error shape), and the server's RSS before and after (read from
``/proc/<pid>/status``; the pid is found from the listening port unless ``--server-pid``),
after ``--settle`` idle seconds. Only loopback addresses are accepted, and duration and
request count are capped, so a run always stops by itself.

``--serve-fake`` serves the app in-process over the tests' tiny store and one-hot encoder,
to check the script itself without a built index.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import re
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
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
LONG_QUESTION = (
    "ถ้าผู้เล่นประกาศโจมตีด้วยยูนิตที่ถูกพักอยู่แล้ว แล้วฝ่ายตรงข้ามใช้เอฟเฟกต์ตอบโต้ "
    "ในช่วงการต่อสู้ จะต้องแก้ไขสถานการณ์อย่างไรตามกฎ และการ์ดที่ถูกทำลายจะไปอยู่ที่ใด "
)
LONG_CHARS = 1000
MAX_SECONDS = 300
MAX_CLIENTS = 64
MAX_REQUESTS = 100_000
TIMEOUT_S = 30.0


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


# --- the server's memory -----------------------------------------------------------------


def listening_pid(port: int) -> int | None:
    """The pid of the process listening on loopback ``port`` (Linux /proc), if readable."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:  # LISTEN
                inodes.add(cols[9])
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                link = os.readlink(fd)
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    return int(proc.name)
        except OSError:
            continue
    return None


def rss_mb(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


# --- the clients -------------------------------------------------------------------------


@dataclass
class Tally:
    """Everything the clients saw."""

    texts: list[str] = field(default_factory=list)
    ok_ms: list[float] = field(default_factory=list)
    long_ms: list[float] = field(default_factory=list)
    busy: int = 0  # well-formed 503 + Retry-After
    busy_why: dict[str, int] = field(default_factory=dict)  # their messages, digits as N
    errors: list[str] = field(default_factory=list)
    late_ms: list[float] = field(default_factory=list)  # how late the client sent

    @property
    def sent(self) -> int:
        return len(self.texts)


@dataclass(frozen=True)
class Plan:
    """What each client sends and when."""

    clients: int
    rate: float
    unique: bool
    long_clients: int
    nonce: str
    queries: tuple[tuple[str, str | None], ...]

    def text(self, client: int, i: int) -> tuple[str, str | None]:
        q, game = self.queries[(client + i) % len(self.queries)]
        if client < self.long_clients:
            q, game = (LONG_QUESTION * 10)[: LONG_CHARS - 24], None
        if self.unique:  # unique per run, client and request: no cache can answer it
            q = f"{q} {self.nonce}-{client}-{i}"
        return q, game


def busy_ok(r: httpx.Response) -> bool:
    """A 503 as the service promises it: Retry-After and the error shape."""
    try:
        body = r.json()
    except ValueError:
        return False
    shape = body.get("ok") is False and body.get("status") == 503 and bool(body.get("error"))
    return shape and r.headers.get("retry-after", "").isdigit()


async def one_request(
    http: httpx.AsyncClient, plan: Plan, tally: Tally, client: int, i: int, due: float
) -> None:
    q, game = plan.text(client, i)
    tally.texts.append(q)
    tally.late_ms.append(max(0.0, time.perf_counter() - due) * 1000)
    params = {"q": q, "k": "10", **({"game": game} if game else {})}
    try:
        r = await http.get("/api/search", params=params)
    except httpx.HTTPError as exc:
        tally.errors.append(f"{type(exc).__name__}")
        return
    took = (time.perf_counter() - due) * 1000
    if r.status_code == 200:
        (tally.long_ms if client < plan.long_clients else tally.ok_ms).append(took)
    elif r.status_code == 503 and busy_ok(r):
        tally.busy += 1
        why = re.sub(r"\d+", "N", r.json()["error"])
        tally.busy_why[why] = tally.busy_why.get(why, 0) + 1
    else:
        tally.errors.append(f"{r.status_code} {r.text[:80]}")


async def client_loop(
    http: httpx.AsyncClient, plan: Plan, tally: Tally, client: int, start: float, end: float
) -> None:
    pending: set[asyncio.Task[None]] = set()
    i = 0
    interval = plan.clients / plan.rate if plan.rate else 0.0
    due = start + (client / plan.rate if plan.rate else 0.0)
    while due < end and tally.sent < MAX_REQUESTS:
        if interval:  # open loop: send when due, answered or not
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            task = asyncio.create_task(one_request(http, plan, tally, client, i, due))
            pending.add(task)
            task.add_done_callback(pending.discard)
            due += interval
        else:  # closed loop: the next request when this one is answered
            await one_request(http, plan, tally, client, i, time.perf_counter())
            due = time.perf_counter()
        i += 1
    if pending:
        await asyncio.gather(*pending)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))], 1)


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": percentile(values, 50),
        "p95_ms": percentile(values, 95),
        "p99_ms": percentile(values, 99),
        "mean_ms": round(statistics.fmean(values), 1) if values else 0.0,
    }


async def run(url: str, plan: Plan, seconds: float, pid: int | None, settle: float) -> dict:
    tally = Tally()
    limits = httpx.Limits(max_connections=plan.clients * 8, max_keepalive_connections=plan.clients)
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT_S, limits=limits) as http:
        (await http.get("/healthz")).raise_for_status()  # fail fast when no server is there
        games = {g["slug"] for g in (await http.get("/api/games")).json()}
        queries = tuple((q, g) for q, g in QUERIES if g is None or g in games)
        plan = replace(plan, queries=queries)
        rss_before = rss_mb(pid)
        start = time.perf_counter()
        end = start + seconds
        await asyncio.gather(
            *(client_loop(http, plan, tally, n, start, end) for n in range(plan.clients))
        )
        elapsed = time.perf_counter() - start
    await asyncio.sleep(settle)
    answered = len(tally.ok_ms) + len(tally.long_ms)
    report = {
        "url": url + "/api/search",
        "clients": plan.clients,
        "rate": plan.rate or "closed loop",
        "unique_queries": plan.unique,
        "run_nonce": plan.nonce,
        "seconds": round(elapsed, 2),
        "requests": tally.sent,
        "distinct_texts": len(set(tally.texts)),
        "sent_per_s": round(tally.sent / elapsed, 1),
        "answered_per_s": round(answered / elapsed, 1),
        **summary(tally.ok_ms),
        "errors": len(tally.errors),
        "error_samples": sorted(set(tally.errors))[:5],
        "busy_503": tally.busy,
        "busy_503_why": tally.busy_why,
        "client_late_p95_ms": percentile(tally.late_ms, 95),
        "server_pid": pid,
        "server_rss_mb_before": rss_before,
        "server_rss_mb_after": rss_mb(pid),
        "settle_s": settle,
    }
    if plan.long_clients:
        report["long_clients"] = plan.long_clients
        report["long_queries"] = {"answered": len(tally.long_ms), **summary(tally.long_ms)}
    return report


def serve_fake() -> tuple[str, object]:
    """Start the app over the tests' tiny store and one-hot encoder on a free loopback port."""
    import socket
    import tempfile
    import threading

    import uvicorn

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from judgekb.config import Settings
    from judgekb.corpus.store import ClauseStore, write_store
    from judgekb.index.build import build_index
    from judgekb.index.search import Searcher
    from judgekb.service.app import create_app
    from tests.fakes import FakeEmbedder
    from tests.service.conftest import AMENDMENTS, CLAUSES, DOCS, REFS

    tmp = Path(tempfile.mkdtemp())
    write_store(tmp / "clauses.sqlite", DOCS, CLAUSES, REFS, AMENDMENTS)
    store = ClauseStore(tmp / "clauses.sqlite")
    build_index(store, tmp / "index", tmp / "cache.sqlite", FakeEmbedder, FakeEmbedder.name)
    searcher = Searcher(store, tmp / "index", FakeEmbedder(), FakeEmbedder.name)
    app = create_app(Settings(data_dir=tmp), searcher)
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
    ap.add_argument("--clients", type=int, default=16, help=f"clients (<= {MAX_CLIENTS})")
    ap.add_argument("--seconds", type=float, default=30, help=f"duration (<= {MAX_SECONDS})")
    ap.add_argument(
        "--rate", type=float, default=0.0, help="open loop: total requests/s (0 = closed loop)"
    )
    ap.add_argument(
        "--unique", action="store_true", help="every text unique (per client, request, run)"
    )
    ap.add_argument(
        "--long-clients", type=int, default=0, help="clients sending 1,000-char questions"
    )
    ap.add_argument(
        "--server-pid", type=int, help="server pid for RSS (default: found from the port)"
    )
    ap.add_argument("--settle", type=float, default=5.0, help="idle seconds before RSS after")
    ap.add_argument("--serve-fake", action="store_true", help="serve an in-process fake app")
    args = ap.parse_args(argv)
    clients = max(1, min(args.clients, MAX_CLIENTS))
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    server = None
    url = args.url
    if args.serve_fake:
        url, server = serve_fake()
    url = check_loopback(url)
    pid = args.server_pid or (os.getpid() if server else listening_pid(urlsplit(url).port or 80))
    plan = Plan(
        clients,
        max(0.0, args.rate),
        args.unique,
        max(0, args.long_clients),
        secrets.token_hex(4),
        (),
    )
    report = asyncio.run(run(url, plan, seconds, pid, max(0.0, args.settle)))
    if server is not None:
        server.should_exit = True  # type: ignore[attr-defined]
        report["server"] = "in-process fake (tests/fakes.py one-hot encoder, tiny store)"
    print(json.dumps(report, ensure_ascii=False, indent=2))
    if args.unique and report["distinct_texts"] != report["requests"]:
        print(
            f"NOT UNIQUE: {report['distinct_texts']} distinct texts for {report['requests']} requests",
            file=sys.stderr,
        )
        return 2
    return 0 if report["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
