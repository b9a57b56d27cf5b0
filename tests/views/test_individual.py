"""The page of an individual game: the head-to-head table, hands left, the end after 12 hands."""

from document import parse


def others(went_out: int, points: int = 1) -> dict[int, int]:
    return {seat: points for seat in range(4) if seat != went_out}


def head_to_head(page) -> list[list[str]]:
    return [
        [cell.text for cell in row.find_all() if cell.tag in ("th", "td")]
        for row in page.find(class_="head-to-head").find("tbody").find_all("tr")
    ]


def test_the_scoreboard_tabulates_head_to_head_points_and_hands_won(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"], mode="individual")
    play(game_id, 2, {0: ["wild"], 1: ["3"], 3: 0})
    play(game_id, 0, {1: 4, 2: 10, 3: ["skip"]})
    page = parse(client.get(f"/games/{game_id}"))
    assert "Individual · 12 hands" in page.find("h1").text
    assert head_to_head(page) == [
        ["Ann", "·", "4", "10", "20", "1"],
        ["Bob", "0", "·", "0", "0", "0"],
        ["Cat", "50", "3", "·", "0", "1"],
        ["Dan", "0", "0", "0", "·", "0"],
    ]
    # The hands left are said once, above the rows; each row says what ranks it, its hands won.
    assert " ".join(page.find(class_="hands-left").text.split()) == "· 10 hands left"
    meta = [
        " ".join(side.find(class_="side-meta").text.split())
        for side in page.find_all("li", class_="side")
    ]
    assert meta == [
        "1 hand won · points decide",
        "1 hand won · points decide",
        "0 hands won · level",
        "0 hands won · level",
    ]
    assert all("ranks" in side.find(class_="won")["class"] for side in page.select("li.side"))
    # Hands won rank before points: Cat (1 hand, 53) and Ann (1 hand, 34) lead Bob and Dan.
    names = [side.find(class_="player").text for side in page.find_all("li", class_="side")]
    assert names[:2] == ["Cat", "Ann"]


def test_the_final_board_says_why_each_row_stands_where_it_does(client, new_game, play):
    # Ann wins 3 hands with few points; Cat wins 2 with many: hands won decide, and say so.
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"], mode="individual")
    for went_out, points in [(0, 1)] * 3 + [(2, 30)] * 2 + [(1, 1)] * 2 + [(3, 1)] * 5:
        play(game_id, went_out, others(went_out, points))
    page = parse(client.get(f"/games/{game_id}"))
    lines = [
        (side.find(class_="player").text, " ".join(side.find(class_="side-meta").text.split()))
        for side in page.select("li.side")
    ]
    assert lines == [
        ("Dan", "winner · 5 hands won"),
        ("Ann", "3 hands won"),
        ("Cat", "2 hands won · points decide"),
        ("Bob", "2 hands won · points decide"),
    ]
    assert page.find(class_="hands-left") is None


def test_after_twelve_hands_the_game_is_over_and_names_its_winner(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"], mode="individual")
    for went_out in [1, 1, 1, 1, 0, 0, 0, 2, 2, 2, 3, 3]:
        play(game_id, went_out, others(went_out))
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(id="result-title").text == "🏆 Bob wins with 12!"
    assert page.find("form", id="hand-form") is None
    assert "finished after 12 hands" in page.find("h1").text


def test_other_modes_have_no_head_to_head_table(client, new_game):
    page = parse(client.get(f"/games/{new_game(['Ann', 'Bob', 'Cat', 'Dan'], mode='partners')}"))
    assert page.find(class_="head-to-head") is None
    assert "Partners to 500" in page.find("h1").text


def test_the_home_page_lists_individual_games_by_length_and_a_shared_win(client, new_game, play):
    shared = new_game(["Ann", "Bob", "Cat", "Dan"], mode="individual")
    for went_out in [0, 1] * 4 + [2, 2, 3, 3]:
        play(shared, went_out, others(went_out))
    playing = new_game(["Eve", "Fay", "Gus", "Hal"], mode="individual")
    play(playing, 1, others(1, 5))
    page = parse(client.get("/"))
    links = {
        link.find(class_="game-names").text: link.find(class_="game-meta").text
        for link in page.find_all("a", class_="game-link")
    }
    assert links["Eve, Fay, Gus, Hal"].startswith("Individual · 12 hands · hand 2 · Fay leads")
    finished = links["Ann and Bob shared the win"]
    assert finished.startswith("Individual · 12 hands · Ann, Bob, Cat, Dan finished ")


def test_the_chart_of_a_game_of_fixed_length_draws_no_target(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"], mode="individual")
    play(game_id, 1, others(1, 5))
    chart = client.get(f"/games/{game_id}/chart.svg").get_data(as_text=True)
    assert "Bob" in chart and "Target" not in chart
    page = parse(client.get(f"/games/{game_id}"))
    assert "target" not in page.find(id="chart").find("img").attrs["alt"]
