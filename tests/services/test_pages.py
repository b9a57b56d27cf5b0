"""Lists read a page at a time: keyset pages, opaque cursors, searches and the setup's picks."""

from __future__ import annotations

import pytest
from factories import make_game

from scorer.services import pages, players, roster
from scorer.services.transactions import in_transaction


def add(session, *names: str) -> None:
    with in_transaction(session):
        players.find_or_add(session, list(names))


def every_page(session, **options) -> list[list[str]]:
    found, cursor = [], None
    while True:
        page = pages.roster_page(session, cursor, **options)
        found.append([entry.player.name for entry in page.items])
        if page.next is None:
            return found
        cursor = page.next


def test_pages_follow_the_name_key_and_end_with_no_cursor(session):
    add(session, "bob", "Ann", "Cat", "dan", "Eve")
    assert every_page(session, limit=2) == [["Ann", "bob"], ["Cat", "dan"], ["Eve"]]


def test_a_player_removed_or_renamed_between_pages_moves_nothing_else(session):
    add(session, "Ann", "Bob", "Cat", "Dan", "Eve")
    first = pages.roster_page(session, limit=2)
    roster.rename(session, 3, "Aaron")  # Cat, still to come, sorts before the place reached
    rest = pages.roster_page(session, first.next, limit=10)
    assert [entry.player.name for entry in rest.items] == ["Dan", "Eve"]


def test_archived_players_are_kept_or_left_out_as_asked(session):
    add(session, "Ann", "Bob", "Cat")
    roster.set_archived(session, 2, True)
    assert every_page(session, archived=False) == [["Ann", "Cat"]]
    assert every_page(session, archived=True) == [["Bob"]]
    assert every_page(session) == [["Ann", "Bob", "Cat"]]


@pytest.mark.parametrize("search", ["_", "%", "\\", "a%"])
def test_a_search_takes_like_wildcards_literally(session, search):
    add(session, "Ann", "A_b", "50% off", "back\\slash")
    literal = [
        name for name in ("50% off", "A_b", "Ann", "back\\slash") if search in name.casefold()
    ]
    assert every_page(session, search=search) == [literal]


@pytest.mark.parametrize(
    "cursor",
    [
        "x",
        "=====",
        pages.encode("games", [5]),
        pages.encode("players", [5, 5]),
        pages.encode("players", ["ann", True]),
        pages.encode("players", ["ann"]),
        "A" * (pages.CURSOR_MAX_LENGTH + 1),
    ],
)
def test_a_cursor_this_list_did_not_hand_out_is_refused(session, cursor):
    with pytest.raises(pages.BadCursor):
        pages.roster_page(session, cursor)


def test_the_setup_suggests_a_bounded_list_the_seated_first(session):
    add(session, *(f"Idle {number:02d}" for number in range(30)))
    for _ in range(2):
        make_game(session, ["Ann", "Bob"])
    make_game(session, ["Ann", "Cat"])
    make_game(session, ["Dan", "Eve"])
    suggested = pages.suggested_players(session, ["ann"], size=5)
    assert [player.name for player in suggested] == ["Ann", "Bob", "Cat", "Dan", "Eve", "Idle 00"]
    roster.set_archived(session, players.find_or_add(session, ["Bob"])[0].id, True)
    assert "Bob" not in [player.name for player in pages.suggested_players(session, [], size=50)]
