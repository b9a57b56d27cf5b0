"""A stand-in for the app that answers the load test's phones without doing any work.

`load.py --stand-in` runs the phones against it, to measure what the harness itself adds to the
times it reports: locust's event loop and the machine it shares. It speaks just enough of the
app's pages for benchmarks/locustfile.py and load.py's probe phone: a game page with a CSRF token
and the next hand's number, the poll (304 while the version is current), and saving a hand.

    python benchmarks/standin.py PORT
"""

from __future__ import annotations

import re
import sys
import threading

from waitress import serve

GAME = re.compile(r"/games/(\d+)(/live|/hands)?$")
FIRST_HAND = 11
hands: dict[int, int] = {}
lock = threading.Lock()


def app(environ, start_response):
    found = GAME.match(environ["PATH_INFO"])
    if found is None:
        start_response("404 Not Found", [("Content-Length", "0")])
        return [b""]
    game, part = int(found.group(1)), found.group(2)
    with lock:
        if part == "/hands" and environ["REQUEST_METHOD"] == "POST":
            environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            hands[game] = hands.get(game, 0) + 1
        saved = hands.get(game, 0)
    number, version = FIRST_HAND + saved, saved
    tag = f'W/"game-{game}-v{version}"'
    if part == "/live" and environ.get("HTTP_IF_NONE_MATCH") == tag:
        start_response("304 Not Modified", [("ETag", tag)])
        return [b""]
    body = (
        f'<body hx-headers=\'{{"X-CSRFToken": "token"}}\'><div data-version="{version}">'
        f'<input type="hidden" name="number" value="{number}">Record hand {number}</div>'
    ).encode()
    headers = [("Content-Type", "text/html"), ("Content-Length", str(len(body))), ("ETag", tag)]
    start_response("200 OK", headers)
    return [body]


if __name__ == "__main__":
    serve(
        app,
        host="127.0.0.1",
        port=int(sys.argv[1]),
        threads=4,
        connection_limit=1000,
        channel_timeout=30,
        _quiet=True,
    )
