"""Errors services raise for the view to turn into a status and a message."""

from __future__ import annotations


class ServiceError(Exception):
    """A request that cannot be carried out; `message` is meant for the person at the table."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    """No such game or hand."""


class Conflict(ServiceError):
    """The game moved on since the page was loaded: a hand already recorded, or the game over."""
