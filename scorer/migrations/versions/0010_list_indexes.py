"""indexes for lists read a page at a time

Games in progress, finished and abandoned; leagues by name; each player's latest games.

Revision ID: 0010_list_indexes
Revises: 0009_ids
Create Date: 2026-12-01 22:00:00

Written by hand: every list is read a page at a time in its own order (services.pages), and each
order needs an index to read a page without reading the whole table. The games in progress are a
partial index: they are few among many finished games.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0010_list_indexes'
down_revision = '0009_ids'
branch_labels = None
depends_on = None

PLAYING = "finished_at IS NULL AND abandoned_at IS NULL"


def upgrade():
    op.create_index(
        'ix_games_playing',
        'games',
        ['updated_at', 'id'],
        postgresql_where=sa.text(PLAYING),
        sqlite_where=sa.text(PLAYING),
    )
    op.create_index('ix_games_finished_at', 'games', ['finished_at', 'id'])
    op.create_index('ix_games_abandoned_at', 'games', ['abandoned_at', 'id'])
    op.create_index('ix_seats_player_id_game_id', 'seats', ['player_id', 'game_id'])
    op.create_index('ix_leagues_name_id', 'leagues', ['name', 'id'])


def downgrade():
    op.drop_index('ix_leagues_name_id', table_name='leagues')
    op.drop_index('ix_seats_player_id_game_id', table_name='seats')
    op.drop_index('ix_games_abandoned_at', table_name='games')
    op.drop_index('ix_games_finished_at', table_name='games')
    op.drop_index('ix_games_playing', table_name='games')
