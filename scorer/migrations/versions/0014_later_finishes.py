"""each rank row with the nearest finishes of its player's later results, for ranges of days

Revision ID: 0014_later_finishes
Revises: 0013_result_ranks
Create Date: 2026-12-02 11:00:00

Written by hand. Each row of result_ranks gets, of its player's later results (by seq), the
earliest finish at or after its own and the latest before it. Whether a row is its player's last
result in a range of days is then told by the row alone, from the indexes in rating and name
order, which now hold both: a range searched deep into its table, or numbered up to a row found
there, no longer looks up each player's later results for every row it reads.

Both are derived from the rows already stored, so this migration fills them in SQL.
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0014_later_finishes"
down_revision = "0013_result_ranks"
branch_labels = None
depends_on = None

BEFORE = ("name_key", "finished_at", "player_id", "seq")
AFTER = (
    "name_key",
    "finished_at",
    "later_finish_at_or_after",
    "later_finish_before",
    "player_id",
    "seq",
)


def ranks_table():
    return sa.table(
        "result_ranks",
        sa.column("seq", sa.Integer),
        sa.column("player_id", sa.Integer),
        sa.column("finished_at", sa.DateTime),
        sa.column("name_key", sa.String),
        sa.column("rating", sa.Float),
        sa.column("later_finish_at_or_after", sa.DateTime),
        sa.column("later_finish_before", sa.DateTime),
    )


def indexes(columns):
    ranks = ranks_table()
    op.create_index("ix_result_ranks_rating_asc", "result_ranks", ["rating", *columns])
    op.create_index(
        "ix_result_ranks_rating_desc",
        "result_ranks",
        [ranks.c.rating.desc(), *(ranks.c[name] for name in columns)],
    )
    op.create_index("ix_result_ranks_name", "result_ranks", list(columns))


def drop_indexes():
    for name in (
        "ix_result_ranks_rating_asc",
        "ix_result_ranks_rating_desc",
        "ix_result_ranks_name",
    ):
        op.drop_index(name, table_name="result_ranks")


def upgrade():
    op.add_column(
        "result_ranks", sa.Column("later_finish_at_or_after", sa.DateTime(), nullable=True)
    )
    op.add_column("result_ranks", sa.Column("later_finish_before", sa.DateTime(), nullable=True))
    drop_indexes()
    ranks = ranks_table()
    # Later results mostly finish later: the earliest finish of them all, in one pass over each
    # player's rows from the last back, is then the nearest at or after a row's own.
    earliest = sa.select(
        ranks.c.seq,
        ranks.c.player_id,
        sa.func.min(ranks.c.finished_at)
        .over(partition_by=ranks.c.player_id, order_by=ranks.c.seq.desc(), rows=(None, -1))
        .label("earliest_later"),
    ).subquery("earliest")
    op.execute(
        ranks.update()
        .where(
            ranks.c.seq == earliest.c.seq,
            ranks.c.player_id == earliest.c.player_id,
            earliest.c.earliest_later.is_not(None),
        )
        .values(later_finish_at_or_after=earliest.c.earliest_later)
    )
    # Where one finished earlier, both are looked up among the player's later rows.
    later = ranks.alias("later")
    mine = [later.c.player_id == ranks.c.player_id, later.c.seq > ranks.c.seq]
    op.execute(
        ranks.update()
        .where(ranks.c.later_finish_at_or_after < ranks.c.finished_at)
        .values(
            later_finish_at_or_after=sa.select(sa.func.min(later.c.finished_at))
            .where(*mine, later.c.finished_at >= ranks.c.finished_at)
            .scalar_subquery(),
            later_finish_before=sa.select(sa.func.max(later.c.finished_at))
            .where(*mine, later.c.finished_at < ranks.c.finished_at)
            .scalar_subquery(),
        )
    )
    # Made after the rows are filled: one sort per index instead of an update of each.
    indexes(AFTER)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ANALYZE result_ranks")


def downgrade():
    drop_indexes()
    op.drop_column("result_ranks", "later_finish_before")
    op.drop_column("result_ranks", "later_finish_at_or_after")
    indexes(BEFORE)
