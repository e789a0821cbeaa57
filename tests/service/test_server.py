"""A real `judgekb serve` process (uvicorn, keyword encoder, tiny corpus): no server header,
requests refused before the app still in the error shape, HEAD through uvicorn, and a new
generation picked up without a restart."""

from __future__ import annotations

import json
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from judgekb.index import generation
from judgekb.index.rebuild import build_all
from judgekb.service.security import SECURITY_HEADERS
from tests.fakes import FakeEmbedder
from tests.tinybooks import edit_books, judgekb, settings, write_books


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("server")
    write_books(root)
    build_all(settings(root), embedder_factory=FakeEmbedder)
    port = free_port()
    proc = judgekb(root, "serve", "--port", str(port), JUDGEKB_RELOAD_INTERVAL="0.2")
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
        assert time.monotonic() < deadline, "the server did not start"
        try:
            httpx.get(base + "/healthz", timeout=1)
            break
        except httpx.TransportError:
            time.sleep(0.1)
    yield base, root
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)


def raw(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are; the status, headers and body of the answer."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        try:
            s.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused part-way through: the answer is still there to read
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    pairs = (line.split(": ", 1) for line in lines[1:])
    headers = {name.lower(): value for name, value in pairs}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /api/search?q=" + b"a" * 1_000_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Probe: a\rb\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 1_000_000 + b"\r\n\r\n",
        b"NOT HTTP AT ALL\r\n\r\n",
    ],
    ids=["1MB-url", "bare-CR", "1MB-header", "garbage"],
)
def test_requests_refused_before_the_app_keep_the_error_shape(
    server: tuple[str, Path], request_bytes: bytes
) -> None:
    base, _ = server
    status, headers, body = raw(base, request_bytes)
    assert status == 400 and headers["content-type"] == "application/json"
    assert json.loads(body) == {
        "ok": False,
        "error": "malformed HTTP request, or a request line and headers longer than the "
        "server accepts",
        "status": 400,
    }
    assert all(headers[k.lower()] == v for k, v in SECURITY_HEADERS.items())
    assert "server" not in headers
    assert httpx.get(base + "/healthz").status_code == 200  # and the server goes on


def test_no_server_header_and_head_through_uvicorn(server: tuple[str, Path]) -> None:
    base, _ = server
    for path in ("/", "/healthz", "/api/search?q=draw", "/no-such-page"):
        get, head = httpx.get(base + path), httpx.head(base + path)
        assert "server" not in get.headers and "server" not in head.headers
        assert head.status_code == get.status_code and head.content == b""
    r = httpx.post(base + "/api/games")
    assert (r.status_code, r.headers["allow"]) == (405, "GET, HEAD")


def test_a_running_server_picks_up_a_new_generation(server: tuple[str, Path]) -> None:
    base, root = server
    old = httpx.get(base + "/healthz").json()["generation"]
    edit_books(root, 2)
    build_all(settings(root), embedder_factory=FakeEmbedder)
    new = generation.current(root / "var")
    assert new is not None and new.id != old
    deadline = time.monotonic() + 15
    while httpx.get(base + "/healthz").json()["generation"] != new.id:
        assert time.monotonic() < deadline, "the new generation was never served"
        time.sleep(0.1)
    hits = httpx.get(base + "/api/search", params={"q": "102.2", "game": "summoner-master"})
    assert hits.json()["results"][0]["clause_id"] == "102.2"
