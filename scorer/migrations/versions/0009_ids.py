"""ids are never handed on; sessions name an account by a secret; a game has a key for queued hands

Revision ID: 0009_ids
Revises: 0008_tidy
Create Date: 2026-12-01 22:00:00

Written by hand. SQLite gives a deleted row's id to the next row unless the table is declared
AUTOINCREMENT, which only a copy of the table can add: the tables whose ids leave the server
(addresses, the token list) are copied with it, keeping every row and id, so the next id follows
the highest ever given. PostgreSQL's sequences never go back: there the copy is skipped.

A signed-in session named its account by id and a count of sign-outs, which a new account given a
removed one's id could share; it now names a random key per account, made anew on sign-out and on a
new password. Existing accounts get a key here, so sessions from before are signed out once.

A game gets a random key that the phone sends with each hand it kept offline. Existing games keep
none: a hand queued before there were keys sends none either, and matches them alone.
"""
import secrets
from contextlib import contextmanager

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0009_ids'
down_revision = '0008_tidy'
branch_labels = None
depends_on = None

TABLES = (
    'players', 'games', 'users', 'api_tokens', 'leagues', 'league_teams', 'seasons', 'fixtures'
)


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_key', sa.String(length=64), nullable=True))
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('session_key', sa.String))
    bind = op.get_bind()
    for (user_id,) in bind.execute(sa.select(users.c.id)).all():
        bind.execute(
            users.update()
            .where(users.c.id == user_id)
            .values(session_key=secrets.token_urlsafe(24))
        )

    def change(table, batch_op):
        if table == 'games':
            batch_op.add_column(sa.Column('sync_key', sa.String(length=32), nullable=True))
        if table == 'users':
            batch_op.alter_column(
                'session_key', existing_type=sa.String(length=64), nullable=False
            )
            batch_op.create_unique_constraint(batch_op.f('uq_users_session_key'), ['session_key'])
            batch_op.drop_column('session_generation')

    _alter_each(change, autoincrement=True)


def downgrade():
    def change(table, batch_op):
        if table == 'games':
            batch_op.drop_column('sync_key')
        if table == 'users':
            batch_op.drop_constraint(batch_op.f('uq_users_session_key'), type_='unique')
            batch_op.drop_column('session_key')
            batch_op.add_column(
                sa.Column('session_generation', sa.Integer(), server_default='0', nullable=False)
            )

    _alter_each(change, autoincrement=False)


def _alter_each(change, autoincrement):
    """Run `change(table, batch_op)` on each table; on SQLite, copy each table with or without
    AUTOINCREMENT at the same time."""
    if op.get_bind().dialect.name != 'sqlite':
        for table in TABLES:
            with op.batch_alter_table(table, schema=None) as batch_op:
                change(table, batch_op)
        return
    with _foreign_keys_off():
        for table in TABLES:
            with op.batch_alter_table(
                table,
                schema=None,
                recreate='always',
                table_kwargs={'sqlite_autoincrement': autoincrement},
            ) as batch_op:
                change(table, batch_op)


@contextmanager
def _foreign_keys_off():
    # Copying a table drops the old one, which would delete (or cascade to) every row that points
    # at it unless foreign keys are off, and turning them off only takes effect outside a
    # transaction: so the copies run in a transaction of their own, and the keys are checked
    # before it commits (as in 0006).
    bind = op.get_bind()
    with op.get_context().autocommit_block():
        bind.exec_driver_sql('PRAGMA foreign_keys=OFF')
        try:
            bind.exec_driver_sql('BEGIN')
            try:
                yield
                broken = bind.exec_driver_sql('PRAGMA foreign_key_check').all()
                if broken:
                    raise RuntimeError(f'rows point at no row after copying tables: {broken}')
            except BaseException:
                bind.exec_driver_sql('ROLLBACK')
                raise
            bind.exec_driver_sql('COMMIT')
        finally:
            bind.exec_driver_sql('PRAGMA foreign_keys=ON')
