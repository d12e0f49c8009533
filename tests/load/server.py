"""The real server: uvicorn in a subprocess on 127.0.0.1, on a database prepared beforehand."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    database_url: str
    secret_key: str
    port: int = field(default_factory=free_port)
    workers: int = 1
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {
            **os.environ,
            "ZHISAI_DATABASE_URL": self.database_url,
            "ZHISAI_SECRET_KEY": self.secret_key,
            "ZHISAI_ENVIRONMENT": "test",
            "ZHISAI_LOG_LEVEL": "WARNING",
            "ZHISAI_PUBLIC_RATE_LIMIT_PER_MINUTE": "1000000",
            "ZHISAI_WEBHOOK_DELIVERY_ENABLED": "false",
        }
        command = [sys.executable, "-m", "uvicorn", "api.app:create_app", "--factory"]
        command += ["--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning"]
        command += ["--no-access-log", "--workers", str(self.workers)]
        self.process = subprocess.Popen(command, cwd=ROOT, env=env)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                if httpx.get(self.base_url + "/api/v1/health", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not answer in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what was committed must be all there is."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
