"""The speed budgets that hold without a stopwatch: queries per page and the size of responses.

Timings live in benchmarks/ (a slow machine must not fail CI); what is checked here is what makes
them: a page runs the same queries however much data there is, and what a phone downloads stays
small. Sizes are measured as the phone gets them over plain HTTP: gzip, and for the first visit
(with its precompressed static files) Brotli, which Chrome asks for over plain HTTP too.
"""

from __future__ import annotations

import gzip
import json
import re

from document import HTMX, parse

PLAYERS = 4
# Hands in a long game: most games to 500 end within 10 to 25 hands. (The benchmarks' latency game
# has 60; BENCHMARKS.md gives the sizes there too.)
LONG_GAME = 40
RESPONSE_BUDGET = 4 * 1024
# Offline support included, and the page's script in modules with every word it shows sent by
# the server.
FIRST_VISIT_BUDGET = 40_000
# What the real server adds to each response that the test client does not see ("Server: waitress"
# and the blank line ending the headers), as benchmarks/page_weight.py measured it; and a Date
# header where the app sent none.
SERVER_BYTES = 20
DATE = ("Date", "Tue, 01 Dec 2026 04:29:12 GMT")
GZIP = {"Accept-Encoding": "gzip"}
# What Chromium 156 asks for, over plain HTTP too (checked on a LAN address): Brotli first.
CHROME = {"Accept-Encoding": "gzip, deflate, br, zstd"}
OUR_SCRIPTS = ("/static/vendor/htmx-2.0.", "/static/js/app.js")


def play_hands(play, game_id: int, hands: int, players: int = PLAYERS) -> None:
    """Record `hands` more hands: each player goes out in turn; the others' totals vary as real
    ones do (repeated numbers would compress better than any real game)."""
    for number in range(hands):
        went_out = number % players
        play(
            game_id,
            went_out,
            {
                seat: (number * 7 + seat * 13) % 45 + 2
                if seat % 2
                else ["5", "9", "20"][: 1 + seat // 2]
                for seat in range(players)
                if seat != went_out
            },
        )


def queries_for(client, count_queries, path: str, **headers) -> int:
    client.get(path, headers=headers)  # anything cached on first use is cached now
    with count_queries() as statements:
        response = client.get(path, headers=headers)
    assert response.status_code == 200
    return len(statements)


def size_on_the_wire(response) -> int:
    """The body as sent when the server compressed it, else as gzip would send it."""
    data = response.get_data()
    if response.headers.get("Content-Encoding"):
        return len(data)
    return len(gzip.compress(data))


def headers_size(response) -> int:
    return sum(len(name) + len(value) + 4 for name, value in response.headers.items()) + 17


def test_the_game_page_runs_the_same_queries_however_much_data_there_is(
    client, new_game, play, count_queries
):
    game_id = new_game(PLAYERS, target=100_000)
    play_hands(play, game_id, 2)
    few = queries_for(client, count_queries, f"/games/{game_id}")

    play_hands(play, game_id, 30)
    for players in (2, 3, 4, 5):
        play_hands(play, new_game(players, target=100_000), 6, players)
    many = queries_for(client, count_queries, f"/games/{game_id}")
    assert many == few > 0


def test_the_poll_runs_the_same_queries_for_a_short_game_and_a_long_one(
    client, new_game, play, count_queries
):
    game_id = new_game(PLAYERS, target=100_000)
    play_hands(play, game_id, 2)
    stale = {**HTMX, "If-None-Match": f'W/"game-{game_id}-v0"'}
    few = queries_for(client, count_queries, f"/games/{game_id}/live", **stale)
    play_hands(play, game_id, 30)
    new_game(3)
    assert queries_for(client, count_queries, f"/games/{game_id}/live", **stale) == few


def test_the_home_page_runs_the_same_queries_for_few_games_and_many(
    client, new_game, play, count_queries
):
    def finished_game() -> None:
        play(new_game(["Ann", "Bob"], target=50), 0, {1: 60})

    play_hands(play, new_game(PLAYERS), 1)
    finished_game()
    few = queries_for(client, count_queries, "/")

    for players in (2, 3, 4, 5):
        play_hands(play, new_game(players, target=100_000), 5, players)
    for _ in range(3):
        finished_game()
    page = client.get("/")
    assert page.get_data(as_text=True).count("Resume") == 5
    assert queries_for(client, count_queries, "/") == few


def test_saving_a_hand_answers_htmx_with_at_most_4_kb(client, new_game, play):
    game_id = new_game(PLAYERS, target=100_000)
    play_hands(play, game_id, LONG_GAME - 1)
    form = {
        "number": str(LONG_GAME),
        "went_out": "1",
        "action": "save",
        **{f"counts-{seat}-points": "12" for seat in (0, 2, 3)},
    }
    response = client.post(f"/games/{game_id}/hands", data=form, headers={**HTMX, **GZIP})
    assert response.status_code == 200
    text = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        text = gzip.decompress(text)
    assert f"Record hand {LONG_GAME + 1}".encode() in text
    assert b"<html" not in text  # the game fragment, not the page
    assert size_on_the_wire(response) <= RESPONSE_BUDGET


def test_a_save_reads_the_hands_at_most_once_and_answers_the_same_size_at_hand_12_and_60(
    client, new_game, play, count_queries
):
    """The view reads the game to check the entry; the save reuses that read under the game's lock
    when nothing changed meanwhile, and the answer lists only the latest hands."""

    def save(hands: int) -> tuple[list[str], int]:
        game_id = new_game(PLAYERS, target=100_000)
        play_hands(play, game_id, hands - 1)
        form = {"number": str(hands), "went_out": "1", "action": "save"}
        form.update({f"counts-{seat}-points": "12" for seat in (0, 2, 3)})
        with count_queries() as statements:
            response = client.post(f"/games/{game_id}/hands", data=form, headers=HTMX)
        assert response.status_code == 200
        return statements, len(response.get_data())

    short_queries, short_size = save(12)
    long_queries, long_size = save(60)
    reads_of_hands = [query for query in long_queries if query.lstrip().startswith("SELECT")]
    reads_of_hands = [query for query in reads_of_hands if "hand_counts" in query]
    # None when this server process replayed the game at this version before (services.snapshots).
    assert len(reads_of_hands) <= 1, long_queries
    assert len(long_queries) == len(short_queries)
    # The same ten hands listed; only the numbers in them are longer.
    assert long_size < short_size * 1.05


def test_saving_a_hand_asks_the_phone_for_nothing_more(client, new_game, play):
    """One request per interaction: what the saved game shows must already be on the phone."""
    game_id = new_game(PLAYERS, target=100_000)
    play_hands(play, game_id, 3)
    before = fetched_by(parse(client.get(f"/games/{game_id}")))
    form = {"number": "4", "went_out": "1", "action": "save"}
    form.update({f"counts-{seat}-points": "12" for seat in (0, 2, 3)})
    response = client.post(f"/games/{game_id}/hands", data=form, headers=HTMX)
    assert response.status_code == 200
    assert fetched_by(parse(response)) - before == set()


def fetched_by(page) -> set[str]:
    """What a browser downloads for this markup: images, stylesheets, scripts, objects.

    Not a lazy image in a closed <details>: it is not rendered, so it is fetched only once opened.
    """
    urls = {node.attrs.get("src") for node in eager_images(page)}
    urls |= {node.attrs.get("src") for node in page.find_all("script")}
    urls |= {node.attrs.get("data") for node in page.find_all("object")}
    urls |= {
        node.attrs.get("href")
        for node in page.find_all("link")
        if node.attrs.get("rel") in ("stylesheet", "icon")
    }
    return urls - {None}


def test_a_poll_that_finds_a_change_sends_at_most_4_kb(client, new_game, play):
    game_id = new_game(PLAYERS, target=100_000)
    play_hands(play, game_id, LONG_GAME)
    response = client.get(
        f"/games/{game_id}/live",
        headers={**HTMX, **GZIP, "If-None-Match": f'W/"game-{game_id}-v0"'},
    )
    assert response.status_code == 200
    assert size_on_the_wire(response) <= RESPONSE_BUDGET


def test_a_first_visit_to_a_game_downloads_at_most_40_kb_with_htmx_the_only_library(
    client, new_game, play
):
    game_id = new_game(PLAYERS)
    play_hands(play, game_id, 8)
    total, _urls = first_visit(client, game_id)
    assert total <= FIRST_VISIT_BUDGET


def first_visit(client, game_id: int) -> tuple[int, list[str]]:
    """What a first visit to the game page downloads, as sent, and the addresses it fetches."""
    page_response = client.get(f"/games/{game_id}", headers=CHROME)
    total = size_on_the_wire(page_response) + headers_size(page_response)
    page = parse(client.get(f"/games/{game_id}"))
    scripts = [node.attrs["src"] for node in page.find_all("script")]
    assert all(src.startswith(OUR_SCRIPTS) for src in scripts), scripts
    links = [
        node.attrs["href"]
        for node in page.find_all("link")
        if node.attrs.get("rel") in ("stylesheet", "icon")
    ]
    worker = page.find("html").attrs.get("data-service-worker")
    urls = [*scripts, *links, *([worker] if worker else [])]
    if worker:
        # As benchmarks/page_weight.py counts: the worker's own fetches too, when it installs.
        # What the page already fetched comes from the browser's cache.
        urls += [url for url in installed_by(client.get(worker)) if url not in urls]
        assert "/offline" in urls
    for url in urls:
        with client.get(url, headers=CHROME) as response:
            assert response.status_code == 200, url
            total += size_on_the_wire(response) + headers_size(response)
            if "Date" not in response.headers:
                total += len(DATE[0]) + len(DATE[1]) + 4
    return total + SERVER_BYTES * (1 + len(urls)), [f"/games/{game_id}", *urls]


def installed_by(worker) -> list[str]:
    """What the service worker fetches when it installs: the offline page and the assets."""
    script = worker.get_data(as_text=True)
    offline = re.search(r'const OFFLINE=("[^"]+");', script)
    assets = re.search(r"const ASSETS=(\[[^\]]*\]);", script)
    assert offline and assets, script
    return [json.loads(offline.group(1)), *json.loads(assets.group(1))]


def eager_images(node, hidden: bool = False):
    """The <img> elements a browser fetches on load (see fetched_by)."""
    if node.tag == "img" and not (hidden and node.attrs.get("loading") == "lazy"):
        yield node
    hidden = hidden or (node.tag == "details" and "open" not in node.attrs)
    for child in node.children:
        if not isinstance(child, str):
            yield from eager_images(child, hidden)


def test_the_chart_is_fetched_only_when_opened_and_then_kept(client, new_game, play):
    game_id = new_game(PLAYERS, target=100_000)
    play_hands(play, game_id, 3)
    page = parse(client.get(f"/games/{game_id}"))
    image = page.by_id("chart").find("img")
    assert image.attrs["loading"] == "lazy"
    assert image not in list(eager_images(page))
    versioned = client.get(image.attrs["src"])
    assert versioned.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get(f"/games/{game_id}/chart.svg").headers["Cache-Control"] == "no-cache"
    stale = client.get(f"/games/{game_id}/chart.svg?v=1&lang=en")
    assert stale.headers["Cache-Control"] == "no-cache"
    # The picture holds words: one asked for in another language than the reader's is not kept.
    other = client.get(image.attrs["src"].replace("lang=en", "lang=de"))
    assert other.headers["Cache-Control"] == "no-cache"


def test_a_kept_chart_names_its_language(client, new_game, play):
    """The chart holds words ("Hand", "Target"): a phone keeps it under an address naming the
    language it is in, and an address in another language than the reader's is not kept."""
    game_id = new_game(PLAYERS, target=100_000)
    play_hands(play, game_id, 3)
    german = {"Accept-Language": "de"}
    source = parse(client.get(f"/games/{game_id}", headers=german)).by_id("chart").find("img")
    assert "lang=de" in source.attrs["src"]
    kept = client.get(source.attrs["src"], headers=german)
    assert kept.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert client.get(source.attrs["src"]).headers["Cache-Control"] == "no-cache"
