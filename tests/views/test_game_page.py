"""The game page: scoreboard, whose deal it is, the hands so far, the result and the rematch."""

from document import HTMX, parse

from scorer.extensions import db
from scorer.services import games


def standings(page) -> list[tuple[str, str]]:
    """(names, score) of each side, best first, as the scoreboard lists them."""
    return [
        (side.find(class_="side-names").text, side.find(class_="score").text.removeprefix("score "))
        for side in page.find(class_="standings").find_all("li")
    ]


def test_a_new_game_shows_everyone_at_zero_and_who_deals(client, new_game):
    game_id = new_game(["Ann", "Bob", "Cat"], target=300, first_dealer=1)
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    page = parse(response)
    assert "Standard to 300" in page.find("h1").text
    assert [name for name, _ in standings(page)] == ["Ann", "Bob deals", "Cat"]
    assert [score for _, score in standings(page)] == ["0", "0", "0"]
    assert page.find(class_="deal-line").text == "Bob deals hand 1."
    assert page.find("form", id="hand-form") is not None
    assert page.value("number") == "1"
    assert "No hands yet" in page.find(class_="history").text


def test_the_scoreboard_ranks_by_score_and_the_deal_moves_on(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 0, {1: ["3", "skip"], 2: ["wild"]})  # Ann 73
    play(game_id, 2, {0: ["9"], 1: ["draw2", "wild4", "7"]})  # Cat 86
    page = parse(client.get(f"/games/{game_id}"))
    # Ann dealt hand 1, Bob hand 2: Cat deals hand 3.
    assert standings(page) == [("Cat deals", "86"), ("Ann", "73"), ("Bob", "0")]
    assert page.find(class_="deal-line").text == "Cat deals hand 3."
    assert page.value("number") == "3"
    history = [item.find(class_="hand-head").text for item in page.find_all("li", class_="hand")]
    assert history == ["Hand 2 Cat went out, +86", "Hand 1 Ann went out, +73"]
    counts = [item.find(class_="hand-counts").text for item in page.find_all("li", class_="hand")]
    assert counts == ["Ann 9 · Bob 77 · Bob dealt", "Bob 23 · Cat 50 · Ann dealt"]


def test_only_the_last_hand_offers_undo(client, new_game, play):
    game_id = new_game(2)
    play(game_id, 0, {1: 10})
    play(game_id, 1, {0: 10})
    page = parse(client.get(f"/games/{game_id}"))
    links = [node.attrs["href"] for node in page.find(class_="history").find_all("a")]
    assert links == [
        f"/games/{game_id}/hands/2/edit",
        f"/games/{game_id}/hands/2/undo",
        f"/games/{game_id}/hands/1/edit",
    ]


def test_reaching_the_target_exactly_ends_the_game_with_its_winner(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"], target=100)
    play(game_id, 1, {0: 40, 2: 20})
    play(game_id, 1, {0: ["5", "5"], 2: ["20", "0"]})  # Bob 60 + 30 = 90
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(class_="result") is None
    play(game_id, 1, {0: ["4"], 2: ["6"]})  # 90 + 10 = 100: exactly the target
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(id="result-title").text == "🏆 Bob wins with 100!"
    assert page.find("li", class_="is-winner").find(class_="side-names").text == "Bob"
    assert "finished after 3 hands" in page.find("h1").text
    # No pad for a finished game, and no dealer for a hand that will not be dealt.
    assert page.find("form", id="hand-form") is None
    assert page.find(class_="deal-line") is None
    assert page.find("form", action=f"/games/{game_id}/rematch") is not None


def test_partners_show_the_team_that_won(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"], mode="partners", target=50)
    play(game_id, 2, {1: 30, 3: 25})  # Cat goes out for Ann & Cat: 55
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(id="result-title").text == "🏆 Ann & Cat win with 55!"
    assert "finished after 1 hand" in page.find("h1").text


def test_challenge_shows_who_is_out_and_the_last_one_standing(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"], mode="challenge", target=100)
    play(game_id, 0, {1: 100, 2: 10})
    page = parse(client.get(f"/games/{game_id}"))
    bob = next(li for li in page.find_all("li", class_="side") if "Bob" in li.text)
    assert "is-eliminated" in bob.attrs["class"]
    assert "out in hand 1" in bob.find(class_="side-meta").text
    # Bob sits out: he cannot be chosen as the one who went out.
    went_out = [node.attrs["value"] for node in page.find_all("input", name="went_out")]
    assert went_out == ["0", "2"]
    play(game_id, 2, {0: 100})
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(id="result-title").text == "🏆 Cat wins!"


def test_rematch_starts_a_new_game_dealt_by_the_next_dealer(client, app, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"], target=50, first_dealer=2)
    play(game_id, 0, {1: 10, 2: 10})  # Cat dealt
    play(game_id, 0, {1: 15, 2: 15})  # Ann dealt; Ann 50 wins; Bob would deal next
    page = parse(client.get(f"/games/{game_id}"))
    assert "Bob deals first in a rematch." in page.find(class_="result").text

    response = client.post(f"/games/{game_id}/rematch")
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert new_id != game_id
    with app.app_context():
        view = games.load_game(db.session, new_id)
        assert view.names == ("Ann", "Bob", "Cat")
        assert (view.game.mode, view.game.target, view.game.first_dealer) == ("standard", 50, 1)
        assert view.state.hands == ()
    page = parse(client.get(response.headers["Location"]))
    assert page.find(class_="deal-line").text == "Bob deals hand 1."


def test_rematch_from_htmx_redirects_on_the_client(client, new_game, play):
    game_id = new_game(2, target=10)
    play(game_id, 1, {0: 10})
    response = client.post(f"/games/{game_id}/rematch", headers=HTMX)
    assert response.status_code == 200
    assert response.headers["HX-Redirect"].startswith("/games/")
    assert response.headers["HX-Redirect"] != f"/games/{game_id}"


def test_an_unknown_game_is_a_friendly_404(client):
    response = client.get("/games/9999")
    assert response.status_code == 404
    assert parse(response).find("h1").text == "There is no such game."
    assert client.post("/games/9999/hands", data={"action": "save"}).status_code == 404
    assert client.post("/games/9999/rematch").status_code == 404


def play_rounds(play, game_id: int, hands: int, players: int = 4) -> None:
    for number in range(hands):
        went_out = number % players
        counts = {seat: number % 9 + 1 for seat in range(players) if seat != went_out}
        play(game_id, went_out, counts)


def hand_titles(section) -> list[str]:
    return [item.find("strong").text for item in section.find_all("li", class_="hand")]


def test_the_game_page_lists_the_latest_hands_and_links_to_every_one(client, app, new_game, play):
    recent = app.config["RECENT_HANDS"]
    game_id = new_game(4, target=100_000)
    play_rounds(play, game_id, recent)
    history = parse(client.get(f"/games/{game_id}")).by_id("history")
    assert len(hand_titles(history)) == recent
    assert history.find(class_="more") is None

    play_rounds(play, game_id, 5)
    history = parse(client.get(f"/games/{game_id}")).by_id("history")
    assert hand_titles(history) == [f"Hand {n}" for n in range(recent + 5, 5, -1)]
    assert history.find("h2").text == "Latest hands"
    more = history.find(class_="more").find("a")
    assert more.text == f"All {recent + 5} hands"

    every = parse(client.get(more.attrs["href"]))
    assert hand_titles(every.by_id("history")) == [f"Hand {n}" for n in range(recent + 5, 0, -1)]
    links = [node.attrs["href"] for node in every.by_id("history").find_all("a")]
    # Every hand can be edited from here; only the last one undone.
    assert f"/games/{game_id}/hands/1/edit" in links
    assert [link for link in links if link.endswith("/undo")] == [
        f"/games/{game_id}/hands/{recent + 5}/undo"
    ]
    rows = every.by_id("scores").find("tbody").find_all("tr")
    assert len(rows) == recent + 5


def test_the_hands_page_of_an_unknown_game_is_404(client):
    assert client.get("/games/999/hands").status_code == 404


def test_the_game_page_runs_the_same_queries_for_3_hands_as_for_60(
    client, new_game, play, count_queries
):
    def queries_for(hands: int) -> int:
        game_id = new_game(4)
        for number in range(hands):
            went_out = number % 4
            play(game_id, went_out, {seat: 1 for seat in range(4) if seat != went_out})
        client.get(f"/games/{game_id}")  # anything cached on first use is cached now
        with count_queries() as statements:
            response = client.get(f"/games/{game_id}")
        assert response.status_code == 200
        # Hand 60 was played and hand 61 is next: the page shows the whole game.
        assert f"Record hand {hands + 1}" in parse(response).find(class_="pad-title").text
        return len(statements)

    few, many = queries_for(3), queries_for(60)
    assert few == many
    assert few > 0


def test_rematch_of_a_game_still_being_played_is_refused(client, new_game, app):
    game_id = new_game(["Ann", "Bob"])
    response = client.post(f"/games/{game_id}/rematch")
    assert response.status_code == 409
    assert "still being played" in response.get_data(as_text=True)
    with app.app_context():
        assert [view.game.id for view in games.list_games(db.session)[0]] == [game_id]


def test_a_game_id_beyond_any_database_integer_is_simply_not_found(client):
    response = client.get("/games/1000000000000")
    assert response.status_code == 404
    # No address holds such an id: the page for an address of nothing.
    assert "no such page" in response.get_data(as_text=True)


def test_each_side_has_a_place_for_hands_waiting_to_be_sent(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"], mode="partners")
    play(game_id, 1, {0: 12, 2: 3})
    page = parse(client.get(f"/games/{game_id}"))
    sides = page.find(class_="standings").find_all("li")
    # Best first: Bob & Dan's side (index 1) leads.
    assert [side.attrs["data-side"] for side in sides] == ["1", "0"]
    for side in sides:
        waiting = side.find("span", class_="waiting")
        assert "data-waiting" in waiting.attrs and "hidden" in waiting.attrs
        assert waiting.text == ""


def test_the_dealer_badge_follows_a_partners_team_and_names_the_dealer(client, new_game):
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"], mode="partners")
    page = parse(client.get(f"/games/{game_id}"))
    team = page.find("li", class_="side", data_side="0").find(class_="side-names")
    # The team's name reads whole; the badge comes after it and says who deals.
    assert " ".join(team.text.split()) == "Ann & Cat Ann deals"
    assert team.find_all()[-1]["class"] == "dealer-mark"
