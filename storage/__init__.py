"""Persistence: SQLModel tables, the engine and sessions. Pure domain code never imports this."""
