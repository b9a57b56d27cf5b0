"""each game's deck, with defaults in the database

Revision ID: 0006_decks
Revises: 0005_accounts
Create Date: 2026-12-01 04:00:00

Written by hand: the deck columns were there from the first version, always holding the default
deck (one copy, 4 blanks worth 50), since no game could choose another. Games now choose theirs;
the database gives a row written without a deck (by hand, or by an older scorer still running
during an upgrade) that same deck, so existing and new games read as they always have. Schema
only: existing rows keep the values they hold.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006_decks'
down_revision = '0005_accounts'
branch_labels = None
depends_on = None

DEFAULTS = {'deck_copies': '1', 'blanks': '4', 'blank_value': '50'}


def upgrade():
    _set_defaults(DEFAULTS)


def downgrade():
    _set_defaults(dict.fromkeys(DEFAULTS))


def _set_defaults(defaults):
    bind = op.get_bind()
    if bind.dialect.name != 'sqlite':
        _alter(defaults)
        return
    # SQLite changes a default by copying the table. Dropping the old games table would delete
    # (or cascade to) every seat, hand and result that points at it unless foreign keys are off,
    # and turning them off only takes effect outside a transaction: so the copy runs in a
    # transaction of its own, and the keys are checked before it commits.
    with op.get_context().autocommit_block():
        bind.exec_driver_sql('PRAGMA foreign_keys=OFF')
        try:
            bind.exec_driver_sql('BEGIN')
            try:
                _alter(defaults)
                broken = bind.exec_driver_sql('PRAGMA foreign_key_check').all()
                if broken:
                    raise RuntimeError(f'rows point at no row after copying games: {broken}')
            except BaseException:
                bind.exec_driver_sql('ROLLBACK')
                raise
            bind.exec_driver_sql('COMMIT')
        finally:
            bind.exec_driver_sql('PRAGMA foreign_keys=ON')


def _alter(defaults):
    with op.batch_alter_table('games', schema=None) as batch_op:
        for column, default in defaults.items():
            batch_op.alter_column(
                column, existing_type=sa.Integer(), existing_nullable=False, server_default=default
            )
