"""events: branches, members, competitions, events, entries, rosters, registrations, lineups

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "branch",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("member_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_branch")),
        sa.UniqueConstraint("code", name=op.f("uq_branch_code")),
    )
    op.create_table(
        "competition",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("organiser", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("venue", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=True),
        sa.Column("ends_on", sa.Date(), nullable=True),
        sa.Column("one_event_per_member", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_competition")),
    )
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("competition_id", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("discipline", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("entry_kind", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("format", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("preset", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("rule_overrides", sa.JSON(), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("state", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("registration_opens_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("registration_closes_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("results_version", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["competition_id"], ["competition.id"], name=op.f("fk_event_competition_id_competition")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event")),
    )
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_event_competition_id"), ["competition_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_event_state"), ["state"], unique=False)
    op.create_table(
        "member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("staff_id", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("branch_id", sa.Integer(), nullable=False),
        sa.Column("phone", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
        sa.Column("is_union_member", sa.Boolean(), nullable=False),
        sa.Column("is_school_leader", sa.Boolean(), nullable=False),
        sa.Column("is_dean_or_secretary", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["branch_id"], ["branch.id"], name=op.f("fk_member_branch_id_branch")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member")),
        sa.UniqueConstraint("staff_id", name=op.f("uq_member_staff_id")),
    )
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_member_branch_id"), ["branch_id"], unique=False)
    op.create_table(
        "entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("branch_id", sa.Integer(), nullable=True),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("outside_quota", sa.Boolean(), nullable=False),
        sa.Column("leader_member_id", sa.Integer(), nullable=True),
        sa.Column("leader_phone", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=True),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("rejection_reason", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["branch_id"], ["branch.id"], name=op.f("fk_entry_branch_id_branch")),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_entry_event_id_event")),
        sa.ForeignKeyConstraint(
            ["leader_member_id"], ["member.id"], name=op.f("fk_entry_leader_member_id_member")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entry")),
        sa.UniqueConstraint("event_id", "name", name=op.f("uq_entry_event_id_name")),
    )
    with op.batch_alter_table("entry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_entry_branch_id"), ["branch_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_entry_event_id"), ["event_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_entry_status"), ["status"], unique=False)
    op.create_table(
        "registration",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("branch_id", sa.Integer(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("note", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["branch_id"], ["branch.id"], name=op.f("fk_registration_branch_id_branch")),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_registration_event_id_event")),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], name=op.f("fk_registration_member_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_registration")),
        sa.UniqueConstraint("event_id", "member_id", name=op.f("uq_registration_event_id_member_id")),
    )
    with op.batch_alter_table("registration", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_registration_branch_id"), ["branch_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_registration_event_id"), ["event_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_registration_member_id"), ["member_id"], unique=False)
    op.create_table(
        "entry_member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("is_player", sa.Boolean(), nullable=False),
        sa.Column("is_leader", sa.Boolean(), nullable=False),
        sa.Column("is_coach", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["entry.id"], name=op.f("fk_entry_member_entry_id_entry")),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], name=op.f("fk_entry_member_event_id_event")),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], name=op.f("fk_entry_member_member_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entry_member")),
        sa.UniqueConstraint("event_id", "member_id", name=op.f("uq_entry_member_event_id_member_id")),
    )
    with op.batch_alter_table("entry_member", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_entry_member_entry_id"), ["entry_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_entry_member_member_id"), ["member_id"], unique=False)
    op.create_table(
        "lineup",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("locked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["entry.id"], name=op.f("fk_lineup_entry_id_entry")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lineup")),
        sa.UniqueConstraint("entry_id", "round_number", name=op.f("uq_lineup_entry_id_round_number")),
    )
    with op.batch_alter_table("lineup", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_lineup_entry_id"), ["entry_id"], unique=False)
    op.create_table(
        "lineup_pair",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("lineup_id", sa.Integer(), nullable=False),
        sa.Column("pair_no", sa.Integer(), nullable=False),
        sa.Column("first_member_id", sa.Integer(), nullable=False),
        sa.Column("second_member_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_member_id"], ["member.id"], name=op.f("fk_lineup_pair_first_member_id_member")
        ),
        sa.ForeignKeyConstraint(["lineup_id"], ["lineup.id"], name=op.f("fk_lineup_pair_lineup_id_lineup")),
        sa.ForeignKeyConstraint(
            ["second_member_id"], ["member.id"], name=op.f("fk_lineup_pair_second_member_id_member")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lineup_pair")),
        sa.UniqueConstraint("lineup_id", "pair_no", name=op.f("uq_lineup_pair_lineup_id_pair_no")),
    )
    with op.batch_alter_table("lineup_pair", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_lineup_pair_lineup_id"), ["lineup_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("lineup_pair", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lineup_pair_lineup_id"))
    op.drop_table("lineup_pair")
    with op.batch_alter_table("lineup", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lineup_entry_id"))
    op.drop_table("lineup")
    with op.batch_alter_table("entry_member", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_entry_member_member_id"))
        batch_op.drop_index(batch_op.f("ix_entry_member_entry_id"))
    op.drop_table("entry_member")
    with op.batch_alter_table("registration", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_registration_member_id"))
        batch_op.drop_index(batch_op.f("ix_registration_event_id"))
        batch_op.drop_index(batch_op.f("ix_registration_branch_id"))
    op.drop_table("registration")
    with op.batch_alter_table("entry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_entry_status"))
        batch_op.drop_index(batch_op.f("ix_entry_event_id"))
        batch_op.drop_index(batch_op.f("ix_entry_branch_id"))
    op.drop_table("entry")
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_member_branch_id"))
    op.drop_table("member")
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_event_state"))
        batch_op.drop_index(batch_op.f("ix_event_competition_id"))
    op.drop_table("event")
    op.drop_table("competition")
    op.drop_table("branch")
