"""Every table of the service, in one place (a module per domain area).

Alembic migrations are the only schema source; a test proves they equal these models on SQLite
and PostgreSQL. Pure domain code never imports this package.
"""

from storage.tables.access import ApiKey, IdempotencyRecord
from storage.tables.base import metadata, utcnow
from storage.tables.events import (
    Branch,
    Competition,
    Entry,
    EntryMember,
    Event,
    Lineup,
    LineupPair,
    Member,
    Registration,
)
from storage.tables.schedule import CheckIn, Draw, Game, Match, MatchEntry, Round
from storage.tables.scoring import AuditEntry, Deal, GameResult, GongzhuHand, Penalty
from storage.tables.webhooks import WebhookDelivery, WebhookSubscription

__all__ = [
    "ApiKey",
    "AuditEntry",
    "Branch",
    "CheckIn",
    "Competition",
    "Deal",
    "Draw",
    "Entry",
    "EntryMember",
    "Event",
    "Game",
    "GameResult",
    "GongzhuHand",
    "IdempotencyRecord",
    "Lineup",
    "LineupPair",
    "Match",
    "MatchEntry",
    "Member",
    "Penalty",
    "Registration",
    "Round",
    "WebhookDelivery",
    "WebhookSubscription",
    "metadata",
    "utcnow",
]
