"""webhooks: subscriptions and the outbox of their deliveries

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "webhook_subscription",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("url", sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
        sa.Column("kinds", sa.JSON(), nullable=False),
        sa.Column("secret", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("created_by", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name=op.f("fk_webhook_subscription_event_id_event")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_subscription")),
        sa.UniqueConstraint("event_id", "url", name=op.f("uq_webhook_subscription_event_id_url")),
    )
    op.create_index(
        op.f("ix_webhook_subscription_event_id"), "webhook_subscription", ["event_id"], unique=False
    )
    op.create_table(
        "webhook_delivery",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uuid", sqlmodel.sql.sqltypes.AutoString(length=36), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("body", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["webhook_subscription.id"],
            name=op.f("fk_webhook_delivery_subscription_id_webhook_subscription"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_delivery")),
        sa.UniqueConstraint("uuid", name=op.f("uq_webhook_delivery_uuid")),
    )
    op.create_index(
        "ix_webhook_delivery_status_next_attempt_at",
        "webhook_delivery",
        ["status", "next_attempt_at"],
        unique=False,
    )
    op.create_index(
        op.f("ix_webhook_delivery_subscription_id"), "webhook_delivery", ["subscription_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_webhook_delivery_subscription_id"), table_name="webhook_delivery")
    op.drop_index("ix_webhook_delivery_status_next_attempt_at", table_name="webhook_delivery")
    op.drop_table("webhook_delivery")
    op.drop_index(op.f("ix_webhook_subscription_event_id"), table_name="webhook_subscription")
    op.drop_table("webhook_subscription")
