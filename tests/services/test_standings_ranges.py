"""A range of days that is no kept period gives the table summed straight from its results.

Seeded games over three years (ties on every column included: pairs who play the same games get
the same ratings) are ranked for ranges across years, months and their edges, in every order,
both ways, page by page and searched, along both of the ways a range is read: each player's last
result in an index of the order (a busy range ranked by rating or name), and every player's totals
summed. Each answer is compared with the table worked out here from the stored results alone.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import NamedTuple

import pytest
import sqlalchemy as sa
from factories import make_game, record

from scorer.models import GameResult, Player
from scorer.services import games, standings, standings_tables

FIRST = datetime(2024, 11, 3, 20, 0)
DAYS = 800
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lea"]


class Expected(NamedTuple):
    player_id: int
    name: str
    name_key: str
    games: int
    wins: int
    points: int
    hands_won: int
    rating: float
    change: float


def expected_table(session, start: datetime | None, end: datetime | None) -> list[Expected]:
    """Every player with a result in [start, end): sums, and the rating and change after their
    last game there by seq, straight from game_results."""
    players = {
        row.id: row for row in session.execute(sa.select(Player.id, Player.name, Player.name_key))
    }
    found: dict[int, list] = {}
    for result in session.scalars(sa.select(GameResult).order_by(GameResult.seq)):
        if (start and result.finished_at < start) or (end and result.finished_at >= end):
            continue
        total = found.setdefault(result.player_id, [0, 0, 0, 0, None])
        total[0] += 1
        total[1] += int(result.won)
        total[2] += result.points_won
        total[3] += result.hands_won
        total[4] = result
    return [
        Expected(
            player_id,
            players[player_id].name,
            players[player_id].name_key,
            games_played,
            wins,
            points,
            hands_won,
            last.mu - 3 * last.sigma,
            last.change,
        )
        for player_id, (games_played, wins, points, hands_won, last) in found.items()
    ]


def in_order(rows: list[Expected], sort: str, descending: bool) -> list[Expected]:
    """The database's order: the column, then the better rated, then the name's key."""
    by_name = sorted(rows, key=lambda row: row.name_key)
    if sort == "name":
        return by_name[::-1] if descending else by_name
    by_rating = sorted(by_name, key=lambda row: row.rating, reverse=True)
    if sort == "rating":
        return sorted(by_name, key=lambda row: row.rating, reverse=descending)
    column = {
        "games": lambda row: row.games,
        "wins": lambda row: row.wins,
        "win_rate": lambda row: row.wins / row.games,
        "points": lambda row: row.points,
    }[sort]
    return sorted(by_rating, key=column, reverse=descending)


def play_seasons(session) -> None:
    """About sixty games over two years and more, at seeded moments, some at a month's or a
    year's very edge; pairs that play the same games in the same order tie on everything but
    their names."""
    rng = random.Random(7)
    moments = sorted(FIRST + timedelta(minutes=rng.randrange(DAYS * 24 * 60)) for _ in range(50))
    moments += [datetime(2025, 12, 31, 23, 59, 59), datetime(2026, 1, 1), datetime(2025, 3, 1)]
    with pytest.MonkeyPatch.context() as monkeypatch:
        for moment in moments:
            seated = rng.sample(NAMES, rng.randint(2, 4))
            winner = rng.randrange(len(seated))
            play(session, monkeypatch, moment, seated, winner, rng.randint(1, 40))
        # Twins: the same two games, side by side, twice over.
        for moment in (datetime(2025, 6, 10, 12, 0), datetime(2026, 2, 2, 9, 0)):
            play(session, monkeypatch, moment, ["Zed One", "Zed Two"], 0, 25)
            play(session, monkeypatch, moment, ["Zed Three", "Zed Four"], 0, 25)


def play(session, monkeypatch, moment: datetime, names: list[str], winner: int, left: int) -> None:
    monkeypatch.setattr(games, "utcnow", lambda: moment)
    game = make_game(session, names, target=50)
    record(session, game, winner, {seat: 50 + left for seat in range(len(names)) if seat != winner})


RANGES = [
    (date(2024, 11, 20), date(2026, 3, 9)),  # edges, whole months, a whole year
    (date(2025, 1, 1), date(2025, 12, 30)),  # a year but its last day
    (date(2025, 2, 15), date(2025, 3, 1)),  # a game on the last day
    (date(2025, 12, 31), date(2026, 1, 1)),  # the year's last and first days
    (None, date(2025, 7, 4)),  # from the first game
    (date(2025, 9, 9), None),  # to the last game
    (date(2030, 1, 1), date(2030, 2, 2)),  # nobody
]
SEARCHES = ["a", "zed", "q"]
# Where a range's edges fall does not change how a search or a page of every row is read, so those
# walks (most of this file's cost) are checked on the ranges with the most players, and the edge
# ranges in pages of 4 alone.
WIDE_RANGES = {RANGES[0], RANGES[1], RANGES[4], RANGES[5]}


@pytest.fixture(params=["ranked", "summed"])
def way(request, monkeypatch) -> str:
    """Which way a range is read: every range counts as busy (ranked by rating and name from
    each player's last result in it), or none does (every player summed)."""
    monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1 if request.param == "ranked" else 10**9)
    return request.param


def pages_of(session, span, sort: str, descending: bool, size: int, search: str = ""):
    found, cursor = [], None
    while True:
        page = standings.standings_page(
            session, span, sort=sort, descending=descending, search=search, cursor=cursor, size=size
        )
        assert len(page.items) <= size
        found += page.items
        if page.next is None:
            return found
        assert len(page.items) == size
        # A cursor that does not move on would page for ever.
        assert len(found) <= len(NAMES) + 4, "paged past every player"
        cursor = page.next


@pytest.mark.seeded(by=play_seasons)
def test_every_order_page_and_search_is_the_table_of_the_results_ties_and_all(session, way):
    assert session.scalar(sa.select(sa.func.count()).select_from(GameResult)) > 100
    for first, last in RANGES:
        span = standings.period("custom", first, last)
        table = expected_table(session, span.start, span.end)
        for sort in standings.SORTS:
            for descending in (True, False):
                expected = in_order(table, sort, descending)
                for size in (4, 50) if (first, last) == RANGES[0] else (4,):
                    found = pages_of(session, span, sort, descending, size)
                    where = (first, last, sort, descending, size)
                    assert [row.player_id for row in found] == [
                        row.player_id for row in expected
                    ], where
                    assert [row.position for row in found] == list(range(1, len(expected) + 1)), (
                        where
                    )
                    for row, want in zip(found, expected, strict=True):
                        assert (row.name, row.games, row.wins, row.points, row.hands_won) == (
                            want.name,
                            want.games,
                            want.wins,
                            want.points,
                            want.hands_won,
                        ), where
                        assert row.rating == pytest.approx(want.rating, rel=1e-12, abs=1e-12)
                        assert row.change == pytest.approx(want.change, rel=1e-12, abs=1e-12)
                for search in SEARCHES if (first, last) in WIDE_RANGES else ():
                    places = {row.player_id: place for place, row in enumerate(expected, 1)}
                    wanted = [row.player_id for row in expected if search in row.name_key]
                    found = pages_of(session, span, sort, descending, 3, search)
                    assert [row.player_id for row in found] == wanted, (first, last, search)
                    assert [row.position for row in found] == [places[i] for i in wanted]

    # The ties go to the better rated, then the name: the twins' winners tie on everything but
    # their names, and so do their losers.
    span = standings.period("custom", date(2025, 6, 1), date(2026, 2, 28))
    twins = [
        row.name for row in pages_of(session, span, "points", True, 4) if row.name.startswith("Zed")
    ]
    assert twins == ["Zed One", "Zed Three", "Zed Four", "Zed Two"]


@pytest.mark.seeded(by=play_seasons)
def test_a_busy_range_ranked_by_rating_reads_a_page_not_every_player(
    session, monkeypatch, count_queries
):
    monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
    span = standings.period("custom", date(2024, 11, 20), date(2026, 3, 9))
    with count_queries() as statements:
        page = standings.standings_page(session, span, size=2)
    assert len(page.items) == 2
    assert any("result_ranks" in statement for statement in statements)
    assert not any("row_number" in statement for statement in statements)


def test_fewest_games_first_reads_the_players_of_one_game_in_order(
    session, monkeypatch, count_queries
):
    monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
    for day, names in enumerate(
        (["Ann", "Bob"], ["Cat", "Dan"], ["Eve", "Fay"], ["Gus", "Hal"], ["Ann", "Ivy"]), 3
    ):
        play(session, monkeypatch, datetime(2026, 1, day, 20, 0), names, 0, day)
    span = standings.period("custom", date(2026, 1, 2), date(2026, 2, 3))
    expected = in_order(expected_table(session, span.start, span.end), "games", False)
    with count_queries() as statements:
        first = standings.standings_page(session, span, sort="games", descending=False, size=3)
    # Read from the players of one game alone, not from everyone's sums.
    assert any("earlier" in statement for statement in statements)
    found = pages_of(session, span, "games", False, 3)
    assert [row.player_id for row in first.items] == [row.player_id for row in expected[:3]]
    assert [row.player_id for row in found] == [row.player_id for row in expected]
    assert [row.games for row in found] == [1] * 8 + [2]
    assert [row.position for row in found] == list(range(1, 10))


def refuse_to_sum_everyone(monkeypatch) -> None:
    """Summing every player's totals fails the test: the page must be read another way."""

    every = standings_tables._totalled

    def totalled(session, parts, order, values, search, base, size, totals=None):
        assert totals is not None, "every player's totals were summed"
        return every(session, parts, order, values, search, base, size, totals)

    monkeypatch.setattr(standings_tables, "_totalled", totalled)


def play_a_january(session) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        for day, (names, winner) in enumerate(
            (
                (["Ann", "Bob"], 0),
                (["Cat", "Dan"], 0),
                (["Eve", "Fay", "Gus"], 1),
                (["Hal", "Ivy"], 1),
                (["Ann", "Jon"], 0),
                (["Kim", "Lea"], 0),
            ),
            3,
        ):
            play(session, monkeypatch, datetime(2026, 1, day, 20, 0), names, winner, day)
        # Outside the range: Bob's win and Cat's loss count for nothing here.
        play(session, monkeypatch, datetime(2025, 12, 30, 20, 0), ["Bob", "Cat"], 0, 9)


@pytest.mark.seeded(by=play_a_january)
@pytest.mark.parametrize(
    ("sort", "descending", "first"),
    [
        ("wins", False, {"wins": 0}),
        ("points", False, {"points": 0}),
        ("win_rate", False, {"wins": 0}),
        ("win_rate", True, {"lost": 0}),
    ],
)
def test_the_players_on_the_least_or_the_most_come_first_read_in_order(
    session, monkeypatch, sort, descending, first
):
    monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
    span = standings.period("custom", date(2026, 1, 2), date(2026, 2, 3))
    expected = in_order(expected_table(session, span.start, span.end), sort, descending)
    with monkeypatch.context() as patched:
        refuse_to_sum_everyone(patched)
        page = standings.standings_page(session, span, sort=sort, descending=descending, size=2)
        after = standings.standings_page(
            session, span, sort=sort, descending=descending, size=2, cursor=page.next
        )
    shown = page.items + after.items
    assert [row.player_id for row in shown] == [row.player_id for row in expected[:4]]
    assert [row.position for row in shown] == [1, 2, 3, 4]
    for row in shown:
        if "wins" in first:
            assert row.wins == 0
        if "points" in first:
            assert row.points == 0
        if "lost" in first:
            assert row.wins == row.games
    # Past those players, the pages go on summed, in the same order and places.
    found = pages_of(session, span, sort, descending, 3)
    assert [row.player_id for row in found] == [row.player_id for row in expected]
    assert [row.position for row in found] == list(range(1, len(expected) + 1))

    # Searched, each row found keeps its place among them all.
    places = {row.player_id: place for place, row in enumerate(expected, 1)}
    searched = [row.player_id for row in expected if "a" in row.name_key]
    with monkeypatch.context() as patched:
        refuse_to_sum_everyone(patched)
        page = standings.standings_page(
            session, span, sort=sort, descending=descending, search="a", size=2
        )
    assert [row.player_id for row in page.items] == searched[:2]
    assert [row.position for row in page.items] == [places[i] for i in searched[:2]]
    found = pages_of(session, span, sort, descending, 2, "a")
    assert [row.player_id for row in found] == searched
    assert [row.position for row in found] == [places[i] for i in searched]


# Checked on one set of seasons, which takes seconds to play: each order a subtest.
SEARCHED_ORDERS = [
    ("rating", True),
    ("rating", False),
    ("name", True),
    ("games", True),
    ("wins", True),
    ("points", True),
]


@pytest.mark.seeded(by=play_seasons)
def test_a_busy_range_searched_numbers_the_rows_up_to_the_last_found(
    session, monkeypatch, subtests
):
    monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
    span = standings.period("custom", date(2024, 11, 20), date(2026, 3, 9))
    table = expected_table(session, span.start, span.end)
    for sort, descending in SEARCHED_ORDERS:
        with subtests.test(sort=sort, descending=descending):
            expected = in_order(table, sort, descending)
            places = {row.player_id: place for place, row in enumerate(expected, 1)}
            for search in ("e", "zed", "q"):
                wanted = [row.player_id for row in expected if search in row.name_key]
                with monkeypatch.context() as patched:
                    refuse_to_sum_everyone(patched)
                    found = pages_of(session, span, sort, descending, 2, search)
                assert [row.player_id for row in found] == wanted, search
                assert [row.position for row in found] == [places[i] for i in wanted], search


@pytest.mark.seeded(by=play_seasons)
@pytest.mark.parametrize("walk", [1, 3, 10**6])
def test_a_search_by_rating_or_name_past_its_walk_reads_the_rows_it_finds_by_their_names(
    session, monkeypatch, count_queries, backend, walk
):
    """On PostgreSQL a search that finds no page within SEARCH_WALK rows of its order reads every
    row it finds (from the trigrams of their names) and sorts them; pages and places are the
    table's all the same, on both databases."""
    monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
    monkeypatch.setattr(standings_tables, "SEARCH_WALK", walk)
    span = standings.period("custom", date(2024, 11, 20), date(2026, 3, 9))
    table = expected_table(session, span.start, span.end)
    # The seasons' players: an empty table would pass every check below without reading a row.
    assert len(table) > 10
    for sort, descending in (("rating", True), ("rating", False), ("name", False), ("name", True)):
        expected = in_order(table, sort, descending)
        places = {row.player_id: place for place, row in enumerate(expected, 1)}
        for search in ("e", "zed", "q", "o t"):
            wanted = [row.player_id for row in expected if search in row.name_key]
            with count_queries() as statements:
                found = pages_of(session, span, sort, descending, 2, search)
            where = (sort, descending, search)
            assert [row.player_id for row in found] == wanted, where
            assert [row.position for row in found] == [places[i] for i in wanted], where
            by_names = any("hits" in statement for statement in statements)
            # A walk of one row finds no page of two: every search then reads its rows by name.
            assert by_names == (backend == "postgresql" and walk < len(table)), where


def test_the_names_of_ranked_results_have_an_index_of_their_trigrams_on_postgresql(
    session, backend
):
    """Where pg_trgm can be had (it ships with PostgreSQL), the index a search reads its rows
    from is one of trigrams; elsewhere a plain one of the same name."""
    indexes = sa.inspect(session.connection()).get_indexes("result_ranks")
    (found,) = [index for index in indexes if index["name"] == "ix_result_ranks_name_trigrams"]
    assert found["column_names"] == ["name_key"]
    if backend == "postgresql":
        available = session.scalar(
            sa.text("SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_trgm'")
        )
        if available:
            options = found["dialect_options"]
            assert options["postgresql_using"] == "gin"
            assert options["postgresql_ops"] == {"name_key": "gin_trgm_ops"}


def test_a_later_page_searched_by_most_games_first_sums_those_reaching_its_cursor(
    session, monkeypatch
):
    monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
    before, within = datetime(2025, 12, 20, 20, 0), datetime(2026, 1, 10, 20, 0)
    # Six players of three games in the range and one before it, twelve of one game in it and
    # two before: the second page's sample holds only the latter (all-time three, not four),
    # which bound the page no higher than one game, though its rows have three.
    for pair in range(3):
        names = [f"Ann {2 * pair}", f"Ann {2 * pair + 1}"]
        for day in range(4):
            play(
                session, monkeypatch, (within if day else before) + timedelta(days=day), names, 0, 9
            )
    for pair in range(6):
        names = [f"Ada {2 * pair}", f"Ada {2 * pair + 1}"]
        for day in range(3):
            play(
                session,
                monkeypatch,
                (within if day == 2 else before) + timedelta(days=day),
                names,
                0,
                9,
            )
    play(session, monkeypatch, within, ["Bob", "Eve"], 0, 9)
    span = standings.period("custom", date(2026, 1, 2), date(2026, 2, 3))
    table = in_order(expected_table(session, span.start, span.end), "games", True)
    places = {row.player_id: place for place, row in enumerate(table, 1)}
    wanted = [row.player_id for row in table if "a" in row.name_key]
    first = standings.standings_page(session, span, sort="games", search="a", size=2)
    reached: list[int] = []
    reaching = standings_tables._reaching

    def counted(session, players, name_key):
        reached.append(session.scalar(sa.select(sa.func.count()).select_from(players.subquery())))
        return reaching(session, players, name_key)

    with monkeypatch.context() as patched:
        refuse_to_sum_everyone(patched)
        patched.setattr(standings_tables, "_reaching", counted)
        second = standings.standings_page(
            session, span, sort="games", search="a", size=2, cursor=first.next
        )
    assert [row.player_id for row in second.items] == wanted[2:4]
    assert [row.position for row in second.items] == [places[i] for i in wanted[2:4]]
    assert [row.games for row in first.items + second.items] == [3, 3, 3, 3]
    # Only the eighteen whose all-time games reach the cursor's three were summed, not Bob and
    # Eve, whom the sample's bound of one game would have let in.
    assert reached == [18]
    # A page found whole at or above its cursor's total (one more row of three games after it
    # shows the page goes on) needs no sample summed for a floor: every sum it reads is of the
    # players reaching a floor, whose names come with them.
    summed: list[bool] = []
    totals = standings_tables._totals

    def recorded(parts, dialect, player_ids=None, names=None):
        summed.append(names is not None)
        return totals(parts, dialect, player_ids, names)

    with monkeypatch.context() as patched:
        patched.setattr(standings_tables, "_totals", recorded)
        shorter = standings.standings_page(
            session, span, sort="games", search="a", size=1, cursor=first.next
        )
    assert [row.player_id for row in shorter.items] == wanted[2:3]
    assert [row.position for row in shorter.items] == [places[wanted[2]]]
    assert shorter.next is not None
    assert summed == [True]
    # On past the players of three games, the pages go on in the same order and places.
    found = pages_of(session, span, "games", True, 2, "a")
    assert [row.player_id for row in found] == wanted
    assert [row.position for row in found] == [places[i] for i in wanted]


def play_single_wins(session) -> None:
    """In January 2026, Ann wins three games, Cat, Eve, Gus and Ivy one each, each for the same
    points; nobody wins two, and Bob's win falls in December."""
    games_played = [(["Ann", "Bob"], 0)] * 3 + [
        (["Cat", "Dan"], 0),
        (["Eve", "Fay"], 0),
        (["Gus", "Hal"], 0),
        (["Ivy", "Jon"], 0),
    ]
    with pytest.MonkeyPatch.context() as monkeypatch:
        for day, (names, winner) in enumerate(games_played, 3):
            play(session, monkeypatch, datetime(2026, 1, day, 20, 0), names, winner, 5)
        play(session, monkeypatch, datetime(2025, 12, 30, 20, 0), ["Bob", "Cat"], 0, 9)


@pytest.mark.seeded(by=play_single_wins)
@pytest.mark.parametrize("sort", ["wins", "points"])
# Results at the edges only; or January kept whole, between two edges.
@pytest.mark.parametrize("first", [date(2026, 1, 2), date(2025, 12, 31)])
def test_fewest_wins_or_points_past_the_players_with_none_read_group_by_group(
    session, monkeypatch, sort, first
):
    monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
    span = standings.period("custom", first, date(2026, 2, 3))
    assert standings_tables.source(session, span.start, span.end, None).keys == (
        () if first.month == 1 else (202601,)
    )
    expected = in_order(expected_table(session, span.start, span.end), sort, False)
    assert [getattr(row, sort) > 0 for row in expected] == [False] * 5 + [True] * 5

    # The pages up to the last group read no one's totals but their own rows': by wins past the
    # empty group of two wins to Ann's three; by points to the four on one win's points, the
    # fewest any result in the range scored.
    quick = 3 if sort == "wins" else 2
    shown, cursor = [], None
    with monkeypatch.context() as patched:
        refuse_to_sum_everyone(patched)
        for _ in range(quick):
            page = standings.standings_page(
                session, span, sort=sort, descending=False, size=3, cursor=cursor
            )
            shown += page.items
            cursor = page.next
    assert [row.player_id for row in shown] == [row.player_id for row in expected[: 3 * quick]]
    assert [row.position for row in shown] == list(range(1, 3 * quick + 1))

    # Every page, and the same when a group is not found within the rows a walk may read.
    for walk in (standings_tables.GROUP_WALK, 2):
        monkeypatch.setattr(standings_tables, "GROUP_WALK", walk)
        found = pages_of(session, span, sort, False, 3)
        assert [row.player_id for row in found] == [row.player_id for row in expected], walk
        assert [row.position for row in found] == list(range(1, len(expected) + 1)), walk
        assert [(row.wins, row.points) for row in found] == [
            (row.wins, row.points) for row in expected
        ], walk
