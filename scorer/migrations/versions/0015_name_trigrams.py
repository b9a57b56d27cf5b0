"""an index of the trigrams of each rank row's name key, for searches over a range of days

Revision ID: 0015_name_trigrams
Revises: 0014_later_finishes
Create Date: 2026-12-02 15:00:00

Written by hand. A range of days searched by rating or by name reads on in the index of its order
until it has found a page: a search whose rows lie deep in the table read most of the index
before its first row. On PostgreSQL, with the pg_trgm extension, the rows a search finds are read
from an index of the trigrams of their name keys instead, whatever their places.

pg_trgm ships with PostgreSQL but may not be installed, nor installable by the app's user: it is
installed when it can be (in the public schema, which outlives any other schema of the database),
and the index made with it when it is there. Otherwise, and on SQLite, the index is a plain one on
the name key, so that every database holds an index of that name, as the models say.
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0015_name_trigrams"
down_revision = "0014_later_finishes"
branch_labels = None
depends_on = None

NAME = "ix_result_ranks_name_trigrams"
INSTALLED = sa.text(
    "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_trgm'"
)


def trigram_schema(bind):
    """The schema of pg_trgm, installed first when it can be; None when it cannot."""
    found = bind.scalar(INSTALLED)
    if found is not None:
        return found
    available = bind.scalar(
        sa.text("SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_trgm'")
    )
    if not available:
        return None
    try:
        # In a savepoint: a refusal (no right to install it, or another connection installing it
        # at the same moment) must not end the migration's transaction.
        with bind.begin_nested():
            bind.execute(sa.text("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public"))
    except sa.exc.DBAPIError:
        pass
    return bind.scalar(INSTALLED)


def upgrade():
    bind = op.get_bind()
    schema = trigram_schema(bind) if bind.dialect.name == "postgresql" else None
    if schema is None:
        op.create_index(NAME, "result_ranks", ["name_key"])
        return
    quoted = bind.dialect.identifier_preparer.quote_schema(schema)
    op.execute(f"CREATE INDEX {NAME} ON result_ranks USING gin (name_key {quoted}.gin_trgm_ops)")
    op.execute("ANALYZE result_ranks")


def downgrade():
    # The extension stays: other schemas of the database may use it.
    op.drop_index(NAME, table_name="result_ranks")
