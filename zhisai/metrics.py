"""Prometheus metrics of the service (exposed at ``/metrics``).

Defined once per process; services count what matters to the people running a competition day.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

HTTP_REQUESTS = Counter("zhisai_http_requests_total", "HTTP requests answered", ["method", "route", "status"])
HTTP_LATENCY = Histogram(
    "zhisai_http_request_duration_seconds",
    "Time to answer an HTTP request",
    ["method", "route"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
DEALS_POSTED = Counter("zhisai_deals_posted_total", "Deals stored from the scoring forms")
WEBHOOK_DELIVERIES = Counter("zhisai_webhook_deliveries_total", "Webhook delivery attempts", ["outcome"])
RATE_LIMITED = Counter("zhisai_rate_limited_total", "Unauthenticated requests refused with 429")
