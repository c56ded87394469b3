"""The document state machine: every state and every allowed transition, in one place.

Code never writes ``documents.state`` directly; it calls
``quire.db.repository.transition`` which checks the move here first, so an
illegal move is an error rather than a silently corrupted record.
"""

from __future__ import annotations

from enum import Enum

from quire.errors import InvalidTransitionError


class State(str, Enum):
    PENDING = "PENDING"
    IN_PROGRESS = "IN_PROGRESS"
    PARSED = "PARSED"
    SPLIT = "SPLIT"
    CLASSIFIED = "CLASSIFIED"
    EXTRACTED = "EXTRACTED"
    REVIEW_REQUIRED = "REVIEW_REQUIRED"
    PUBLISHED = "PUBLISHED"
    COMPLETE = "COMPLETE"
    FAILED = "FAILED"
    BLOCKED = "BLOCKED"
    QUARANTINED = "QUARANTINED"


#: states in which nothing more happens until a person (or `quire retry/reprocess/release/approve`) acts
TERMINAL = frozenset({State.COMPLETE, State.FAILED, State.BLOCKED, State.QUARANTINED, State.REVIEW_REQUIRED})
#: states that stop the pipeline for a reason worth an operator's attention
NEEDS_ATTENTION = frozenset({State.FAILED, State.BLOCKED, State.QUARANTINED, State.REVIEW_REQUIRED})
#: states the pipeline works through, in order; a retry resumes after the last one reached
WORKING_ORDER = (State.IN_PROGRESS, State.PARSED, State.SPLIT, State.CLASSIFIED, State.EXTRACTED,
                 State.PUBLISHED, State.COMPLETE)

_STOPS = {State.FAILED, State.BLOCKED, State.QUARANTINED}

ALLOWED: dict[State, frozenset[State]] = {
    State.PENDING: frozenset({State.IN_PROGRESS, State.QUARANTINED, State.FAILED}),
    State.IN_PROGRESS: frozenset({State.PARSED, State.PENDING} | _STOPS),
    # PARSED -> CLASSIFIED: a single-part document needs no split children
    State.PARSED: frozenset({State.SPLIT, State.CLASSIFIED, State.COMPLETE} | _STOPS),
    # a packet's parent is COMPLETE once its children exist; a child starts at SPLIT
    State.SPLIT: frozenset({State.CLASSIFIED, State.COMPLETE} | _STOPS),
    State.CLASSIFIED: frozenset({State.EXTRACTED, State.REVIEW_REQUIRED} | _STOPS),
    State.EXTRACTED: frozenset({State.PUBLISHED, State.REVIEW_REQUIRED} | _STOPS),
    # approve publishes through EXTRACTED; reprocess starts over
    State.REVIEW_REQUIRED: frozenset({State.EXTRACTED, State.PENDING, State.BLOCKED}),
    State.PUBLISHED: frozenset({State.COMPLETE, State.FAILED}),
    State.COMPLETE: frozenset({State.PENDING}),
    # resuming a failed document puts it back where it stopped (documents.resume_state)
    State.FAILED: frozenset({State.PENDING, *WORKING_ORDER}),
    State.BLOCKED: frozenset({State.PENDING}),
    State.QUARANTINED: frozenset({State.PENDING}),
}


def check_transition(current: State | str, target: State | str) -> State:
    """Return ``target`` as a State if ``current -> target`` is allowed, else raise."""
    current, target = State(current), State(target)
    if current == target:
        return target  # re-asserting a state is a no-op, which keeps retried tasks idempotent
    if target not in ALLOWED[current]:
        raise InvalidTransitionError(f"a document cannot move from {current.value} to {target.value}")
    return target
