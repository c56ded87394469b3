"""One exception hierarchy; the class decides whether a failure is retried.

The task boundary (dags/) translates once: TerminalError -> AirflowFailException
and a terminal document state; TransientError -> re-raised for Airflow's retries.
"""

from __future__ import annotations


class QuireError(Exception):
    """Base of every error Quire raises on purpose."""

    retryable: bool = False
    #: the terminal document state this error leads to when it is not retried
    terminal_state: str = "FAILED"


class TransientError(QuireError):
    """A failure that may pass on its own (database restart, busy engine, timeout)."""

    retryable = True


class TerminalError(QuireError):
    """Retrying cannot help: the document needs a person or a fix."""


class InputRejectedError(TerminalError):
    """The input cannot be taken in at all (wrong type, too big, outside the inbox)."""


class QuarantineError(TerminalError):
    """Malformed, encrypted or hostile input: set aside, never retried automatically."""

    terminal_state = "QUARANTINED"


class PasswordRequiredError(QuarantineError):
    """The PDF is encrypted and no working password was supplied."""


class DocumentTooLargeError(QuarantineError):
    """Page count or pixel budget exceeds the configured limits."""


class UnreadableDocumentError(QuarantineError):
    """No engine can open the file (corrupt, truncated, not what its bytes claim)."""


class BusinessRuleError(TerminalError):
    """The record breaks a business rule (e.g. total does not match the lines)."""

    terminal_state = "BLOCKED"


class InvalidTransitionError(TerminalError):
    """A state change the state machine does not allow (a programming or race error)."""


class EngineError(TransientError):
    """An engine (OCR, rasteriser, sink) failed in a way that may pass on retry."""


class SinkDeliveryError(TransientError):
    """A downstream sink did not accept a delivery; the outbox keeps it for later."""
