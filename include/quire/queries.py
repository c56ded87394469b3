"""Read models for the operator UI: the filtered documents list, counts, operations metrics.

Plain queries over Quire's tables (no Airflow here). The list pages newest
first by ``(received_at, id)`` with keyset pagination, so page 1 and page 2,000
cost the same: every filter has a ``(filter, received_at, id)`` index
(migration 0002) and a page is one index range scan. Offsets are never used.
"""

from __future__ import annotations

import base64
import re
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, exists, func, or_, select, text, tuple_
from sqlalchemy.orm import Session

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import Document, DocumentSource, OutboxEvent
from quire.states import State

MAX_PAGE_SIZE = 200
#: a search term of only hex digits this long (or longer) also matches sha256 prefixes
MIN_HASH_PREFIX = 4
_HEX = re.compile(r"^[0-9a-f]+$")


class InvalidCursorError(ValueError):
    """A pagination cursor that this module did not produce."""


@dataclass(frozen=True)
class DocumentFilter:
    """What the operator asked the list for; every field narrows it."""

    states: tuple[str, ...] = ()
    doc_types: tuple[str, ...] = ()
    source: str | None = None
    received_from: datetime | None = None
    #: exclusive
    received_to: datetime | None = None
    #: a substring of the file name, or a sha256 prefix
    search: str | None = None

    def __post_init__(self) -> None:
        unknown = set(self.states) - {s.value for s in State}
        if unknown:
            raise ValueError(f"unknown state(s): {', '.join(sorted(unknown))}")


@dataclass(frozen=True)
class Cursor:
    """A position in the newest-first order: the last row shown (``after``) or the first (``before``)."""

    received_at: datetime
    id: uuid.UUID
    direction: str = "after"

    def encode(self) -> str:
        raw = f"{self.direction[0]}|{self.received_at.isoformat()}|{self.id}"
        return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, token: str) -> Cursor:
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
            kind, stamp, ident = raw.split("|")
            direction = {"a": "after", "b": "before"}[kind]
            return cls(datetime.fromisoformat(stamp), uuid.UUID(ident), direction)
        except (ValueError, KeyError, UnicodeDecodeError) as exc:
            raise InvalidCursorError(f"not a list cursor: {token!r}") from exc


@dataclass
class DocumentPage:
    rows: list[dict[str, Any]]
    #: cursor for the next (older) page, None on the last page
    next_cursor: str | None
    #: cursor for the previous (newer) page, None on the first page
    prev_cursor: str | None
    counts: dict[str, int] = field(default_factory=dict)


def _filter_conditions(flt: DocumentFilter, *, with_states: bool = True) -> list[Any]:
    conditions: list[Any] = []
    if with_states and flt.states:
        conditions.append(Document.state.in_(flt.states))
    if flt.doc_types:
        conditions.append(Document.doc_type.in_(flt.doc_types))
    if flt.received_from is not None:
        conditions.append(Document.received_at >= flt.received_from)
    if flt.received_to is not None:
        conditions.append(Document.received_at < flt.received_to)
    if flt.source:
        conditions.append(exists().where(DocumentSource.document_id == Document.id,
                                         DocumentSource.source == flt.source))
    term = (flt.search or "").strip()
    if term:
        name_match = Document.original_name.ilike(f"%{_escape_like(term)}%", escape="\\")
        lowered = term.lower()
        if len(lowered) >= MIN_HASH_PREFIX and _HEX.match(lowered):
            conditions.append(or_(Document.sha256.like(f"{lowered}%"), name_match))
        else:
            conditions.append(name_match)
    return conditions


def _escape_like(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def list_page(ctx: QuireContext, flt: DocumentFilter | None = None, *, cursor: str | None = None,
              limit: int = 50, with_counts: bool = True) -> DocumentPage:
    """One page of documents, newest first, with per-state counts under the same non-state filters."""
    flt = flt or DocumentFilter()
    limit = max(1, min(limit, MAX_PAGE_SIZE))
    position = Cursor.decode(cursor) if cursor else None
    with transaction(ctx.engine) as session:
        rows, has_more = _page_rows(session, flt, position, limit)
        counts = _state_counts(session, flt) if with_counts else {}
    backwards = position is not None and position.direction == "before"
    if backwards:
        rows.reverse()
    next_cursor = prev_cursor = None
    if rows:
        first, last = rows[0], rows[-1]
        if has_more or backwards:
            next_cursor = Cursor(last["received_at_dt"], uuid.UUID(last["id"]), "after").encode()
        if position is not None and (not backwards or has_more):
            prev_cursor = Cursor(first["received_at_dt"], uuid.UUID(first["id"]), "before").encode()
    for row in rows:
        row.pop("received_at_dt")
    return DocumentPage(rows=rows, next_cursor=next_cursor, prev_cursor=prev_cursor, counts=counts)


_LIST_COLUMNS = (Document.id, Document.sha256, Document.parent_id, Document.original_name, Document.state,
                 Document.state_reason, Document.current_stage, Document.doc_type, Document.page_count,
                 Document.size_bytes, Document.attempts, Document.max_attempts, Document.received_at,
                 Document.updated_at)


def _page_rows(session: Session, flt: DocumentFilter, position: Cursor | None,
               limit: int) -> tuple[list[dict[str, Any]], bool]:
    key = tuple_(Document.received_at, Document.id)
    query = select(*_LIST_COLUMNS).where(*_filter_conditions(flt))
    if position is not None and position.direction == "before":
        query = query.where(key > tuple_(position.received_at, position.id)).order_by(
            Document.received_at.asc(), Document.id.asc())
    else:
        if position is not None:
            query = query.where(key < tuple_(position.received_at, position.id))
        query = query.order_by(Document.received_at.desc(), Document.id.desc())
    found = session.execute(query.limit(limit + 1)).all()
    return [_row_json(r) for r in found[:limit]], len(found) > limit


def _row_json(r: Any) -> dict[str, Any]:
    return {"id": str(r.id), "sha256": r.sha256, "parent_id": str(r.parent_id) if r.parent_id else None,
            "name": r.original_name, "state": r.state, "reason": r.state_reason, "stage": r.current_stage,
            "doc_type": r.doc_type, "pages": r.page_count, "size": r.size_bytes, "attempts": r.attempts,
            "max_attempts": r.max_attempts, "received_at": r.received_at.isoformat(),
            "received_at_dt": r.received_at, "updated_at": r.updated_at.isoformat()}


def _state_counts(session: Session, flt: DocumentFilter) -> dict[str, int]:
    rows = session.execute(select(Document.state, func.count()).where(*_filter_conditions(flt, with_states=False))
                           .group_by(Document.state)).all()
    counts = dict.fromkeys((s.value for s in State), 0)
    counts.update({state: n for state, n in rows})
    return counts


def state_counts(ctx: QuireContext, flt: DocumentFilter | None = None) -> dict[str, int]:
    """Documents per state (every state present, zero where none), under ``flt``'s non-state filters."""
    with transaction(ctx.engine) as session:
        return _state_counts(session, flt or DocumentFilter())


def _distinct(session: Session, table: str, column: str) -> list[str]:
    """Distinct values of an indexed column by a skip scan: one index probe per value, not a full scan."""
    sql = text(f"""
        WITH RECURSIVE values_ AS (
            (SELECT {column} AS v FROM {table} WHERE {column} IS NOT NULL ORDER BY {column} LIMIT 1)
            UNION ALL
            SELECT (SELECT {column} FROM {table} WHERE {column} > values_.v ORDER BY {column} LIMIT 1)
            FROM values_ WHERE values_.v IS NOT NULL
        )
        SELECT v FROM values_ WHERE v IS NOT NULL""")
    return [v for (v,) in session.execute(sql)]


def filter_choices(ctx: QuireContext) -> dict[str, list[str]]:
    """The values the list's type and source filters offer."""
    with transaction(ctx.engine) as session:
        return {"states": [s.value for s in State],
                "doc_types": _distinct(session, "documents", "doc_type"),
                "sources": _distinct(session, "document_sources", "source")}


# -- operations metrics ---------------------------------------------------------------------------------------

#: states in which a document stopped for good until a person acts
STOPPED_STATES = (State.FAILED, State.BLOCKED, State.QUARANTINED)


@dataclass(frozen=True)
class FailureCount:
    state: str
    reason: str
    count: int


@dataclass(frozen=True)
class OperationsMetrics:
    documents_by_state: dict[str, int]
    pending: int
    oldest_pending_age_seconds: float | None
    outbox_waiting: int
    outbox_oldest_age_seconds: float | None
    outbox_dead: int
    #: task attempts that failed and were left to Airflow's retries, in the last hour
    retries_last_hour: int
    #: operator actions (retry, resume, reprocess, release, approve) in the last hour
    operator_actions_last_hour: int
    terminal_failures: list[FailureCount]
    review_waiting: int
    review_oldest_age_seconds: float | None
    measured_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"documents_by_state": self.documents_by_state, "pending": self.pending,
                "oldest_pending_age_seconds": self.oldest_pending_age_seconds,
                "outbox_waiting": self.outbox_waiting, "outbox_oldest_age_seconds": self.outbox_oldest_age_seconds,
                "outbox_dead": self.outbox_dead, "retries_last_hour": self.retries_last_hour,
                "operator_actions_last_hour": self.operator_actions_last_hour,
                "terminal_failures": [{"state": f.state, "reason": f.reason, "count": f.count}
                                      for f in self.terminal_failures],
                "review_waiting": self.review_waiting, "review_oldest_age_seconds": self.review_oldest_age_seconds,
                "measured_at": self.measured_at.isoformat()}


_FAILURE_REASONS = text("""
    SELECT d.state,
           CASE WHEN d.state_reason LIKE 'attempt budget exhausted%' THEN 'attempt_budget_exhausted'
                ELSE coalesce(regexp_replace(last_failure.error_class, '^.*\\.', ''), 'unknown') END AS reason,
           count(*) AS n
    FROM documents d
    LEFT JOIN LATERAL (
        SELECT r.error_class FROM pipeline_runs r
        WHERE r.document_id = d.id AND r.outcome = 'failed'
        ORDER BY r.id DESC LIMIT 1
    ) last_failure ON true
    WHERE d.state IN :states
    GROUP BY 1, 2
    ORDER BY 1, 3 DESC, 2
""").bindparams(bindparam("states", expanding=True))


def operations_metrics(ctx: QuireContext) -> OperationsMetrics:
    """What an operator watches: queue ages, retries, failures by reason, the review backlog."""
    age = lambda column: func.extract("epoch", func.now() - func.min(column))  # noqa: E731
    with transaction(ctx.engine) as session:
        by_state = _state_counts(session, DocumentFilter())
        now = session.execute(select(func.now())).scalar_one()
        pending, pending_age = session.execute(
            select(func.count(), age(Document.received_at)).where(Document.state == State.PENDING.value)).one()
        outbox_waiting, outbox_age = session.execute(
            select(func.count(), age(OutboxEvent.created_at))
            .where(OutboxEvent.status.in_(("PENDING", "PUBLISHING")))).one()
        outbox_dead = session.execute(select(func.count()).where(OutboxEvent.status == "DEAD")).scalar_one()
        retries = session.execute(text(
            "SELECT count(*) FROM pipeline_runs WHERE outcome = 'retry' AND started_at > now() - interval '1 hour'"
        )).scalar_one()
        actions = session.execute(text(
            "SELECT count(*) FROM audit_events WHERE action IN ('retry', 'resume', 'reprocess', 'release', 'approve')"
            " AND created_at > now() - interval '1 hour'")).scalar_one()
        failures = [FailureCount(state, reason, n) for state, reason, n in session.execute(
            _FAILURE_REASONS, {"states": [s.value for s in STOPPED_STATES]})] if any(by_state[s.value] for s in STOPPED_STATES) else []
        review, review_age = session.execute(
            select(func.count(), age(Document.updated_at))
            .where(Document.state == State.REVIEW_REQUIRED.value)).one()
    return OperationsMetrics(
        documents_by_state=by_state, pending=pending, oldest_pending_age_seconds=_seconds(pending_age),
        outbox_waiting=outbox_waiting, outbox_oldest_age_seconds=_seconds(outbox_age), outbox_dead=outbox_dead,
        retries_last_hour=retries, operator_actions_last_hour=actions, terminal_failures=failures,
        review_waiting=review, review_oldest_age_seconds=_seconds(review_age), measured_at=now)


def _seconds(value: Any) -> float | None:
    return None if value is None else round(max(float(value), 0.0), 3)


# -- Prometheus text exposition format 0.0.4 --------------------------------------------------------------------

PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _label_value(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _sample(name: str, value: float | int, labels: dict[str, str] | None = None) -> str:
    rendered = ""
    if labels:
        rendered = "{" + ",".join(f'{k}="{_label_value(v)}"' for k, v in labels.items()) + "}"
    number = repr(float(value)) if isinstance(value, float) else str(int(value))
    return f"{name}{rendered} {number}"


def _family(name: str, kind: str, help_text: str, samples: Iterable[str]) -> list[str]:
    return [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}", *samples]


def render_prometheus(metrics: OperationsMetrics) -> str:
    """The metrics in Prometheus' text format; an absent age (empty queue) is reported as 0."""
    lines: list[str] = []
    add = lines.extend
    add(_family("quire_documents", "gauge", "Documents per state.",
                (_sample("quire_documents", n, {"state": s}) for s, n in metrics.documents_by_state.items())))
    add(_family("quire_pending_documents", "gauge", "Documents waiting to be claimed.",
                [_sample("quire_pending_documents", metrics.pending)]))
    add(_family("quire_oldest_pending_age_seconds", "gauge", "Age of the oldest PENDING document (0 if none).",
                [_sample("quire_oldest_pending_age_seconds", metrics.oldest_pending_age_seconds or 0.0)]))
    add(_family("quire_outbox_waiting_events", "gauge", "Outbox events not yet delivered.",
                [_sample("quire_outbox_waiting_events", metrics.outbox_waiting)]))
    add(_family("quire_outbox_oldest_age_seconds", "gauge",
                "Age of the oldest undelivered outbox event (0 if none).",
                [_sample("quire_outbox_oldest_age_seconds", metrics.outbox_oldest_age_seconds or 0.0)]))
    add(_family("quire_outbox_dead_events", "gauge", "Outbox events given up on.",
                [_sample("quire_outbox_dead_events", metrics.outbox_dead)]))
    add(_family("quire_task_retries_last_hour", "gauge",
                "Task attempts that failed and were retried, started in the last hour.",
                [_sample("quire_task_retries_last_hour", metrics.retries_last_hour)]))
    add(_family("quire_operator_actions_last_hour", "gauge", "Operator actions recorded in the last hour.",
                [_sample("quire_operator_actions_last_hour", metrics.operator_actions_last_hour)]))
    add(_family("quire_terminal_failures", "gauge",
                "Documents stopped in FAILED, BLOCKED or QUARANTINED, by state and reason.",
                (_sample("quire_terminal_failures", f.count, {"state": f.state, "reason": f.reason})
                 for f in metrics.terminal_failures)))
    add(_family("quire_review_waiting_documents", "gauge", "Documents waiting for a reviewer.",
                [_sample("quire_review_waiting_documents", metrics.review_waiting)]))
    add(_family("quire_review_oldest_age_seconds", "gauge",
                "Time the longest-waiting REVIEW_REQUIRED document has waited (0 if none).",
                [_sample("quire_review_oldest_age_seconds", metrics.review_oldest_age_seconds or 0.0)]))
    return "\n".join(lines) + "\n"


# -- the document page's extras -----------------------------------------------------------------------------------

def task_log_path(dag_id: str, run_id: str, task_id: str, map_index: int = -1, try_number: int | None = None) -> str:
    """The Airflow 3 UI path of a task instance (its Logs tab is the default view), without the base URL."""
    from urllib.parse import quote

    path = f"/dags/{quote(dag_id, safe='')}/runs/{quote(run_id, safe='')}/tasks/{quote(task_id, safe='')}"
    if map_index is not None and map_index >= 0:
        path += f"/mapped/{map_index}"
    if try_number:
        path += f"?try_number={try_number}"
    return path


def page_numbers(ctx: QuireContext, document_id: str) -> Sequence[int]:
    """The page numbers of a document in its root file (a split part is a page range of its parent)."""
    with transaction(ctx.engine) as session:
        doc = session.get(Document, uuid.UUID(document_id))
        if doc is None:
            return []
        if doc.page_first:
            return list(range(doc.page_first, doc.page_last + 1))
        return list(range(1, (doc.page_count or 0) + 1))

