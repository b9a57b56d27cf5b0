"""players, games, seats, hands and their counts

Revision ID: 0001
Revises: 
Create Date: 2026-11-30 02:14:56.110364

Reviewed by hand: hands are unique per (game, number), so a hand saved twice is refused by the
database itself; a count holds either its cards or a typed total, never both.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('mode', sa.String(length=16), nullable=False),
    sa.Column('target', sa.Integer(), nullable=False),
    sa.Column('first_dealer', sa.Integer(), nullable=False),
    sa.Column('deck_copies', sa.Integer(), nullable=False),
    sa.Column('blanks', sa.Integer(), nullable=False),
    sa.Column('blank_value', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.Column('finished_at', sa.DateTime(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('rematch_of_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['rematch_of_id'], ['games.id'], name=op.f('fk_games_rematch_of_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games'))
    )
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('name_key', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('name_key', name=op.f('uq_players_name_key'))
    )
    op.create_table('hands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('went_out', sa.Integer(), nullable=False),
    sa.Column('last_card', sa.String(length=8), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_hands_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hands')),
    sa.UniqueConstraint('game_id', 'number', name=op.f('uq_hands_game_id_number'))
    )
    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seats_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_seats_player_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seats')),
    sa.UniqueConstraint('game_id', 'player_id', name=op.f('uq_seats_game_id_player_id')),
    sa.UniqueConstraint('game_id', 'position', name=op.f('uq_seats_game_id_position'))
    )
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seats_player_id'), ['player_id'], unique=False)

    op.create_table('hand_counts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('cards', sa.String(length=1000), nullable=True),
    sa.Column('points', sa.Integer(), nullable=True),
    sa.CheckConstraint('(cards IS NULL) <> (points IS NULL)', name=op.f('ck_hand_counts_cards_or_points')),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.id'], name=op.f('fk_hand_counts_hand_id_hands'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hand_counts')),
    sa.UniqueConstraint('hand_id', 'position', name=op.f('uq_hand_counts_hand_id_position'))
    )


def downgrade():
    op.drop_table('hand_counts')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seats_player_id'))

    op.drop_table('seats')
    op.drop_table('hands')
    op.drop_table('players')
    op.drop_table('games')
