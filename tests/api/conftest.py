"""Fixtures for API tests: a client whose every answer is checked against the OpenAPI document."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import schemathesis
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorer.api.openapi import OPENAPI

SPEC = schemathesis.openapi.from_dict(OPENAPI)
Counts = Mapping[int, int | Sequence[str]]
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


class Api:
    """The test client, plus: an answer from a documented operation must match the document."""

    def __init__(self, client: FlaskClient):
        self.client = client

    def open(self, method: str, path: str, **kwargs: Any) -> TestResponse:
        response = self.client.open(path, method=method, **kwargs)
        assert response.content_type == "application/json", response.get_data(as_text=True)
        operation = SPEC.find_operation_by_path(method, path)
        if operation is not None and response.status_code != 405:
            operation.validate_response(response)
        return response

    def get(self, path: str, **kwargs: Any) -> TestResponse:
        return self.open("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> TestResponse:
        return self.open("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> TestResponse:
        return self.open("PUT", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> TestResponse:
        return self.open("DELETE", path, **kwargs)

    def start(self, players: int | Sequence[str] = 4, **fields: Any) -> dict:
        """Start a game through the API and give its document."""
        names = list(NAMES[:players] if isinstance(players, int) else players)
        response = self.post("/api/v1/games", json={"mode": "standard", "players": names, **fields})
        assert response.status_code == 201, response.json
        return response.json

    def hand(self, game: dict, went_out: int, counts: Counts, **extra: Any) -> dict:
        """Record the next hand, given by seat, and give the game document after it."""
        path = f"/api/v1/games/{game['id']}/hands"
        response = self.post(path, json=self.body(game, went_out, counts, **extra))
        assert response.status_code == 201, response.json
        return response.json

    @staticmethod
    def ids(game: dict) -> list[int]:
        """Player ids by seat."""
        return [player["id"] for player in game["players"]]

    @classmethod
    def body(cls, game: dict, went_out: int, counts: Counts, **extra: Any) -> dict:
        """A hand body from seats: counts are typed totals (int) or card names, by seat."""
        seats = cls.ids(game)
        return {
            "went_out": seats[went_out],
            "counts": {
                str(seats[seat]): (
                    {"points": value} if isinstance(value, int) else {"cards": list(value)}
                )
                for seat, value in counts.items()
            },
            **extra,
        }


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)
