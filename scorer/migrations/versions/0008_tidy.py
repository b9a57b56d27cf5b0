"""games can be abandoned: set aside, kept, and left out of standings until resumed

Revision ID: 0008_tidy
Revises: 0005_accounts
Create Date: 2026-12-01 03:50:00

Written by hand: a game abandoned by its table keeps its hands, and the time it was set aside
tells it apart from the games still in progress. Resuming clears it.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008_tidy'
down_revision = '0007_individual'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('abandoned_at', sa.DateTime(), nullable=True))


def downgrade():
    # Not in batch mode: copying the games table would drop the old one, and with it (through
    # ON DELETE CASCADE) every seat, hand and result on SQLite, which has dropped columns in place
    # since 3.35 (as 0003 does for players).
    op.drop_column('games', 'abandoned_at')
