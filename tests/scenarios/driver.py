"""The HTTP driver the scenarios use; it lives in ``zhisai.demo_driver`` so ``zhisai demo`` runs the
very same calls. Import it from here in tests."""

from __future__ import annotations

from zhisai.demo_driver import API, ApiError, Clock, Driver, bearer, local, member_row

__all__ = ["API", "ApiError", "Clock", "Driver", "bearer", "local", "member_row"]
