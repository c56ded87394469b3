"""Small, shared database operations: state changes and the audit trail.

Every write of ``documents.state`` goes through :func:`transition`, which checks
the state machine and records the move, so the UI, the CLI and the DAG cannot
disagree about what a state change means.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from quire.db.models import AuditEvent, Document
from quire.errors import InvalidTransitionError
from quire.states import State, check_transition

SYSTEM_ACTOR = "quire"


def record_audit(session: Session, *, action: str, document_id: uuid.UUID | None, actor: str = SYSTEM_ACTOR,
                 detail: dict[str, Any] | None = None, request_id: str | None = None) -> bool:
    """Append an audit event; with a ``request_id`` the same request is recorded once.

    Returns False when the request id was seen before, so callers can make a
    repeated click a no-op.
    """
    stmt = insert(AuditEvent).values(document_id=document_id, actor=actor, action=action,
                                     detail=detail or {}, request_id=request_id)
    if request_id is None:
        session.execute(stmt)
        return True
    inserted = session.execute(stmt.on_conflict_do_nothing(constraint="uq_audit_events_request")
                               .returning(AuditEvent.id)).first()
    return inserted is not None


def get_document(session: Session, document_id: uuid.UUID, *, for_update: bool = False) -> Document | None:
    query = select(Document).where(Document.id == document_id)
    if for_update:
        query = query.with_for_update()
    return session.execute(query).scalar_one_or_none()


def transition(session: Session, document: Document, target: State, *, reason: str | None = None,
               stage: str | None = None, actor: str = SYSTEM_ACTOR, expected: set[State] | None = None,
               detail: dict[str, Any] | None = None) -> None:
    """Move ``document`` to ``target`` (checked against the state machine) and audit the move.

    ``expected`` guards against races: the move happens only if the row, read
    under a lock, is still in one of those states.
    """
    current = State(session.execute(select(Document.state).where(Document.id == document.id)
                                    .with_for_update()).scalar_one())
    if expected is not None and current not in expected:
        raise InvalidTransitionError(
            f"document {document.id} is {current.value}, expected one of "
            f"{', '.join(sorted(s.value for s in expected))}")
    check_transition(current, target)
    values: dict[str, Any] = {"state": target.value, "state_reason": reason, "updated_at": func.now()}
    if stage is not None:
        values["current_stage"] = stage
    session.execute(update(Document).where(Document.id == document.id).values(**values))
    session.refresh(document)
    if current != target:
        record_audit(session, action="state_changed", document_id=document.id, actor=actor,
                     detail={"from": current.value, "to": target.value, "reason": reason, "stage": stage,
                             **(detail or {})})
