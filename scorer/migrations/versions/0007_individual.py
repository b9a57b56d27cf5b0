"""games of fixed length: a game may end after a number of hands instead of at its target

Revision ID: 0007_individual
Revises: 0005_accounts
Create Date: 2026-12-01 04:00:00

Written by hand: games.hand_limit is the number of hands a game of fixed length lasts (individual
play 12, an eight-player rotation fixture 2); null for a game played to its target, as every
existing game is.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007_individual'
down_revision = '0006_decks'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('games', sa.Column('hand_limit', sa.Integer(), nullable=True))


def downgrade():
    # Not in batch mode: copying the games table would drop it, and with it (by their cascading
    # foreign keys) every seat and hand on SQLite, which has dropped columns in place since 3.35.
    op.drop_column('games', 'hand_limit')
