"""Crash safety with a real `judgekb serve`: 16 concurrent writers, kill -9 mid-stream,
restart, and every ruling that got a 201 is there and intact (SQLite and PostgreSQL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from judgekb.kb.accounts import Accounts
from judgekb.kb.db import open_database
from judgekb.kb.model import CLI_ACTOR
from tests.kb.conftest import PASSWORD
from tests.pg import _free_port

WRITERS = 16


def _serve(data_dir: Path, db_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "JUDGEKB_DATA_DIR": str(data_dir), "JUDGEKB_DATABASE_URL": db_url}
    judgekb = Path(sys.executable).parent / "judgekb"
    proc = subprocess.Popen(
        [str(judgekb), "serve", "--port", str(port)],
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(
                f"judgekb serve exited {proc.returncode}: {log.read_text()[-2000:]}"
            )
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    proc.kill()
    raise AssertionError("judgekb serve did not come up in 180 s")


def _ruling(w: int, i: int) -> dict[str, object]:
    return {
        "game": "summoner-master",
        "question": f"writer {w} question {i}: ร่าย Seal ซ้อนได้ไหม",
        "answer": f"answer {w}/{i} " + "ตอบ" * (i % 7 + 1),
        "cites": ["602.1.4"] if i % 2 else ["602.1.4", "602.1"],
        "lang": "th",
        "source": {"kind": "judge"},
    }


@pytest.mark.slow
def test_kill_9_during_concurrent_writes_loses_no_acknowledged_ruling(
    built_settings, db_url, tmp_path
) -> None:
    db = open_database(db_url)
    acc = Accounts(db)
    acc.add_user("writer", "judge", PASSWORD, CLI_ACTOR)
    acc.add_user("checker", "head-judge", PASSWORD, CLI_ACTOR)
    write_token, read_token = (
        acc.create_token("writer", CLI_ACTOR),
        acc.create_token("checker", CLI_ACTOR),
    )
    db.dispose()
    port, log = _free_port(), tmp_path / "serve.log"
    server = _serve(built_settings.data_dir, db_url, port, log)
    acked: dict[int, dict[str, object]] = {}
    lock, stop = threading.Lock(), threading.Event()

    def writer(w: int) -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            i = 0
            while not stop.is_set():
                body = _ruling(w, i)
                try:
                    r = client.post(
                        "/api/rulings",
                        json=body,
                        headers={"Authorization": f"Bearer {write_token}"},
                    )
                except httpx.HTTPError:
                    return  # the server is gone
                if r.status_code == 201:
                    with lock:
                        acked[r.json()["ruling"]["id"]] = body
                i += 1

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    while len(acked) < 120 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(server.pid, signal.SIGKILL)  # mid-stream: writers are still posting
    server.wait()
    stop.set()
    for t in threads:
        t.join()
    assert len(acked) >= 120
    server = _serve(built_settings.data_dir, db_url, port, log)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            auth = {"Authorization": f"Bearer {read_token}"}
            stored = {}
            offset = 0
            while True:
                page = client.get(
                    "/api/rulings",
                    params={"status": "pending", "limit": 500, "offset": offset},
                    headers=auth,
                ).json()
                stored.update({r["id"]: r for r in page["rulings"]})
                if page["count"] < 500:
                    break
                offset += 500
        missing = sorted(set(acked) - set(stored))
        assert missing == []
        for rid, body in acked.items():
            got = stored[rid]
            assert (got["question"], got["answer"], [c["clause_id"] for c in got["cites"]]) == (
                body["question"],
                body["answer"],
                body["cites"],
            )
            assert got["revision"] == 1 and got["status"] == "pending"
    finally:
        server.terminate()
        server.wait(30)
