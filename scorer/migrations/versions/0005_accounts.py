"""accounts an owner can manage: session generations, token last use, scorer links

Revision ID: 0005_accounts
Revises: 0004
Create Date: 2026-12-01 03:40:00

Written by hand: a user's session generation ends every session of theirs when it is bumped; an
API token remembers when it was last used; a game may hand out one scorer link, kept as a SHA-256
digest only.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0005_accounts'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_generation', sa.Integer(), server_default='0', nullable=False))

    with op.batch_alter_table('api_tokens', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_used_at', sa.DateTime(), nullable=True))

    op.create_table('scorer_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_scorer_links_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_scorer_links')),
    sa.UniqueConstraint('digest', name=op.f('uq_scorer_links_digest')),
    sa.UniqueConstraint('game_id', name=op.f('uq_scorer_links_game_id'))
    )


def downgrade():
    op.drop_table('scorer_links')

    with op.batch_alter_table('api_tokens', schema=None) as batch_op:
        batch_op.drop_column('last_used_at')

    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('session_generation')
