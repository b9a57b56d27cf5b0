"""Recording, editing and undoing hands: what is stored, and what the replayed game says."""

import contextlib
import threading

import pytest
import sqlalchemy as sa
from factories import entry, make_game, record

from scorer import scoring
from scorer.extensions import db
from scorer.models import Game, Hand, HandCount
from scorer.services import games, hands
from scorer.services.errors import Conflict, NotFound
from scorer.services.snapshots import StoredHand


def scores(view) -> list[int]:
    return [side.score for side in view.state.sides]


def stored_hands(session, game_id: int) -> list[tuple[int, int]]:
    """(number, went_out) of every stored hand, read from the table, not from loaded objects."""
    session.expire_all()
    rows = session.execute(
        sa.select(Hand.number, Hand.went_out).where(Hand.game_id == game_id).order_by(Hand.number)
    )
    return [tuple(row) for row in rows]


def stored_counts(session, game_id: int, number: int) -> list[tuple[int, str | None, int | None]]:
    rows = session.execute(
        sa.select(HandCount.position, HandCount.cards, HandCount.points)
        .join(Hand)
        .where(Hand.game_id == game_id, Hand.number == number)
        .order_by(HandCount.position)
    )
    return [tuple(row) for row in rows]


def problems_of(refused: pytest.ExceptionInfo) -> list[tuple[str, int | None]]:
    return [(problem.field, problem.seat) for problem in refused.value.problems]


# Recording


def test_the_player_who_went_out_scores_everyone_elses_cards(session):
    game = make_game(session)
    # Bob holds 3 + Skip = 23, Cat Wild + Draw Two = 70, Dan an 8: Ann scores 101.
    view = record(session, game, 0, {1: ["3", "skip"], 2: ["wild", "draw2"], 3: ["8"]})
    assert scores(view) == [101, 0, 0, 0]
    assert [side.hands_won for side in view.state.sides] == [1, 0, 0, 0]
    assert [side.to_target for side in view.state.sides] == [399, 500, 500, 500]
    assert view.state.hands[0].counted == {1: 23, 2: 70, 3: 8}
    assert view.state.hands[0].gain == 101


def test_scores_add_up_over_hands_and_the_deal_passes_left(session):
    game = make_game(session, first_dealer=3)
    record(session, game, 0, {1: 10, 2: 20, 3: 5})
    view = record(
        session, game, 2, {0: ["wild4"], 1: ["0", "9"], 3: ["reverse", "reverse", "blank"]}
    )
    # Hand 2: Cat scores 50 + (0 + 9) + (20 + 20 + 50) = 149.
    assert scores(view) == [35, 0, 149, 0]
    assert [result.dealer for result in view.state.hands] == [3, 0]
    assert view.state.dealer == 1
    assert view.state.next_hand_number == 3


def test_cards_and_typed_totals_are_stored_as_entered(session):
    game = make_game(session, 3)
    record(session, game, 1, {0: ["7", "draw2", "50"], 2: 42})
    assert stored_hands(session, game.id) == [(1, 1)]
    assert stored_counts(session, game.id, 1) == [(0, "7 draw2 50", None), (2, None, 42)]


@pytest.mark.parametrize(
    ("last_card", "stored"), [("draw2", "draw2"), ("wild4", "wild4"), ("7", None)]
)
def test_only_a_draw_card_is_kept_as_the_last_card(session, last_card, stored):
    game = make_game(session, 2)
    hands.record_hand(
        session, game.id, 1, hands.HandEntry(0, {1: scoring.Count(points=4)}, last_card)
    )
    session.expire_all()
    assert session.scalar(sa.select(Hand.last_card)) == stored


def test_reaching_the_target_exactly_wins(session):
    game = make_game(session, 3, target=200)
    view = record(session, game, 0, {1: 150, 2: 49})
    assert scores(view) == [199, 0, 0]
    assert not view.state.finished
    assert view.game.finished_at is None
    view = record(session, game, 0, {1: ["1"], 2: 0})
    assert scores(view) == [200, 0, 0]
    assert view.state.winner == 0
    assert view.winner.seats == (0,)
    session.expire_all()
    assert session.get(Game, game.id).finished_at is not None


def test_partners_score_the_opponents_cards_only(session):
    game = make_game(session, 4, mode="partners")
    # Ann (seat 0) goes out; Cat (seat 2) is her partner. Bob and Dan hold 23 and 8.
    view = record(session, game, 0, {1: ["3", "skip"], 3: ["8"]})
    assert scores(view) == [31, 0]
    # Dan (seat 3) goes out for Bob & Dan: Ann and Cat hold 40 and 9.
    view = record(session, game, 3, {0: 40, 2: ["9"]})
    assert scores(view) == [31, 49]


def test_challenge_counts_cards_against_their_holders(session):
    game = make_game(session, 3, mode="challenge", target=100)
    view = record(session, game, 0, {1: 100, 2: 30})
    assert scores(view) == [0, 100, 30]
    # Bob reached the target: he is out from the next hand on.
    assert view.state.sides[1].eliminated_in == 1
    assert view.state.hands[0].eliminated == (1,)
    assert not view.state.finished
    view = record(session, game, 2, {0: 20})
    assert scores(view) == [20, 100, 30]
    assert not view.state.finished
    view = record(session, game, 0, {2: 70})
    # Cat reaches 100 and is out; Ann is the last one left and wins.
    assert scores(view) == [20, 100, 100]
    assert view.state.winner == 0


def test_recording_into_a_finished_game_is_a_conflict(session):
    game = make_game(session, 2, target=50)
    record(session, game, 1, {0: 50})
    with pytest.raises(Conflict, match="over"):
        record(session, game, 0, {1: 5}, number=2)
    assert stored_hands(session, game.id) == [(1, 1)]


def test_a_hand_number_past_the_next_one_is_refused_without_claiming_it_was_recorded(session):
    game = make_game(session, 3)
    with pytest.raises(Conflict, match="cannot be recorded yet: the next hand is 1"):
        record(session, game, 0, {1: 10, 2: 20}, number=3)
    assert stored_hands(session, game.id) == []


def test_the_same_hand_number_twice_is_stored_once(session):
    game = make_game(session, 3)
    record(session, game, 0, {1: 10, 2: 20}, number=1)
    with pytest.raises(Conflict, match="already recorded"):
        record(session, game, 1, {0: 5, 2: 5}, number=1)
    assert stored_hands(session, game.id) == [(1, 0)]
    assert scores(games.load_game(session, game.id)) == [30, 0, 0]


def test_a_hand_number_that_is_not_next_is_refused(session):
    game = make_game(session, 2)
    with pytest.raises(Conflict):
        record(session, game, 0, {1: 10}, number=2)
    assert stored_hands(session, game.id) == []


def test_recording_into_an_unknown_game_is_not_found(session):
    with pytest.raises(NotFound):
        hands.record_hand(session, 404, 1, entry(0, {1: 3}))


@pytest.mark.parametrize(
    ("counts", "where"),
    [
        ({1: -1, 2: 0}, [("count", 1)]),
        # A default deck (one classic deck and 4 blanks) holds 1440 points.
        ({1: 1441, 2: 0}, [("count", 1)]),
        ({1: 10}, [("count", 2)]),
        ({1: 10, 2: ["7", "joker"]}, [("count", 2)]),
        # Nine 7s: a deck has eight.
        ({1: ["7"] * 5, 2: ["7"] * 4}, [("count", 1), ("count", 2)]),
        # Twenty-five 20-point cards: a deck has 24 (eight each of Skip, Reverse, Draw Two).
        (
            {1: ["skip"] * 8 + ["reverse"] * 8, 2: ["draw2"] * 8 + ["20"]},
            [("count", 1), ("count", 2)],
        ),
        # Nine 50-point wild cards: a deck has 4 Wild and 4 Wild Draw Four.
        ({1: ["wild"] * 4 + ["50"], 2: ["wild4"] * 4}, [("count", 1), ("count", 2)]),
        # Each total fits a deck, but not both together.
        ({1: 1000, 2: 500}, [("hand", None)]),
        # The player who went out has no cards to count.
        ({0: 5, 1: 10, 2: 10}, [("count", 0)]),
    ],
)
def test_a_hand_that_cannot_be_right_is_refused_and_not_saved(session, counts, where):
    game = make_game(session, 3)
    with pytest.raises(scoring.Rejected) as refused:
        record(session, game, 0, counts)
    assert problems_of(refused) == where
    assert stored_hands(session, game.id) == []
    assert session.scalar(sa.select(Game.version)) == 0


def test_deck_overflow_says_how_many_the_deck_has(session):
    game = make_game(session, 3)
    with pytest.raises(scoring.Rejected) as refused:
        record(session, game, 0, {1: ["7"] * 5, 2: ["7"] * 4})
    message = refused.value.problems[0].message
    assert "9" in message
    assert "8" in message


def test_the_deck_limits_count_every_player_of_the_hand_together(session):
    game = make_game(session, 3)
    # Exactly a deck's worth: eight 7s, 24 twenty-point cards, eight fifty-point cards.
    view = record(
        session,
        game,
        0,
        {
            1: ["7"] * 4 + ["skip"] * 8 + ["reverse"] * 8 + ["wild"] * 4,
            2: ["7"] * 4 + ["draw2"] * 8 + ["wild4"] * 4,
        },
    )
    assert scores(view) == [8 * 7 + 24 * 20 + 8 * 50, 0, 0]


def test_who_went_out_is_required(session):
    game = make_game(session, 2)
    with pytest.raises(scoring.Rejected) as refused:
        hands.record_hand(session, game.id, 1, entry(None, {1: 10}))
    assert problems_of(refused) == [("went_out", None)]
    assert stored_hands(session, game.id) == []


def test_a_partners_count_is_refused(session):
    game = make_game(session, 4, mode="partners")
    with pytest.raises(scoring.Rejected) as refused:
        record(session, game, 0, {1: 10, 2: 5, 3: 7})
    # Cat (seat 2) is Ann's partner: her cards score for nobody and must not be given.
    assert problems_of(refused) == [("count", 2)]
    assert stored_hands(session, game.id) == []


def test_an_eliminated_player_cannot_be_counted_nor_go_out(session):
    game = make_game(session, 3, mode="challenge", target=100)
    record(session, game, 0, {1: 120, 2: 10})
    with pytest.raises(scoring.Rejected) as refused:
        record(session, game, 2, {0: 5, 1: 3})
    assert problems_of(refused) == [("count", 1)]
    with pytest.raises(scoring.Rejected) as refused:
        record(session, game, 1, {0: 5, 2: 3})
    assert problems_of(refused) == [("went_out", None)]
    assert stored_hands(session, game.id) == [(1, 0)]


# Two phones saving the same hand


def test_a_second_phone_saving_the_same_hand_gets_a_conflict(session):
    game = make_game(session, 2)
    number = games.load_game(session, game.id).state.next_hand_number
    hands.record_hand(session, game.id, number, entry(0, {1: 12}))
    with pytest.raises(Conflict, match="already recorded"):
        hands.record_hand(session, game.id, number, entry(1, {0: 30}))
    assert stored_hands(session, game.id) == [(1, 0)]


def test_a_phone_that_read_the_game_before_another_saved_is_checked_against_the_new_game(session):
    game = make_game(session, 2, target=100)
    second_phone = games.load_game(session, game.id)
    hands.record_hand(session, game.id, 1, entry(0, {1: 12}))
    # The second phone's view still says hand 1 is next; the save must not believe it.
    assert second_phone.state.next_hand_number == 1
    with pytest.raises(Conflict, match="already recorded"):
        hands.record_hand(session, game.id, 1, entry(1, {0: 30}))
    assert stored_hands(session, game.id) == [(1, 0)]


def test_an_edit_is_checked_against_the_hands_saved_since_the_page_was_read(session):
    game = make_game(session, 2, target=100)
    record(session, game, 0, {1: 60})
    page = games.load_game(session, game.id)
    record(session, game, 0, {1: 30})
    # Hand 1 at 70 would end the game before hand 2; the page's view has no hand 2 to object to.
    assert len(page.hands) == 1
    with pytest.raises(scoring.Rejected):
        hands.edit_hand(session, game.id, 1, entry(0, {1: 100}))
    assert scores(games.load_game(session, game.id)) == [90, 0]


def test_a_save_after_a_save_reads_no_hands_again(session, count_queries):
    game = make_game(session, 2, target=1000)
    view = hands.record_hand(session, game.id, 1, entry(0, {1: 12}))
    with count_queries() as statements:
        view = hands.record_hand(session, game.id, 2, entry(1, {0: 5}))
    assert not [query for query in statements if "FROM hands" in query]
    assert scores(view) == [12, 5]
    assert scores(games.load_game(session, game.id)) == [12, 5]


def test_a_save_given_the_view_it_was_checked_against_reads_nothing_again(session, count_queries):
    game = make_game(session, 2, target=1000)
    view = hands.record_hand(session, game.id, 1, entry(0, {1: 12}))
    with count_queries() as statements:
        view = hands.record_hand(session, game.id, 2, entry(1, {0: 5}), seen=view)
    assert not [query for query in statements if query.lstrip().upper().startswith("SELECT")]
    assert scores(view) == [12, 5]
    assert scores(games.load_game(session, game.id)) == [12, 5]


def test_a_view_read_before_another_save_is_not_used(session):
    game = make_game(session, 2, target=100)
    second_phone = games.load_game(session, game.id)
    hands.record_hand(session, game.id, 1, entry(0, {1: 12}))
    with pytest.raises(Conflict, match="already recorded"):
        hands.record_hand(session, game.id, 1, entry(1, {0: 30}), seen=second_phone)
    assert stored_hands(session, game.id) == [(1, 0)]


def test_a_view_of_another_game_is_not_used(session):
    game, other = make_game(session, 2), make_game(session, 2)
    seen = games.load_game(session, other.id)
    view = hands.record_hand(session, game.id, 1, entry(0, {1: 12}), seen=seen)
    assert view.game.id == game.id
    assert stored_hands(session, game.id) == [(1, 0)] and stored_hands(session, other.id) == []


@pytest.mark.fresh_database
def test_concurrent_saves_of_one_hand_store_exactly_one(app, session, monkeypatch):
    game_id = make_game(session, 2).id
    session.commit()
    # Hold each phone just before it saves until the other has loaded the game too, so that both
    # saves overlap. A service that makes the second phone wait for the first one's transaction
    # never lets both get here; then the first goes on alone after a moment.
    both_loaded = threading.Barrier(2)
    mark_changed = hands.mark_changed

    def wait_for_the_other(session, view):
        with contextlib.suppress(threading.BrokenBarrierError):
            both_loaded.wait(timeout=2)
        return mark_changed(session, view)

    monkeypatch.setattr(hands, "mark_changed", wait_for_the_other)
    outcomes: dict[int, object] = {}

    def phone(seat: int) -> None:
        with app.app_context():
            try:
                hands.record_hand(db.session, game_id, 1, entry(seat, {1 - seat: 10 + seat}))
            except Exception as error:  # noqa: BLE001 - the test inspects it
                outcomes[seat] = error
            else:
                outcomes[seat] = "saved"
            finally:
                db.session.remove()

    threads = [threading.Thread(target=phone, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    saved = [seat for seat, outcome in outcomes.items() if outcome == "saved"]
    refused = [outcome for outcome in outcomes.values() if outcome != "saved"]
    assert len(saved) == 1, outcomes
    assert len(refused) == 1 and isinstance(refused[0], Conflict), outcomes
    assert "already recorded" in refused[0].message
    saved = saved[0]
    assert stored_hands(session, game_id) == [(1, saved)]
    view = games.load_game(session, game_id)
    assert view.game.version == 1
    assert scores(view)[saved] == 10 + saved


# Editing


def test_editing_a_hand_recomputes_every_total(session):
    game = make_game(session, 3, target=100)
    record(session, game, 0, {1: 30, 2: 20})
    record(session, game, 1, {0: 10, 2: 15})
    view = hands.edit_hand(session, game.id, 1, entry(2, {0: ["9", "skip"], 1: 45}))
    # Hand 1 now: Cat out, scoring 29 + 45 = 74. Hand 2 still: Bob 25.
    assert scores(view) == [0, 25, 74]
    assert [side.hands_won for side in view.state.sides] == [0, 1, 1]
    assert view.game.version == 3
    session.expire_all()
    assert stored_hands(session, game.id) == [(1, 2), (2, 1)]
    assert stored_counts(session, game.id, 1) == [(0, "9 skip", None), (1, None, 45)]
    assert scores(games.load_game(session, game.id)) == [0, 25, 74]


def test_an_edit_can_finish_the_game_and_unfinish_it(session):
    game = make_game(session, 2, target=100)
    record(session, game, 0, {1: 60})
    record(session, game, 1, {0: 30})
    view = hands.edit_hand(session, game.id, 2, entry(0, {1: 40}))
    assert scores(view) == [100, 0]
    assert view.state.winner == 0
    session.expire_all()
    assert session.get(Game, game.id).finished_at is not None

    view = hands.edit_hand(session, game.id, 2, entry(0, {1: 39}))
    assert scores(view) == [99, 0]
    assert view.state.winner is None
    session.expire_all()
    assert session.get(Game, game.id).finished_at is None


def test_an_edit_that_ends_the_game_before_later_hands_is_refused(session):
    game = make_game(session, 2, target=100)
    record(session, game, 0, {1: 30})
    record(session, game, 1, {0: 10})
    record(session, game, 0, {1: 20})
    with pytest.raises(scoring.Rejected) as refused:
        hands.edit_hand(session, game.id, 1, entry(0, {1: 100}))
    assert [problem.hand for problem in refused.value.problems] == [2, 3]
    session.expire_all()
    assert stored_counts(session, game.id, 1) == [(1, None, 30)]
    view = games.load_game(session, game.id)
    assert scores(view) == [50, 10]
    assert view.game.version == 3


def test_an_edit_that_eliminates_a_player_counted_later_is_refused(session):
    game = make_game(session, 3, mode="challenge", target=100)
    record(session, game, 0, {1: 50, 2: 10})
    record(session, game, 0, {1: 20, 2: 10})
    with pytest.raises(scoring.Rejected) as refused:
        hands.edit_hand(session, game.id, 1, entry(0, {1: 100, 2: 10}))
    # Bob would be out after hand 1, yet hand 2 counts his cards.
    assert [(p.hand, p.seat) for p in refused.value.problems] == [(2, 1)]
    session.expire_all()
    assert stored_counts(session, game.id, 1) == [(1, None, 50), (2, None, 10)]
    assert scores(games.load_game(session, game.id)) == [0, 70, 20]


def test_an_edit_with_a_bad_count_is_refused(session):
    game = make_game(session, 3)
    record(session, game, 0, {1: 30, 2: 20})
    with pytest.raises(scoring.Rejected):
        hands.edit_hand(session, game.id, 1, entry(0, {1: -3, 2: 20}))
    with pytest.raises(scoring.Rejected):
        hands.edit_hand(session, game.id, 1, entry(None, {1: 3, 2: 20}))
    session.expire_all()
    assert stored_counts(session, game.id, 1) == [(1, None, 30), (2, None, 20)]


def test_editing_a_hand_that_does_not_exist_is_not_found(session):
    game = make_game(session, 2)
    record(session, game, 0, {1: 30})
    with pytest.raises(NotFound):
        hands.edit_hand(session, game.id, 2, entry(0, {1: 3}))


# Undoing


def test_undo_removes_the_last_hand_and_totals_go_back(session):
    game = make_game(session, 3, first_dealer=1)
    record(session, game, 0, {1: 30, 2: 20})
    record(session, game, 1, {0: 10, 2: 15})
    view = hands.undo_last_hand(session, game.id, 2)
    assert scores(view) == [50, 0, 0]
    # Bob dealt hand 1, so Cat deals the hand that replaces the undone one.
    assert view.state.dealer == 2
    assert view.state.next_hand_number == 2
    assert stored_hands(session, game.id) == [(1, 0)]
    assert session.scalar(sa.select(sa.func.count()).select_from(HandCount)) == 2
    # The next hand reuses the number.
    record(session, game, 2, {0: 1, 1: 1})
    assert stored_hands(session, game.id) == [(1, 0), (2, 2)]


def test_only_the_last_hand_can_be_undone(session):
    game = make_game(session, 2)
    record(session, game, 0, {1: 30})
    record(session, game, 1, {0: 10})
    with pytest.raises(Conflict, match="last"):
        hands.undo_last_hand(session, game.id, 1)
    assert stored_hands(session, game.id) == [(1, 0), (2, 1)]


def test_undoing_the_winning_hand_reopens_the_game(session):
    game = make_game(session, 2, target=50)
    record(session, game, 0, {1: 30})
    record(session, game, 0, {1: 20})
    session.expire_all()
    assert session.get(Game, game.id).finished_at is not None
    view = hands.undo_last_hand(session, game.id, 2)
    assert view.state.winner is None
    assert scores(view) == [30, 0]
    session.expire_all()
    assert session.get(Game, game.id).finished_at is None
    playing, finished = games.list_games(session)
    assert [v.game.id for v in playing] == [game.id]
    assert finished == []


def test_undoing_a_hand_that_does_not_exist_is_not_found(session):
    game = make_game(session, 2)
    with pytest.raises(NotFound):
        hands.undo_last_hand(session, game.id, 1)


def test_the_last_card_played_counts_against_the_deck_when_recording_and_editing(session):
    game = make_game(session, 3)
    four = {1: ["wild4", "wild4"], 2: ["wild4", "wild4"]}
    with_pile = hands.HandEntry(0, entry(0, four).counts, "wild4")
    with pytest.raises(scoring.Rejected) as refused:
        hands.record_hand(session, game.id, 1, with_pile)
    assert {problem.deck.kind for problem in refused.value.problems if problem.deck} == {
        "Wild Draw Fours"
    }
    assert stored_hands(session, game.id) == []
    # Without the last card named the same hand fits; naming it in an edit is refused too.
    record(session, game.id, 0, four)
    with pytest.raises(scoring.Rejected):
        hands.edit_hand(session, game.id, 1, with_pile)
    assert games.load_game(session, game.id).hands[0].last_card is None


def stored_hand(went_out: int, counts: dict, last_card: str | None = None) -> StoredHand:
    facts = scoring.Hand(went_out, entry(went_out, counts).counts, last_card)
    return StoredHand(7, facts, last_card)


@pytest.mark.parametrize(
    ("sent", "same"),
    [
        (hands.HandEntry(0, entry(0, {1: 12, 2: ["7", "skip"]}).counts, "draw2"), True),
        (hands.HandEntry(0, entry(0, {1: 12, 2: ["7", "skip"]}).counts, "blank"), False),
        (hands.HandEntry(0, entry(0, {1: 12, 2: ["7", "skip"]}).counts, "wild4"), False),
        (hands.HandEntry(0, entry(0, {1: 12, 2: ["7", "skip"]}).counts), False),
        (hands.HandEntry(1, entry(1, {0: 12, 2: ["7", "skip"]}).counts, "draw2"), False),
        (hands.HandEntry(0, entry(0, {1: 13, 2: ["7", "skip"]}).counts, "draw2"), False),
        # The same points, as a typed total rather than the cards: another hand as stored.
        (hands.HandEntry(0, entry(0, {1: 12, 2: 27}).counts, "draw2"), False),
        (hands.HandEntry(0, entry(0, {1: 12}).counts, "draw2"), False),
    ],
)
def test_a_hand_sent_again_is_the_same_only_as_it_would_be_stored(sent, same):
    assert hands.same_hand(stored_hand(0, {1: 12, 2: ["7", "skip"]}, "draw2"), sent) is same


def test_an_unknown_last_card_sent_matches_a_hand_stored_without_one():
    stored = stored_hand(2, {0: 5, 1: ["wild"]})
    assert hands.same_hand(stored, hands.HandEntry(2, entry(2, {0: 5, 1: ["wild"]}).counts, "x"))
    assert hands.same_hand(stored, hands.HandEntry(2, entry(2, {0: 5, 1: ["wild"]}).counts))
