"""`judgekb serve`: uvicorn with the service's limits, and its errors in the service's shape.

Requests that uvicorn refuses before the app sees them (a request line plus headers over
``Settings.max_request_head_bytes``, a bare CR in a header, any malformed HTTP) are answered
by :class:`JsonErrorH11Protocol` with the same JSON error shape and security headers as the
app's own errors, instead of uvicorn's ``text/plain``. No ``server`` header is sent.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from judgekb.service.security import SECURITY_HEADERS

if TYPE_CHECKING:
    from fastapi import FastAPI

    from judgekb.config import Settings

LINGER_SECONDS = 2.0
BAD_REQUEST = "malformed HTTP request, or a request line and headers longer than the server accepts"


class JsonErrorH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, answering what it cannot parse in the service's error shape.

    After the answer it closes only its sending side and reads (and drops) what the client
    is still sending for a moment: closing a socket with unread input resets it, and the
    client would lose the answer (a 1 MB URL is still arriving when it is refused).
    """

    refused = False

    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"ok": False, "error": BAD_REQUEST, "status": 400}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
            *((k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.refused = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if not self.refused:
            super().data_received(data)


def run_server(app: FastAPI, host: str, port: int, settings: Settings) -> None:
    """Serve ``app`` until interrupted."""
    import uvicorn

    uvicorn.run(
        app,
        host=host,
        port=port,
        http=JsonErrorH11Protocol,
        h11_max_incomplete_event_size=settings.max_request_head_bytes,
        server_header=False,
        log_level="info",
    )
