"""each player's totals per period, for the standings

Revision ID: 0011_period_totals
Revises: 0010_list_indexes
Create Date: 2026-12-02 01:30:00

Written by hand. period_totals holds each player's games, wins, points and hands won for all time
(period 0), each calendar year (the year times 100) and each calendar month (the year times 100
plus the month), with the rating after their last game of the period, so the standings read a
page of an index instead of summing every result. One index per order the table sorts in: the
column, then the better rated, then the name's key (copied here so ties sort within the index).

The rows are derived from game_results alone, so this migration fills them from the results
already stored, in SQL: it needs no rules. A database whose finished games have no results yet
gets both from `scorer rebuild-results`.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011_period_totals'
down_revision = '0010_list_indexes'
branch_labels = None
depends_on = None

# (column, descending): the orders the standings are read in.
ORDERS = [
    ('games', True),
    ('games', False),
    ('wins', True),
    ('wins', False),
    ('win_rate', True),
    ('win_rate', False),
    ('points', True),
    ('points', False),
    ('rating', True),
    ('rating', False),
]

results = sa.table(
    'game_results',
    sa.column('player_id', sa.Integer),
    sa.column('seq', sa.Integer),
    sa.column('finished_at', sa.DateTime),
    sa.column('won', sa.Boolean),
    sa.column('points_won', sa.Integer),
    sa.column('hands_won', sa.Integer),
    sa.column('mu', sa.Float),
    sa.column('sigma', sa.Float),
    sa.column('change', sa.Float),
)
players = sa.table('players', sa.column('id', sa.Integer), sa.column('name_key', sa.String))
COLUMNS = [
    'period',
    'player_id',
    'name_key',
    'games',
    'wins',
    'win_rate',
    'points',
    'hands_won',
    'last_seq',
    'mu',
    'sigma',
    'change',
    'rating',
]


def upgrade():
    totals = op.create_table('period_totals',
    sa.Column('period', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('player_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('name_key', sa.String(length=120), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('wins', sa.Integer(), nullable=False),
    sa.Column('win_rate', sa.Double(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('hands_won', sa.Integer(), nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.Column('mu', sa.Double(), nullable=False),
    sa.Column('sigma', sa.Double(), nullable=False),
    sa.Column('change', sa.Double(), nullable=False),
    sa.Column('rating', sa.Double(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_period_totals_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('period', 'player_id', name=op.f('pk_period_totals'))
    )
    # Filled before the indexes are made: one sort per index instead of an insert into each.
    for kind in ('all', 'year', 'month'):
        op.execute(totals.insert().from_select(COLUMNS, summed(kind)))
    for column, descending in ORDERS:
        name = f"ix_period_totals_{column}_{'desc' if descending else 'asc'}"
        first = totals.c[column].desc() if descending else totals.c[column]
        leading = [first] if column == 'rating' else [first, totals.c.rating.desc()]
        op.create_index(name, 'period_totals', [totals.c.period, *leading, totals.c.name_key])
    op.create_index('ix_period_totals_name', 'period_totals', ['period', 'name_key'])
    op.create_index('ix_period_totals_player_id', 'period_totals', ['player_id'])
    op.create_index('ix_period_totals_last_seq', 'period_totals', ['last_seq'])
    if op.get_bind().dialect.name == 'postgresql':
        # Statistics now, not when autovacuum comes by: the planner then reads a page of an
        # index instead of sorting a period it believes small.
        op.execute('ANALYZE period_totals')


def summed(kind):
    """Every player's rows of one kind of period, from the stored results."""
    year = sa.extract('year', results.c.finished_at)
    month = sa.extract('month', results.c.finished_at)
    groups = {'all': [], 'year': [year], 'month': [year, month]}[kind]
    sums = sa.select(
        results.c.player_id.label('player_id'),
        *(column.label(f'part_{number}') for number, column in enumerate(groups)),
        sa.func.count().label('games'),
        sa.func.sum(sa.case((results.c.won, 1), else_=0)).label('wins'),
        sa.func.sum(results.c.points_won).label('points'),
        sa.func.sum(results.c.hands_won).label('hands_won'),
        sa.func.max(results.c.seq).label('last_seq'),
    ).group_by(results.c.player_id, *groups).subquery('totals')
    if kind == 'all':
        key = sa.cast(0, sa.Integer)
    elif kind == 'year':
        key = sa.cast(sums.c.part_0, sa.Integer) * 100
    else:
        key = sa.cast(sums.c.part_0, sa.Integer) * 100 + sa.cast(sums.c.part_1, sa.Integer)
    rated = results.alias('rated')
    return (
        sa.select(
            key,
            sums.c.player_id,
            players.c.name_key,
            sums.c.games,
            sums.c.wins,
            sa.cast(sums.c.wins, sa.Float) / sums.c.games,
            sums.c.points,
            sums.c.hands_won,
            sums.c.last_seq,
            rated.c.mu,
            rated.c.sigma,
            rated.c.change,
            rated.c.mu - 3 * rated.c.sigma,
        )
        .select_from(sums)
        .join(rated, sa.and_(rated.c.player_id == sums.c.player_id, rated.c.seq == sums.c.last_seq))
        .join(players, players.c.id == sums.c.player_id)
    )


def downgrade():
    op.drop_table('period_totals')
