"""Headers every response carries, and HEAD wherever GET is served.

:class:`SecurityHeaders` is pure ASGI and the outermost middleware: it adds the headers to
every response that passes through it and answers HEAD with the GET response's headers and
no body. A 500 is sent by Starlette's outermost error middleware, outside every other
middleware, so :func:`judgekb.service.errors.error_response` adds the same headers itself.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'; worker-src 'self'; manifest-src 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
STATIC_CACHE = "public, max-age=86400"


def add_security_headers(headers: MutableHeaders) -> None:
    for name, value in SECURITY_HEADERS.items():
        headers.setdefault(name, value)


class SecurityHeaders:
    """CSP without inline scripts (all JS is in /static), nosniff, no framing; HEAD = GET
    without the body; a 405's ``Allow`` names HEAD too where GET is allowed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}
        static = scope["path"].startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                add_security_headers(headers)
                if static:
                    headers.setdefault("Cache-Control", STATIC_CACHE)
                allow = headers.get("allow")
                if allow and "GET" in allow and "HEAD" not in allow:
                    headers["Allow"] = f"{allow}, HEAD"
            elif message["type"] == "http.response.body" and head:
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, receive, send_with_headers)
