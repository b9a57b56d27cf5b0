"""Locust phones for benchmarks/load.py: each keeps one game's page open and scores on it.

A phone opens its game's page (for the session cookie and the CSRF token htmx sends), then every
BENCH_POLL_SECONDS asks whether the game changed (the page's poll, with its If-None-Match), and
every BENCH_RECORD_SECONDS saves the next hand as the tally pad does (an htmx POST). Phones that
share a game take turns, BENCH_RECORD_SECONDS / phones-per-game apart, so two never save the same
hand at once; a conflict would still be counted as a failure.

Settings come from the environment (load.py sets them): BENCH_GAMES (game ids, comma separated),
BENCH_PHONES_PER_GAME, BENCH_PLAYERS, BENCH_POLL_SECONDS, BENCH_RECORD_SECONDS, BENCH_COUNTS (a
file for the poll and save tallies).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import time
from collections import Counter

from locust import FastHttpUser, constant_pacing, events, task

GAMES = [int(game) for game in os.environ.get("BENCH_GAMES", "1").split(",")]
PHONES_PER_GAME = int(os.environ.get("BENCH_PHONES_PER_GAME", "1"))
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "4"))
POLL_SECONDS = float(os.environ.get("BENCH_POLL_SECONDS", "3"))
RECORD_SECONDS = float(os.environ.get("BENCH_RECORD_SECONDS", "30"))
ACCEPT = {"Accept-Encoding": "gzip, deflate"}
HTMX = {**ACCEPT, "HX-Request": "true"}
NUMBER = re.compile(r'<input[^>]*name="number"[^>]*value="(\d+)"')
START = time.monotonic()
_phones = itertools.count()
tallies: Counter[str] = Counter()


class Phone(FastHttpUser):
    wait_time = constant_pacing(POLL_SECONDS)

    def on_start(self) -> None:
        phone = next(_phones)
        self.game = GAMES[phone % len(GAMES)]
        turn = (phone // len(GAMES)) % PHONES_PER_GAME
        # Games start their rounds at different moments; a game's phones take turns in a round.
        spread = RECORD_SECONDS / PHONES_PER_GAME
        self.next_save = START + (self.game * 7.919) % spread + turn * spread
        self.csrf_token = ""
        self.tag = ""
        self.number = 0
        with self.client.get(
            f"/games/{self.game}", headers=ACCEPT, name="game page", catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            token = re.search(r'"X-CSRFToken": "([^"]+)"', response.text or "")
            if not token:
                response.failure("no CSRF token on the page")
                return
            self.csrf_token = token.group(1)
            self._follow(response.text)

    def _follow(self, text: str) -> None:
        """Take the hand number and game version from a page, a saved hand or a poll's parts."""
        number = NUMBER.search(text)
        if number:
            self.number = int(number.group(1))
        version = re.search(r'data-version="(\d+)"', text)
        if version:
            self.tag = f'W/"game-{self.game}-v{version.group(1)}"'

    @task
    def keep_score(self) -> None:
        self.poll()
        if time.monotonic() >= self.next_save:
            self.next_save += RECORD_SECONDS
            self.save()

    def poll(self) -> None:
        headers = {**HTMX, "If-None-Match": self.tag} if self.tag else HTMX
        with self.client.get(
            f"/games/{self.game}/live", headers=headers, name="poll", catch_response=True
        ) as response:
            if response.status_code == 304:
                tallies["poll 304"] += 1
                response.success()
            elif response.status_code == 200:
                tallies["poll 200"] += 1
                self._follow(response.text or "")
            else:
                response.failure(f"status {response.status_code}")

    def save(self) -> None:
        number = self.number
        went_out = (number * 3 + 1) % PLAYERS
        form = {"number": str(number), "went_out": str(went_out), "action": "save"}
        for seat in range(PLAYERS):
            if seat != went_out:
                form[f"counts-{seat}-points"] = str(5 + (seat + number) % 20)
        headers = {**HTMX, "X-CSRFToken": self.csrf_token}
        with self.client.post(
            f"/games/{self.game}/hands",
            data=form,
            headers=headers,
            name="record hand",
            catch_response=True,
        ) as response:
            text = response.text or ""
            if response.status_code == 200 and f"Record hand {number + 1}" in text:
                tallies["saved"] += 1
                self._follow(text)
            else:
                tallies[f"save refused {response.status_code}"] += 1
                response.failure(f"status {response.status_code} for hand {number}")
                self._follow(text)


@events.quitting.add_listener
def _write_tallies(environment, **_kwargs) -> None:
    path = os.environ.get("BENCH_COUNTS")
    if path:
        with open(path, "w") as file:
            json.dump(dict(tallies), file)
