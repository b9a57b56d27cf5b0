"""Each player's totals per period (period_totals), kept in step with the stored results.

The standings read a page of these rows through an index in the order asked for, instead of
summing every result of the period for each request. They are derived from game_results alone,
so they are written wherever results are, in the same transaction, by the services that change
results: a game's results rewritten (its players' rows for the periods it finished in, before and
after), ratings computed again from a game on (every row whose last game is at or after it), a
player merged or renamed, or everything derived again. `rebuild` derives every row from scratch,
and is what the others must always agree with.

Each result is also kept with its player's name key and rating (result_ranks), and the nearest
finishes of the player's later results, kept in step by the same calls: a range of days that is
no kept period is ranked by rating or name from it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Float,
    Integer,
    and_,
    case,
    cast,
    delete,
    extract,
    func,
    insert,
    null,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.orm import InstrumentedAttribute, aliased
from sqlalchemy.sql.elements import ColumnElement

from ..database import DbSession
from ..models import GameResult, PeriodTotal, Player, ResultRank
from ..scoring import periods

# The result a row's rating is read from. Made once: an alias proxies every column of the table,
# which took a third of a finishing hand's time when made for each statement.
_RATED = aliased(GameResult, name="rated")
_LATEST = aliased(GameResult, name="latest")


def rebuild(session: DbSession) -> None:
    """Throw every row away and derive them all again from the stored results; the caller
    commits."""
    session.execute(delete(PeriodTotal))
    for kind in periods.KINDS:
        _fill(session, kind)
    session.execute(delete(ResultRank))
    _fill_ranks(session)


def games_changed(
    session: DbSession,
    player_ids: Collection[int],
    moments: Iterable[datetime],
    seqs: Iterable[int] = (),
) -> None:
    """Derive again the rows of `player_ids` for the periods of games finished at `moments`:
    after a game's results were written, rewritten or removed (`moments` when it finished, before
    and after, `seqs` its seq before and after; without them, every earlier result of the
    players' is looked at again). Ratings come from the results as they stand: `rerated_from`
    follows a re-rating.
    """
    changed = sorted(set(moments))
    keys = {key for moment in changed for key in periods.keys_of(moment)}
    if not player_ids or not keys:
        return
    ids = sorted(set(player_ids))
    session.execute(
        delete(PeriodTotal).where(PeriodTotal.player_id.in_(ids), PeriodTotal.period.in_(keys))
    )
    for kind in periods.KINDS:
        spans = [periods.bounds(key) for key in keys if periods.kind(key) == kind]
        if spans:
            _fill(session, kind, ids, spans)
    # The players' results in the months of `moments`: the game's own, as they now stand.
    months = [periods.bounds(key) for key in keys if periods.kind(key) == "month"]
    session.execute(
        delete(ResultRank).where(
            ResultRank.player_id.in_(ids),
            or_(*(within(ResultRank.finished_at, start, end) for start, end in months)),
        )
    )
    _fill_ranks(session, ids, months)
    # Rows of other months hold the finishes of the players' later results too.
    _link_ranks(session, ids, changed, max(seqs, default=None), months)


def players_changed(session: DbSession, player_ids: Collection[int]) -> None:
    """Derive again every row of `player_ids`: their results moved to another player (a merge)."""
    ids = sorted(set(player_ids))
    if not ids:
        return
    session.execute(delete(PeriodTotal).where(PeriodTotal.player_id.in_(ids)))
    for kind in periods.KINDS:
        _fill(session, kind, ids)
    session.execute(delete(ResultRank).where(ResultRank.player_id.in_(ids)))
    _fill_ranks(session, ids)


def rerated_from(session: DbSession, start: int) -> None:
    """Copy the rating of each row's last game again, where that game is `start` or later: the
    results from `start` on were just rated again."""
    session.execute(
        update(PeriodTotal)
        .where(
            PeriodTotal.last_seq >= start,
            GameResult.player_id == PeriodTotal.player_id,
            GameResult.seq == PeriodTotal.last_seq,
        )
        .values(
            mu=GameResult.mu,
            sigma=GameResult.sigma,
            change=GameResult.change,
            rating=GameResult.mu - 3 * GameResult.sigma,
        )
        .execution_options(synchronize_session=False)
    )
    session.execute(
        update(ResultRank)
        .where(
            ResultRank.seq >= start,
            GameResult.player_id == ResultRank.player_id,
            GameResult.seq == ResultRank.seq,
        )
        .values(rating=GameResult.mu - 3 * GameResult.sigma)
        .execution_options(synchronize_session=False)
    )


def renamed(session: DbSession, player_id: int, name_key: str) -> None:
    """Keep a renamed player's name key on their rows, where ties are sorted by it."""
    session.execute(
        update(PeriodTotal)
        .where(PeriodTotal.player_id == player_id)
        .values(name_key=name_key)
        .execution_options(synchronize_session=False)
    )
    session.execute(
        update(ResultRank)
        .where(ResultRank.player_id == player_id)
        .values(name_key=name_key)
        .execution_options(synchronize_session=False)
    )


def _fill(
    session: DbSession,
    kind: str,
    player_ids: list[int] | None = None,
    spans: list[tuple[datetime | None, datetime | None]] | None = None,
) -> None:
    """Insert the rows of one kind of period, summed from the results (of `player_ids` only, and
    within `spans` only, when given)."""
    result = GameResult
    year = extract("year", result.finished_at)
    month = extract("month", result.finished_at)
    groups = {"all": [], "year": [year], "month": [year, month]}[kind]
    last: ColumnElement[int]
    if kind == "all":
        # A player's last game from the (player, seq) index, so that the sums are read from the
        # covering index alone: a finishing hand then costs the same after years of games.
        last = (
            select(func.max(_LATEST.seq))
            .where(_LATEST.player_id == result.player_id)
            .scalar_subquery()
        )
    else:
        last = func.max(result.seq)
    sums = select(
        result.player_id.label("player_id"),
        *(column.label(f"part_{number}") for number, column in enumerate(groups)),
        func.count().label("games"),
        func.sum(case((result.won, 1), else_=0)).label("wins"),
        func.sum(result.points_won).label("points"),
        func.sum(result.hands_won).label("hands_won"),
        last.label("last_seq"),
    ).group_by(result.player_id, *groups)
    if player_ids is not None:
        sums = sums.where(result.player_id.in_(player_ids))
    if spans:
        sums = sums.where(or_(*(finished_within(start, end) for start, end in spans)))
    totals = sums.subquery("totals")
    key: ColumnElement[int]
    if kind == "all":
        key = cast(periods.ALL_TIME, Integer)
    elif kind == "year":
        key = cast(totals.c.part_0, Integer) * 100
    else:
        key = cast(totals.c.part_0, Integer) * 100 + cast(totals.c.part_1, Integer)
    rated = _RATED
    rows = (
        select(
            key,
            totals.c.player_id,
            Player.name_key,
            totals.c.games,
            totals.c.wins,
            cast(totals.c.wins, Float) / totals.c.games,
            totals.c.points,
            totals.c.hands_won,
            totals.c.last_seq,
            rated.mu,
            rated.sigma,
            rated.change,
            rated.mu - 3 * rated.sigma,
        )
        .select_from(totals)
        .join(rated, and_(rated.player_id == totals.c.player_id, rated.seq == totals.c.last_seq))
        .join(Player, Player.id == totals.c.player_id)
    )
    columns = [
        "period",
        "player_id",
        "name_key",
        "games",
        "wins",
        "win_rate",
        "points",
        "hands_won",
        "last_seq",
        "mu",
        "sigma",
        "change",
        "rating",
    ]
    session.execute(insert(PeriodTotal).from_select(columns, rows))


def _fill_ranks(
    session: DbSession,
    player_ids: list[int] | None = None,
    spans: list[tuple[datetime | None, datetime | None]] | None = None,
) -> None:
    """Insert each result's rank row (of `player_ids` only, within `spans` only, when given).

    Rows within `spans` are inserted without their later finishes: `_link_ranks` reads those
    from the rank rows, once the players' rows are all there."""
    result = GameResult
    picked: list[Any] = [result.seq, result.player_id, result.finished_at, result.mu, result.sigma]
    if not spans:
        # Every row of the players: the earliest finish after each, in one pass over each
        # player's results from the last back, instead of a look-up of all later ones per row.
        picked.append(
            func.min(result.finished_at)
            .over(partition_by=result.player_id, order_by=result.seq.desc(), rows=(None, -1))
            .label("earliest_later")
        )
    results = select(*picked)
    if player_ids is not None:
        results = results.where(result.player_id.in_(player_ids))
    if spans:
        results = results.where(or_(*(finished_within(start, end) for start, end in spans)))
    source = results.subquery("results")
    values: list[Any] = [
        source.c.seq,
        source.c.player_id,
        source.c.finished_at,
        Player.name_key,
        source.c.mu - 3 * source.c.sigma,
    ]
    columns = ["seq", "player_id", "finished_at", "name_key", "rating"]
    if not spans:
        values += later_finishes(
            GameResult,
            source.c.player_id,
            source.c.seq,
            source.c.finished_at,
            source.c.earliest_later,
        )
        columns += ["later_finish_at_or_after", "later_finish_before"]
    rows = select(*values).join(Player, Player.id == source.c.player_id)
    session.execute(insert(ResultRank).from_select(columns, rows))


def _link_ranks(
    session: DbSession,
    player_ids: list[int],
    moments: list[datetime],
    seq: int | None,
    months: list[tuple[datetime | None, datetime | None]],
) -> None:
    """Derive the later finishes of the rank rows of `player_ids` just written within `months`,
    and again of their rows that results finished at `moments` (of seq `seq`, when known), just
    written or removed, can change: only rows before them by seq count them as later results,
    and a row's nearest later finish at or after its own can only become or stop being one of
    them when it lies between the two, and so can its nearest before it. Read from the rank
    rows' own index of each player's results by seq, which holds their finishes."""
    rank = ResultRank
    later = aliased(ResultRank, name="later")
    earliest = (
        select(func.min(later.finished_at))
        .where(later.player_id == rank.player_id, later.seq > rank.seq)
        .scalar_subquery()
    )
    at_or_after, before = later_finishes(
        ResultRank, rank.player_id, rank.seq, rank.finished_at, earliest
    )
    touched = [
        or_(
            and_(
                rank.finished_at <= moment,
                or_(
                    rank.later_finish_at_or_after.is_(None),
                    rank.later_finish_at_or_after >= moment,
                ),
            ),
            and_(
                rank.finished_at > moment,
                or_(rank.later_finish_before.is_(None), rank.later_finish_before <= moment),
            ),
        )
        for moment in moments
    ]
    changed = or_(*touched)
    if seq is not None:
        changed = and_(rank.seq < seq, changed)
    written = or_(*(within(rank.finished_at, start, end) for start, end in months))
    session.execute(
        update(rank)
        .where(rank.player_id.in_(player_ids), or_(written, changed))
        .values(later_finish_at_or_after=at_or_after, later_finish_before=before)
        .execution_options(synchronize_session=False)
    )


def later_finishes(
    table: Any, player_id: Any, seq: Any, finished_at: Any, earliest_later: ColumnElement[Any]
) -> tuple[ColumnElement[datetime], ColumnElement[datetime]]:
    """Of the player's results after `seq` (rows of `table`: game_results or result_ranks), the
    earliest finish at or after `finished_at` and the latest before it, given the earliest
    finish of them all (`earliest_later`). Later results mostly finish later: then the earliest
    is the first, and none finished before; only where one finished earlier are the player's
    later results looked up."""
    later = aliased(table, name="later_one")
    mine = [later.player_id == player_id, later.seq > seq]
    first_at_or_after = (
        select(later.finished_at)
        .where(*mine, later.finished_at >= finished_at)
        .order_by(later.finished_at)
        .limit(1)
        .scalar_subquery()
    )
    last_before = (
        select(later.finished_at)
        .where(*mine, later.finished_at < finished_at)
        .order_by(later.finished_at.desc())
        .limit(1)
        .scalar_subquery()
    )
    in_order = or_(earliest_later.is_(None), earliest_later >= finished_at)
    at_or_after = case((in_order, earliest_later), else_=first_at_or_after)
    before = case((in_order, null()), else_=last_before)
    return at_or_after, before


def finished_within(start: datetime | None, end: datetime | None) -> ColumnElement[bool]:
    """Results of games finished from `start` up to `end` (either open when None)."""
    return within(GameResult.finished_at, start, end)


def within(
    column: ColumnElement[datetime] | InstrumentedAttribute[datetime],
    start: datetime | None,
    end: datetime | None,
) -> ColumnElement[bool]:
    """Values of `column` from `start` up to `end` (either open when None)."""
    conditions = []
    if start is not None:
        conditions.append(column >= start)
    if end is not None:
        conditions.append(column < end)
    return and_(*conditions) if conditions else true()
