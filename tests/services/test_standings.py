"""Standings and profiles against small evenings counted by hand, including ties and merges."""

from __future__ import annotations

from datetime import date, datetime

import pytest
import sqlalchemy as sa
from factories import make_game, record

from scorer.models import Game, GameResult
from scorer.services import pages, period_totals, profiles, results, roster, standings
from scorer.services.standings import Period, period, sort_rows


def rows_of(session, span: Period | None = None, league: int | None = None) -> dict[str, tuple]:
    found = standings.standings(session, span or period("all"), league)
    return {row.name: (row.games, row.wins, row.points, row.hands_won) for row in found}


def finished_on(session, game_id: int, moment: datetime) -> None:
    """Move a finished game to another day, as if it had been played then: its results, and the
    totals per period derived from them."""
    session.execute(sa.update(Game).where(Game.id == game_id).values(finished_at=moment))
    session.execute(
        sa.update(GameResult).where(GameResult.game_id == game_id).values(finished_at=moment)
    )
    period_totals.rebuild(session)
    session.commit()


@pytest.fixture
def evening(session):
    return play_evening(session)


def play_evening(session) -> tuple[int, int, int]:
    """Three games counted by hand.

    1. Standard to 100, Ann Bob Cat: Cat 30 (hand 1), then Ann 110: Ann 1st, Cat 2nd, Bob 3rd.
    2. Standard to 50, Ann Bob: Bob 50: Bob 1st, Ann 2nd.
    3. Partners to 100, Ann Bob Cat Dan (Ann+Cat v Bob+Dan): Dan 40 then Ann 70 then Cat 60:
       Ann & Cat 130 win, Bob & Dan 40.
    """
    one = make_game(session, ["Ann", "Bob", "Cat"], target=100)
    record(session, one, 2, {0: 10, 1: 20})
    record(session, one, 0, {1: 60, 2: 50})
    two = make_game(session, ["Ann", "Bob"], target=50)
    record(session, two, 1, {0: 50})
    three = make_game(session, ["Ann", "Bob", "Cat", "Dan"], mode="partners", target=100)
    record(session, three, 3, {0: 20, 2: 20})
    record(session, three, 0, {1: 30, 3: 40})
    record(session, three, 2, {1: 30, 3: 30})
    return one.id, two.id, three.id


def test_standings_count_games_wins_points_and_hands(session, evening):
    assert rows_of(session) == {
        "Ann": (3, 2, 110 + 70, 2),
        "Bob": (3, 1, 50, 1),
        "Cat": (2, 1, 30 + 60, 2),
        "Dan": (1, 0, 40, 1),
    }


def test_standings_are_best_rated_first_with_the_last_change(session, evening):
    found = standings.standings(session, period("all"))
    assert [row.rating for row in found] == sorted((row.rating for row in found), reverse=True)
    latest = session.execute(
        sa.select(GameResult.player_id, GameResult.mu, GameResult.sigma, GameResult.change).where(
            GameResult.game_id == evening[2]
        )
    ).all()
    by_player = {row.player_id: row for row in found}
    for player, mu, sigma, change in latest:
        assert by_player[player].rating == pytest.approx(mu - 3 * sigma)
        assert by_player[player].change == pytest.approx(change)


def test_a_period_counts_only_its_games_and_rates_as_of_its_end(session, evening):
    one, two, three = evening
    finished_on(session, one, datetime(2025, 12, 31, 23, 59))
    finished_on(session, two, datetime(2026, 1, 1, 0, 0))
    finished_on(session, three, datetime(2026, 2, 10, 12, 0))
    january = period("month", today=date(2026, 1, 20))
    assert rows_of(session, january) == {"Ann": (1, 0, 0, 0), "Bob": (1, 1, 50, 1)}
    assert rows_of(session, period("year", today=date(2026, 6, 1))).keys() == {
        "Ann",
        "Bob",
        "Cat",
        "Dan",
    }
    assert rows_of(session, period("custom", date(2025, 12, 31), date(2025, 12, 31))) == {
        "Ann": (1, 1, 110, 1),
        "Bob": (1, 0, 0, 0),
        "Cat": (1, 0, 30, 1),
    }
    # Ratings count in the order games finished; the rating shown is the last one in the period.
    ann_after_two = session.execute(
        sa.select(GameResult.mu, GameResult.sigma)
        .join(Game, Game.id == GameResult.game_id)
        .where(GameResult.game_id == two, GameResult.player_id == 1)
    ).one()
    ann = next(row for row in standings.standings(session, january) if row.name == "Ann")
    assert ann.rating == pytest.approx(ann_after_two.mu - 3 * ann_after_two.sigma)


def test_period_bounds():
    assert period("month", today=date(2026, 12, 5)) == Period(
        "month", datetime(2026, 12, 1), datetime(2027, 1, 1)
    )
    assert period("year", today=date(2026, 3, 1)).end == datetime(2027, 1, 1)
    assert period("custom", None, date(2026, 3, 1)) == Period("custom", None, datetime(2026, 3, 2))
    assert period("bogus") == Period("all", None, None)
    assert period("month", today=date(2026, 12, 5)).label == "December 2026"


@pytest.mark.parametrize(
    ("language", "month", "first", "last"),
    [
        ("de", "Dezember 2026", "01.03.2026", "31.03.2026"),
        ("ko", "2026년 12월", "2026. 3. 1.", "2026. 3. 31."),
    ],
)
def test_periods_are_named_as_the_readers_language_writes_dates(app, language, month, first, last):
    with app.test_request_context(headers={"Accept-Language": language}):
        assert period("month", today=date(2026, 12, 5)).label == month
        # The words between the days are the catalog's; the days are the language's own.
        label = period("custom", date(2026, 3, 1), date(2026, 3, 31)).label
        assert label.index(first) < label.index(last)
    assert period("custom", date(2026, 3, 1), date(2026, 3, 31)).label == (
        "Mar 1, 2026 to Mar 31, 2026"
    )


def test_sorting_by_any_column_breaks_ties_by_rating_then_name(session, evening):
    found = standings.standings(session, period("all"))
    by_games = [row.name for row in sort_rows(found, "games", descending=True)]
    assert by_games[2:] == ["Cat", "Dan"]
    # Ann and Bob both played 3: the better rated first.
    top = sorted(found[:0] + [r for r in found if r.games == 3], key=lambda r: -r.rating)
    assert by_games[:2] == [row.name for row in top]
    assert [row.name for row in sort_rows(found, "name", descending=False)] == [
        "Ann",
        "Bob",
        "Cat",
        "Dan",
    ]
    assert [row.name for row in sort_rows(found, "win_rate", descending=False)][0] == "Dan"


def test_profile_counts_against_hand_counts(session, evening):
    ann = profiles.profile(session, 1)
    assert [(m.mode, m.games, m.wins) for m in ann.modes] == [
        ("standard", 2, 1),
        ("partners", 1, 1),
    ]
    assert (ann.games, ann.wins) == (3, 2)
    assert ann.win_rate == pytest.approx(2 / 3)
    assert (ann.hands_won, ann.points, ann.biggest_hand) == (2, 180, 110)
    assert ann.points_per_hand == 90
    # Won, lost, won: the current streak is 1, the longest 1.
    assert (ann.current_streak, ann.longest_streak) == (1, 1)
    assert [(o.name, o.games, o.ahead, o.behind) for o in ann.opponents] == [
        ("Bob", 3, 2, 1),
        ("Cat", 1, 1, 0),
        ("Dan", 1, 1, 0),
    ]
    assert ann.nemesis.name == "Bob"
    assert [(p.name, p.games, p.wins) for p in ann.partners] == [("Cat", 1, 1)]
    assert ann.favourite_partner.name == "Cat"
    assert [game.game_id for game in ann.recent] == [evening[2], evening[1], evening[0]]


def test_a_tie_puts_nobody_ahead(session, evening):
    # Game one: Cat (30) finished ahead of Bob (0); in the partners game Cat's team beat Bob's.
    bob = profiles.profile(session, 2)
    cat = next(o for o in bob.opponents if o.name == "Cat")
    assert (cat.games, cat.ahead, cat.behind) == (2, 0, 2)
    # A two-way tie for second: Bob and Cat both end on 0.
    tie = make_game(session, ["Bob", "Cat", "Eve"], target=10)
    record(session, tie, 2, {0: 5, 1: 5})
    cat = next(o for o in profiles.profile(session, 2).opponents if o.name == "Cat")
    assert (cat.games, cat.ahead, cat.behind) == (3, 0, 2)


def test_a_player_without_games_has_an_empty_profile(session):
    make_game(session, ["Ann", "Bob"])
    found = profiles.profile(session, 1)
    assert (found.games, found.win_rate, found.points_per_hand, found.rating) == (0, 0, None, None)
    assert found.nemesis is None and found.favourite_partner is None


def test_a_merge_adds_both_records_and_rerates_as_from_scratch(session, evening):
    # Dan was also entered as "Daniel", who played a standard game against Bob and won it.
    extra = make_game(session, ["Daniel", "Bob"], target=20)
    record(session, extra, 0, {1: 20})
    daniel = extra.seats[0].player_id
    roster.merge(session, 4, daniel)
    assert rows_of(session)["Dan"] == (2, 1, 40 + 20, 2)
    assert "Daniel" not in rows_of(session)
    dan = profiles.profile(session, 4)
    assert [(m.mode, m.games, m.wins) for m in dan.modes] == [
        ("standard", 1, 1),
        ("partners", 1, 0),
    ]
    bob = next(o for o in dan.opponents if o.name == "Bob")
    assert (bob.games, bob.ahead, bob.behind) == (1, 1, 0)
    merged = {
        (r.game_id, r.player_id): (r.mu, r.sigma) for r in session.scalars(sa.select(GameResult))
    }
    results.rebuild_all(session)
    session.expire_all()
    rebuilt = {
        (r.game_id, r.player_id): (r.mu, r.sigma) for r in session.scalars(sa.select(GameResult))
    }
    assert merged.keys() == rebuilt.keys()
    for key, value in rebuilt.items():
        assert merged[key] == pytest.approx(value, rel=1e-12)


def play_club_night(session) -> None:
    """The evening, and six more players in two games of three: ties on games, wins and points."""
    play_evening(session)
    for names, winner in ((["Eve", "Fay", "Gus"], 0), (["Hal", "Ivy", "Jon"], 0)):
        game = make_game(session, names, target=30)
        record(session, game, winner, {1: 10, 2: 20})


def every_page(session, size: int, **choices) -> list[list[standings.Row]]:
    found, cursor = [], None
    while True:
        page = standings.standings_page(session, period("all"), cursor=cursor, size=size, **choices)
        found.append(page.items)
        if page.next is None:
            return found
        cursor = page.next


@pytest.mark.seeded(by=play_club_night)
@pytest.mark.parametrize("sort", list(standings.SORTS))
@pytest.mark.parametrize("descending", [True, False])
def test_the_database_sorts_as_the_table_always_did(session, sort, descending):
    whole = standings.standings(session, period("all"))
    # The club night's ten players: on no data every check below would pass.
    assert len(whole) == 10
    expected = [row.player_id for row in sort_rows(whole, sort, descending)]
    pages_found = every_page(session, 3, sort=sort, descending=descending)
    assert [row.player_id for page in pages_found for row in page] == expected
    assert all(len(page) == 3 for page in pages_found[:-1])


@pytest.mark.seeded(by=play_club_night)
def test_pages_rank_by_the_place_in_the_whole_table(session):
    found = [row for page in every_page(session, 4, sort="wins") for row in page]
    assert [row.position for row in found] == list(range(1, 11))
    again = [row for page in every_page(session, 4, sort="wins") for row in page]
    assert [row.player_id for row in again] == [row.player_id for row in found]
    assert rows_of(session)["Ann"] == next(
        (row.games, row.wins, row.points, row.hands_won) for row in found if row.name == "Ann"
    )


@pytest.mark.seeded(by=play_club_night)
def test_a_name_search_keeps_each_rank_from_the_whole_table(session):
    whole = {row.name: row.position for page in every_page(session, 50) for row in page}
    found = standings.standings_page(session, period("all"), search="A")
    assert [row.name for row in found.items] == sorted(
        (name for name in whole if "a" in name.casefold()), key=whole.__getitem__
    )
    assert [row.position for row in found.items] == sorted(whole[row.name] for row in found.items)
    assert found.items[-1].position > len(found.items)
    # Paged too: one name a page, the ranks unchanged.
    assert [row.position for page in every_page(session, 1, search="a") for row in page] == [
        row.position for row in found.items
    ]
    assert standings.standings_page(session, period("all"), search="%").items == []
    assert standings.standings_page(session, period("all"), search="zz").items == []


@pytest.mark.seeded(by=play_club_night)
def test_a_cursor_from_elsewhere_is_refused(session):
    with pytest.raises(pages.BadCursor):
        standings.standings_page(session, period("all"), cursor=pages.encode("players", ["a", 1]))
    with pytest.raises(pages.BadCursor):
        standings.standings_page(session, period("all"), cursor="not a cursor")
