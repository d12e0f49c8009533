"""ASGI middleware: request ids and the request body limit."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem_response


class BodyLimitMiddleware:
    """Refuses request bodies over ``max_bytes`` with 413, whether announced or streamed.

    A body without a Content-Length is read (up to the limit) before the app sees it, because the
    framework turns errors raised while it reads the body into a generic 400.
    """

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or int(declared) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = problem_response(
            413,
            rule="body-too-large",
            detail=f"the request body is larger than {self.max_bytes} bytes",
        )
        await response(scope, receive, send)


class RequestIdMiddleware:
    """Gives every request an id (or keeps the caller's ``X-Request-ID``) and echoes it back."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: dict[bytes, bytes] = dict(scope.get("headers", []))
        given = headers.get(b"x-request-id", b"").decode("latin-1")
        request_id = given if 0 < len(given) <= 100 and given.isprintable() else uuid.uuid4().hex
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = request_id

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode("latin-1"))]
            await send(message)

        await self.app(scope, receive, send_with_id)


class WriteGateMiddleware:
    """Lets at most ``limit`` writing requests into the app at once; the others wait here, in the
    event loop, without holding a worker thread.

    A writer waiting for the database's write lock (SQLite) or a row lock (PostgreSQL) blocks its
    worker thread; if every thread were taken by such waiters, the writer holding the lock could
    not get a thread to commit and all of them would time out. Keeping ``limit`` below the thread
    pool's size rules that out.
    """

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit
        self._gate: anyio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _current_gate(self) -> anyio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._gate is None or self._loop is not loop:
            self._gate, self._loop = anyio.Semaphore(self.limit), loop
        return self._gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        async with self._current_gate():
            await self.app(scope, receive, send)
