"""A webhook receiver on 127.0.0.1 for the tests: records every request, answers scripted statuses."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """``statuses`` are answered in turn, the last one for every later request; headers are kept
    with lower-case names."""

    statuses: list[int] = field(default_factory=lambda: [200])
    delay_seconds: float = 0.0
    received: list[Received] = field(default_factory=list)
    url: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _arrived: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self._arrived = threading.Condition(self._lock)

    def record(self, request: Received) -> int:
        with self._arrived:
            self.received.append(request)
            self._arrived.notify_all()
            return self.statuses[min(len(self.received), len(self.statuses)) - 1]

    def wait_for(self, count: int, *, timeout: float = 10.0) -> list[Received]:
        """The requests once ``count`` have arrived; fails the test after ``timeout`` seconds."""
        with self._arrived:
            arrived = self._arrived.wait_for(lambda: len(self.received) >= count, timeout=timeout)
            assert arrived, f"{len(self.received)} of {count} deliveries arrived within {timeout}s"
            return list(self.received)


@contextmanager
def serve(statuses: list[int] | None = None, *, delay_seconds: float = 0.0) -> Iterator[Receiver]:
    receiver = Receiver(statuses=statuses or [200], delay_seconds=delay_seconds)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            headers = {name.lower(): value for name, value in self.headers.items()}
            status = receiver.record(Received(path=self.path, headers=headers, body=body))
            time.sleep(receiver.delay_seconds)  # a slow receiver, for the timeout test
            try:
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting (the timeout test)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the tests read ``received`` instead."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/zhisai"
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
