"""Webhooks to the union system: subscriptions, the outbox of signed deliveries, the delivery worker."""
