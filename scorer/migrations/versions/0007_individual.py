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
down_revision = '0005_accounts'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hand_limit', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('hand_limit')
