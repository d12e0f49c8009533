"""scoring: game results, deals, penalties, Gongzhu hands, audit trail

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "audit_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("entity", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("entity_id", sa.Integer(), nullable=False),
        sa.Column("action", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("actor", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_audit_entry_event_id_event")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_entry")),
    )
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_entry_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_entry_event_id"), ["event_id"], unique=False)
    op.create_table(
        "deal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("deal_no", sa.Integer(), nullable=False),
        sa.Column("finish_order", sa.JSON(), nullable=False),
        sa.Column("level_adjustments", sa.JSON(), nullable=True),
        sa.Column("tribute", sa.JSON(), nullable=True),
        sa.Column("note", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("posted_by", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_deal_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deal")),
        sa.UniqueConstraint("game_id", "deal_no", name=op.f("uq_deal_game_id_deal_no")),
    )
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deal_game_id"), ["game_id"], unique=False)
    op.create_table(
        "game_result",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("state", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("end_reason", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=True),
        sa.Column("winner_side", sqlmodel.sql.sqltypes.AutoString(length=4), nullable=True),
        sa.Column("time_up_after", sa.Integer(), nullable=True),
        sa.Column("forfeit_side", sqlmodel.sql.sqltypes.AutoString(length=4), nullable=True),
        sa.Column("forfeit_reason", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=True),
        sa.Column("reported", sa.JSON(), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=False),
        sa.Column("confirmed_a_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("confirmed_b_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("final_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_game_result_event_id_event")),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_game_result_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_result")),
        sa.UniqueConstraint("game_id", name=op.f("uq_game_result_game_id")),
    )
    with op.batch_alter_table("game_result", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_result_event_id"), ["event_id"], unique=False)
    op.create_table(
        "gongzhu_hand",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("captured", sa.JSON(), nullable=False),
        sa.Column("exposed", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("posted_by", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_gongzhu_hand_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gongzhu_hand")),
        sa.UniqueConstraint("game_id", "hand_no", name=op.f("uq_gongzhu_hand_game_id_hand_no")),
    )
    with op.batch_alter_table("gongzhu_hand", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_gongzhu_hand_game_id"), ["game_id"], unique=False)
    op.create_table(
        "penalty",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sqlmodel.sql.sqltypes.AutoString(length=2), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("deal_no", sa.Integer(), nullable=True),
        sa.Column("note", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("recorded_by", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_penalty_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_penalty")),
    )
    with op.batch_alter_table("penalty", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_penalty_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("penalty", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_penalty_game_id"))
    op.drop_table("penalty")
    with op.batch_alter_table("gongzhu_hand", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_gongzhu_hand_game_id"))
    op.drop_table("gongzhu_hand")
    with op.batch_alter_table("game_result", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_result_event_id"))
    op.drop_table("game_result")
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deal_game_id"))
    op.drop_table("deal")
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_entry_event_id"))
        batch_op.drop_index(batch_op.f("ix_audit_entry_created_at"))
    op.drop_table("audit_entry")
