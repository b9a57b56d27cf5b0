"""each result with its player's name key and rating, for standings over a range of days

Revision ID: 0013_result_ranks
Revises: 0012_account_language
Create Date: 2026-12-02 05:00:00

Written by hand. result_ranks holds one row per stored result: the player, the game's seq and
finish, the player's name key and their rating after the game. A range of days that is not a kept
period is ranked by rating or by name from each player's last result in it, read from an index in
that order, so a page no longer sums every player of the range first.

The rows are derived from game_results and players alone, so this migration fills them from the
results already stored, in SQL.

A player's rows of period_totals get an index holding their sums (in place of the one on the
player alone): ranked by most games or wins, a range sums the few players who can reach its page
from that index without reading the table.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0013_result_ranks'
down_revision = '0012_account_language'
branch_labels = None
depends_on = None

results = sa.table(
    'game_results',
    sa.column('player_id', sa.Integer),
    sa.column('seq', sa.Integer),
    sa.column('finished_at', sa.DateTime),
    sa.column('mu', sa.Float),
    sa.column('sigma', sa.Float),
)
players = sa.table('players', sa.column('id', sa.Integer), sa.column('name_key', sa.String))


def upgrade():
    ranks = op.create_table('result_ranks',
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('player_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=False),
    sa.Column('name_key', sa.String(length=120), nullable=False),
    sa.Column('rating', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_result_ranks_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('seq', 'player_id', name=op.f('pk_result_ranks'))
    )
    # Filled before the indexes are made: one sort per index instead of an insert into each.
    op.execute(
        ranks.insert().from_select(
            ['seq', 'player_id', 'finished_at', 'name_key', 'rating'],
            sa.select(
                results.c.seq,
                results.c.player_id,
                results.c.finished_at,
                players.c.name_key,
                results.c.mu - 3 * results.c.sigma,
            ).join(players, players.c.id == results.c.player_id),
        )
    )
    op.create_index('ix_result_ranks_player', 'result_ranks', ['player_id', 'seq', 'finished_at'])
    op.create_index(
        'ix_result_ranks_rating_asc',
        'result_ranks',
        ['rating', 'name_key', 'finished_at', 'player_id', 'seq'],
    )
    op.create_index(
        'ix_result_ranks_rating_desc',
        'result_ranks',
        [ranks.c.rating.desc(), ranks.c.name_key, ranks.c.finished_at, ranks.c.player_id, ranks.c.seq],
    )
    op.create_index(
        'ix_result_ranks_name', 'result_ranks', ['name_key', 'finished_at', 'player_id', 'seq']
    )
    op.drop_index('ix_period_totals_player_id', table_name='period_totals')
    op.create_index(
        'ix_period_totals_player',
        'period_totals',
        ['player_id', 'period', 'games', 'wins', 'points', 'hands_won', 'last_seq', 'rating'],
    )
    if op.get_bind().dialect.name == 'postgresql':
        # Statistics now, not when autovacuum comes by: the planner then reads a page of an
        # index instead of sorting a range it believes small.
        op.execute('ANALYZE result_ranks')


def downgrade():
    op.drop_index('ix_period_totals_player', table_name='period_totals')
    op.create_index('ix_period_totals_player_id', 'period_totals', ['player_id'])
    op.drop_table('result_ranks')
