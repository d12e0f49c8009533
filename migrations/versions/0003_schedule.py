"""schedule: draws, check-ins, rounds, matches, games

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "draw",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("stage", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("method", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("commitment", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("seed", sqlmodel.sql.sqltypes.AutoString(length=128), nullable=True),
        sa.Column("algorithm_version", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("entry_ids", sa.JSON(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("recorded_by", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_draw_event_id_event")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_draw")),
        sa.UniqueConstraint("event_id", "stage", name=op.f("uq_draw_event_id_stage")),
    )
    with op.batch_alter_table("draw", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_draw_event_id"), ["event_id"], unique=False)
    op.create_table(
        "round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("stage", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("pairing_published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("results_published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_round_event_id_event")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round")),
        sa.UniqueConstraint("event_id", "stage", "number", name=op.f("uq_round_event_id_stage_number")),
    )
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_round_event_id"), ["event_id"], unique=False)
    op.create_table(
        "check_in",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("checked_in_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["entry.id"], name=op.f("fk_check_in_entry_id_entry")),
        sa.ForeignKeyConstraint(["round_id"], ["round.id"], name=op.f("fk_check_in_round_id_round")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_check_in")),
        sa.UniqueConstraint("round_id", "entry_id", name=op.f("uq_check_in_round_id_entry_id")),
    )
    with op.batch_alter_table("check_in", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_check_in_round_id"), ["round_id"], unique=False)
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("group_label", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True),
        sa.Column("block", sa.Integer(), nullable=True),
        sa.Column("bracket_slot", sa.Integer(), nullable=True),
        sa.Column("bracket", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("is_bye", sa.Boolean(), nullable=False),
        sa.Column("winner_entry_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_match_event_id_event")),
        sa.ForeignKeyConstraint(["round_id"], ["round.id"], name=op.f("fk_match_round_id_round")),
        sa.ForeignKeyConstraint(
            ["winner_entry_id"], ["entry.id"], name=op.f("fk_match_winner_entry_id_entry")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match")),
        sa.UniqueConstraint("round_id", "match_no", name=op.f("uq_match_round_id_match_no")),
    )
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_event_id"), ["event_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_match_round_id"), ["round_id"], unique=False)
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("token_nonce", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_game_event_id_event")),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_game_match_id_match")),
        sa.ForeignKeyConstraint(["round_id"], ["round.id"], name=op.f("fk_game_round_id_round")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game")),
        sa.UniqueConstraint("match_id", "game_no", name=op.f("uq_game_match_id_game_no")),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_event_id"), ["event_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_game_match_id"), ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_game_round_id"), ["round_id"], unique=False)
    op.create_table(
        "match_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("side", sqlmodel.sql.sqltypes.AutoString(length=4), nullable=True),
        sa.ForeignKeyConstraint(["entry_id"], ["entry.id"], name=op.f("fk_match_entry_entry_id_entry")),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_match_entry_match_id_match")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_entry")),
        sa.UniqueConstraint("match_id", "entry_id", name=op.f("uq_match_entry_match_id_entry_id")),
        sa.UniqueConstraint("match_id", "position", name=op.f("uq_match_entry_match_id_position")),
    )
    with op.batch_alter_table("match_entry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_entry_entry_id"), ["entry_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_match_entry_match_id"), ["match_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("match_entry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_entry_match_id"))
        batch_op.drop_index(batch_op.f("ix_match_entry_entry_id"))
    op.drop_table("match_entry")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_round_id"))
        batch_op.drop_index(batch_op.f("ix_game_match_id"))
        batch_op.drop_index(batch_op.f("ix_game_event_id"))
    op.drop_table("game")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_round_id"))
        batch_op.drop_index(batch_op.f("ix_match_event_id"))
    op.drop_table("match")
    with op.batch_alter_table("check_in", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_check_in_round_id"))
    op.drop_table("check_in")
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_round_event_id"))
    op.drop_table("round")
    with op.batch_alter_table("draw", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_draw_event_id"))
    op.drop_table("draw")
