"""the language an account chose, so it follows its user to any phone

Revision ID: 0012_account_language
Revises: 0011_period_totals
Create Date: 2026-12-02 04:10:00

Written by hand: empty until the user picks a language from the menu; an account without one
reads in whatever its phone or browser asks for.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0012_account_language'
down_revision = '0011_period_totals'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=16), nullable=True))


def downgrade():
    # Not in batch mode: copying the users table would drop the old one, and with it (through
    # ON DELETE CASCADE) every API token on SQLite, which has dropped columns in place since 3.35.
    op.drop_column('users', 'language')
