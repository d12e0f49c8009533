"""Settings from the environment (prefix ``ZHISAI_``), read once per process.

The scorer-token secret is never a hard-coded default: in development it is generated on first
run and kept beside the database; in production it must be given.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DATA_DIR = Path("data")
DEFAULT_DATABASE_URL = f"sqlite:///{DATA_DIR / 'zhisai.db'}"
PLACEHOLDER_SECRETS = frozenset({"", "changeme", "change-me", "secret", "changethis"})


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ZHISAI_", env_file=".env", extra="ignore")

    environment: Literal["development", "test", "production"] = Field(
        default="development", description="production refuses generated or placeholder secrets"
    )
    database_url: str = Field(default=DEFAULT_DATABASE_URL, description="SQLAlchemy URL")
    secret_key: str | None = Field(default=None, description="signs scorer tokens; min. 32 characters")
    secret_file: Path = Field(default=DATA_DIR / "secret_key", description="where a generated secret is kept")
    cors_origins: list[str] = Field(default_factory=list, description="origins allowed to call the API")
    log_level: str = Field(default="INFO")
    max_body_bytes: int = Field(default=2_000_000, description="larger request bodies are refused (413)")
    public_rate_limit_per_minute: int = Field(
        default=600, gt=0, description="requests a minute per address without credentials (429 beyond)"
    )
    worker_threads: int = Field(default=64, ge=8, description="threads serving requests")
    max_concurrent_writes: int = Field(
        default=24, ge=1, description="writing requests admitted at once; the rest wait without a thread"
    )
    json_logs: bool = Field(default=True, description="one JSON object per log line, with the request id")
    webhook_delivery_enabled: bool = Field(
        default=True,
        description="run the webhook delivery worker in the app (off: deliveries wait in the outbox)",
    )
    webhook_timeout_seconds: float = Field(
        default=10.0, gt=0, le=60, description="per phase of one delivery post (connect, write, read)"
    )
    webhook_max_attempts: int = Field(
        default=8, ge=1, le=30, description="a delivery is failed after this many"
    )
    webhook_backoff_base_seconds: float = Field(
        default=30.0, gt=0, description="wait after the first failed attempt; doubles after each one"
    )
    webhook_backoff_cap_seconds: float = Field(
        default=3600.0, gt=0, description="the longest wait between attempts"
    )
    webhook_poll_seconds: float = Field(
        default=2.0, gt=0, description="how often the worker looks for due deliveries"
    )

    @model_validator(mode="after")
    def _production_needs_a_real_secret(self) -> Settings:
        if self.environment == "production" and (
            self.secret_key is None
            or self.secret_key.lower() in PLACEHOLDER_SECRETS
            or len(self.secret_key) < 32
        ):
            raise ValueError("ZHISAI_SECRET_KEY must be set to at least 32 random characters in production")
        return self

    def signing_secret(self) -> str:
        """The scorer-token secret: the configured one, else the stored one, else a new stored one."""
        if self.secret_key:
            return self.secret_key
        if self.secret_file.exists():
            return self.secret_file.read_text(encoding="utf-8").strip()
        self.secret_file.parent.mkdir(parents=True, exist_ok=True)
        generated = secrets.token_urlsafe(48)
        self.secret_file.write_text(generated, encoding="utf-8")
        self.secret_file.chmod(0o600)
        return generated


@lru_cache
def get_settings() -> Settings:
    return Settings()
