"""Version 1 of the HTTP interface: every route lives under ``/api/v1``."""

from fastapi import APIRouter

from api.v1 import branches, events, health, rules, schedule, scoring, sheets, webhooks

router = APIRouter(prefix="/api/v1")
router.include_router(health.router)
router.include_router(rules.router)
router.include_router(branches.router)
router.include_router(events.router)
router.include_router(schedule.router)
router.include_router(scoring.router)
router.include_router(sheets.router)
router.include_router(webhooks.router)
