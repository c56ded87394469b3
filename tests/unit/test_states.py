import pytest

from quire.errors import InvalidTransitionError
from quire.states import ALLOWED, TERMINAL, State, check_transition


def test_every_state_has_its_transitions_listed():
    assert set(ALLOWED) == set(State)


@pytest.mark.parametrize(("current", "target"), [
    (State.PENDING, State.IN_PROGRESS),
    (State.IN_PROGRESS, State.PARSED),
    (State.EXTRACTED, State.PUBLISHED),
    (State.REVIEW_REQUIRED, State.EXTRACTED),
    (State.QUARANTINED, State.PENDING),
    (State.FAILED, State.CLASSIFIED),
])
def test_allowed_moves(current, target):
    assert check_transition(current, target) is target


@pytest.mark.parametrize(("current", "target"), [
    (State.PENDING, State.PUBLISHED),
    (State.QUARANTINED, State.IN_PROGRESS),
    (State.COMPLETE, State.FAILED),
    (State.BLOCKED, State.PUBLISHED),
])
def test_forbidden_moves_raise(current, target):
    with pytest.raises(InvalidTransitionError, match=f"from {current.value} to {target.value}"):
        check_transition(current, target)


def test_reasserting_a_state_is_allowed_so_retries_converge():
    for state in State:
        assert check_transition(state, state) is state

