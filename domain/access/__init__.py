"""Who is calling: service API keys (union, referee, admin; optionally branch-scoped)."""
