"""Games already replayed, kept in memory by game and version, so a page need not replay them again.

A game's page, a save and every phone's poll after a change replay the same hands at the same
version. What a replay gives depends only on the game's rules, which never change, and its hands,
which change only together with its version (services.games.mark_changed, in the same transaction):
so (game id, version) names one replay for good, and an entry is never stale. Entries come only
from reads that saw the version and the hands in one statement, or from a change once committed.
The key holds the game's creation time too, so that a database emptied and restored from another
backup under a running server cannot match a game of the old one.

One cache per database engine, so two apps (or two test databases) never share entries; each
server process has its own.
"""

from __future__ import annotations

import threading
import weakref
from typing import TYPE_CHECKING

from cachetools import LRUCache
from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from ..models import Game
    from ..scoring import GameState
    from .games import StoredHand

    Replay = tuple[tuple[StoredHand, ...], GameState]

# Games in play at once on one server; a 60-hand game takes about 100 KB.
GAMES_KEPT = 256

_caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()


class _Replays:
    def __init__(self) -> None:
        self.entries: LRUCache = LRUCache(maxsize=GAMES_KEPT)
        self.lock = threading.Lock()


def _for(session: Session) -> _Replays:
    engine = session.get_bind()
    with _caches_lock:
        replays = _caches.get(engine)
        if replays is None:
            replays = _caches[engine] = _Replays()
        return replays


def get(session: Session, game: Game, version: int) -> Replay | None:
    replays = _for(session)
    with replays.lock:
        return replays.entries.get((game.id, game.created_at, version))


def put(session: Session, game: Game, version: int, replay: Replay) -> None:
    replays = _for(session)
    with replays.lock:
        replays.entries[(game.id, game.created_at, version)] = replay
