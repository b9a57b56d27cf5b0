"""Starting, loading, listing and rematching games."""

import pytest
import sqlalchemy as sa
from factories import make_game, record

from scorer import scoring
from scorer.models import Game, Player, Seat
from scorer.services import games, hands
from scorer.services.errors import NotFound


def count_rows(session, model) -> int:
    return session.scalar(sa.select(sa.func.count()).select_from(model))


def test_create_game_seats_players_in_order(session):
    game = make_game(session, ["Ann", "Bob", "Cat"], target=300, first_dealer=2)
    view = games.load_game(session, game.id)
    assert view.names == ("Ann", "Bob", "Cat")
    assert [seat.position for seat in view.game.seats] == [0, 1, 2]
    assert view.game.mode == "standard"
    assert view.game.target == 300
    assert view.state.dealer == 2
    assert [side.score for side in view.state.sides] == [0, 0, 0]
    assert [side.to_target for side in view.state.sides] == [300, 300, 300]
    assert view.state.next_hand_number == 1
    assert view.game.finished_at is None
    assert view.game.version == 0


def test_new_names_join_the_roster_cleaned(session):
    make_game(session, ["  Ann  ", "Mary   Jane", "Zoë", "🦄"])
    names = session.scalars(sa.select(Player.name).order_by(Player.id)).all()
    assert names == ["Ann", "Mary Jane", "Zoë", "🦄"]


def test_a_name_already_on_the_roster_is_reused_ignoring_case(session):
    first = make_game(session, ["Ann", "Bob"])
    second = make_game(session, ["ann", "CAT"])
    assert count_rows(session, Player) == 3
    assert first.seats[0].player_id == second.seats[0].player_id
    # The roster spelling wins: the second game shows "Ann", not "ann".
    assert games.load_game(session, second.id).names == ("Ann", "CAT")


@pytest.mark.parametrize(
    ("mode", "names", "target", "first_dealer", "field"),
    [
        ("standard", ["Ann"], 500, 0, "players"),
        ("standard", [], 500, 0, "players"),
        ("standard", [f"P{i}" for i in range(11)], 500, 0, "players"),
        ("standard", ["Ann", "Bob"], 0, 0, "target"),
        ("standard", ["Ann", "Bob"], -5, 0, "target"),
        ("standard", ["Ann", "Bob"], 1.5, 0, "target"),
        ("standard", ["Ann", "Bob"], "500", 0, "target"),
        ("poker", ["Ann", "Bob"], 500, 0, "mode"),
        ("partners", ["Ann", "Bob", "Cat"], 500, 0, "players"),
        ("partners", ["Ann", "Bob", "Cat", "Dan", "Eve"], 500, 0, "players"),
        ("partners", ["Ann", "Bob"], 500, 0, "players"),
        ("standard", ["Ann", "Bob"], 500, 2, "first_dealer"),
        ("standard", ["Ann", "Bob"], 500, -1, "first_dealer"),
        ("standard", ["Ann", "ann"], 500, 0, "players"),
        ("standard", ["Ann", "  "], 500, 0, "players"),
        ("standard", ["Ann", "x" * 41], 500, 0, "players"),
    ],
)
def test_a_bad_setup_is_refused_and_nothing_is_saved(
    session, mode, names, target, first_dealer, field
):
    with pytest.raises(scoring.Rejected) as refused:
        games.create_game(session, mode, names, target, first_dealer)
    assert field in {problem.field for problem in refused.value.problems}
    assert count_rows(session, Game) == 0
    assert count_rows(session, Seat) == 0
    assert count_rows(session, Player) == 0


def test_a_duplicate_name_says_who_is_already_playing(session):
    with pytest.raises(scoring.Rejected) as refused:
        games.create_game(session, "standard", ["Ann", "Bob", " bob "], 500, 0)
    assert [problem.message for problem in refused.value.problems] == ["bob is already playing."]


@pytest.mark.parametrize("count", [2, 10])
def test_two_to_ten_players_are_accepted(session, count):
    game = make_game(session, count)
    assert len(games.load_game(session, game.id).names) == count


@pytest.mark.parametrize("count", [4, 6, 8, 10])
def test_partners_take_an_even_number_from_four_to_ten(session, count):
    game = make_game(session, count, mode="partners")
    view = games.load_game(session, game.id)
    half = count // 2
    # Partners sit opposite: seat i with seat i + n/2.
    assert [side.seats for side in view.state.sides] == [(i, i + half) for i in range(half)]
    assert view.side_name(view.state.sides[0]) == f"{view.names[0]} & {view.names[half]}"


def test_load_game_of_an_unknown_id_is_not_found(session):
    with pytest.raises(NotFound):
        games.load_game(session, 12345)


def test_load_game_replays_the_stored_hands(session):
    game = make_game(session, 3)
    record(session, game, 0, {1: ["5", "skip"], 2: 12})
    record(session, game, 2, {0: ["wild"], 1: ["0", "9"]})
    session.expire_all()
    view = games.load_game(session, game.id)
    # Hand 1: Ann scores 5 + 20 + 12 = 37. Hand 2: Cat scores 50 + 0 + 9 = 59.
    assert [side.score for side in view.state.sides] == [37, 0, 59]
    assert [side.hands_won for side in view.state.sides] == [1, 0, 1]
    assert view.state.dealer == 2


def test_list_games_puts_games_in_progress_apart_from_finished_ones(session):
    older = make_game(session, ["Ann", "Bob"], target=100)
    done = make_game(session, ["Cat", "Dan"], target=50)
    newer = make_game(session, ["Eve", "Fay"])
    record(session, done, 1, {0: 50})
    playing, finished = games.list_games(session)
    assert [view.game.id for view in playing] == [newer.id, older.id]
    assert [view.game.id for view in finished] == [done.id]
    assert finished[0].winner.seats == (1,)

    # A hand in the older game makes it the most recently played.
    record(session, older, 0, {1: 10})
    playing, _ = games.list_games(session)
    assert [view.game.id for view in playing] == [older.id, newer.id]


def test_every_change_to_the_hands_bumps_the_version(session):
    game = make_game(session, 2)
    assert record(session, game, 0, {1: 10}).game.version == 1
    assert record(session, game, 1, {0: 10}).game.version == 2


def test_rematch_keeps_seats_and_settings_and_passes_the_deal(session):
    game = make_game(session, ["Ann", "Bob", "Cat", "Dan"], target=60, first_dealer=2)
    record(session, game, 0, {1: 10, 2: 10, 3: 10})  # Cat dealt; Ann 30
    record(session, game, 1, {0: 5, 2: 5, 3: 5})  # Dan dealt; Bob 15
    view = record(session, game, 0, {1: 10, 2: 10, 3: 10})  # Ann dealt; Ann 60 wins
    assert view.state.winner == 0
    # Deal passes to the left after every hand: Cat, Dan, Ann dealt; Bob deals next.
    assert view.state.dealer == 1

    again = games.rematch(session, game.id)
    rematch = games.load_game(session, again.id)
    assert again.id != game.id
    assert rematch.names == ("Ann", "Bob", "Cat", "Dan")
    assert rematch.game.mode == "standard"
    assert rematch.game.target == 60
    assert rematch.game.first_dealer == 1
    assert rematch.state.dealer == 1
    assert rematch.state.hands == ()
    assert rematch.game.rematch_of_id == game.id
    # The same people, not new roster entries.
    assert count_rows(session, Player) == 4


def test_rematch_of_an_unknown_game_is_not_found(session):
    with pytest.raises(NotFound):
        games.rematch(session, 999)


def test_version_of_reads_the_version_alone_and_knows_unknown_games(session):
    game = make_game(session, 2)
    assert games.version_of(session, game.id) == 0
    record(session, game, 0, {1: 5})
    assert games.version_of(session, game.id) == 1
    for missing in (0, 9999, 2**40):
        with pytest.raises(NotFound):
            games.version_of(session, missing)


def test_a_team_name_with_a_nul_is_refused_before_it_reaches_the_database(session):
    from scorer.scoring import Rejected

    with pytest.raises(Rejected, match="Team names cannot contain control characters"):
        games.create_game(session, "partners", ["Ann", "Bob", "Cat", "Dan"], team_names=["A\x00"])


def test_a_game_of_a_number_of_hands_ends_after_them_and_an_undo_reopens_it(session):
    game = games.create_game(session, "standard", ["Ann", "Bob"], target=10, hands=2)
    assert session.get(Game, game.id).hand_limit == 2
    record(session, game, 0, {1: 30})
    assert not games.load_game(session, game.id).state.finished
    view = record(session, game, 1, {0: 5})
    assert view.state.finished and view.state.winner == 0
    reopened = hands.undo_last_hand(session, game.id, 2)
    assert not reopened.state.finished
    assert reopened.state.rules.hands == 2


def test_a_hand_limit_out_of_range_starts_nothing(session):
    with pytest.raises(scoring.Rejected) as refused:
        games.create_game(session, "challenge", ["Ann", "Bob"], hands=51)
    assert [problem.field for problem in refused.value.problems] == ["hands"]
    assert count_rows(session, Game) == 0
