"""Intake: validate, hash and register a file as a PENDING document.

Every arrival is accounted for. A new file becomes a ``documents`` row plus a
``document_sources`` row and an audit event, in one transaction; a re-upload of
the same bytes only adds a source row (a duplicate is a result, not an error);
malformed or encrypted input is registered as QUARANTINED with a reason a person
understands; input that cannot be taken at all (wrong type, too large, outside
the inbox) is rejected and audited.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path, PurePosixPath

from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import Document, DocumentSource
from quire.db.repository import record_audit
from quire.engines.inspect import inspect_file
from quire.errors import InputRejectedError, QuarantineError
from quire.ids import document_id_for
from quire.states import State

log = logging.getLogger(__name__)


class IngestStatus(str, Enum):
    NEW = "new"
    DUPLICATE = "duplicate"
    QUARANTINED = "quarantined"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class IngestResult:
    path: str
    status: IngestStatus
    sha256: str | None = None
    document_id: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, str | None]:
        data = asdict(self)
        data["status"] = self.status.value
        return data


def resolve_source_ref(inbox_root: Path, reference: str) -> Path:
    """Turn a reference relative to the inbox into a path, refusing anything that escapes it.

    Absolute references and ``..`` components are refused outright (even when
    they would land inside the inbox), and so is a symlink pointing out of it.
    """
    ref = PurePosixPath(reference.replace("\\", "/"))
    if ref.is_absolute() or reference.startswith(("/", "\\")) or (len(reference) > 1 and reference[1] == ":"):
        raise InputRejectedError(f"source reference {reference!r} is absolute; give a path inside the inbox")
    if ".." in ref.parts:
        raise InputRejectedError(f"source reference {reference!r} climbs out of the inbox with '..'")
    root = inbox_root.resolve()
    resolved = (root / ref).resolve()
    if not resolved.is_relative_to(root):
        raise InputRejectedError(f"source reference {reference!r} leads outside the inbox (through a link)")
    return resolved


def ingest_reference(ctx: QuireContext, reference: str, *, source: str = "inbox") -> IngestResult:
    """Ingest a file named relative to the configured inbox root."""
    try:
        path = resolve_source_ref(ctx.settings.inbox, reference)
    except InputRejectedError as exc:
        return _rejected(ctx, reference, str(exc), source=source, source_ref=reference)
    return ingest_file(ctx, path, source=source, source_ref=reference)


def ingest_path(ctx: QuireContext, path: Path, *, source: str = "cli") -> IngestResult:
    """Ingest a file named on the command line.

    With an inbox root configured the file must lie inside it and is referenced
    relative to it; without one, an operator's path is taken as it is.
    """
    root = ctx.settings.inbox_root
    if root is None:
        return ingest_file(ctx, path, source=source, source_ref=str(path.resolve()))
    try:
        reference = str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return _rejected(ctx, str(path), f"{path} is outside the inbox {root}", source=source,
                         source_ref=str(path))
    return ingest_file(ctx, path, source=source, source_ref=reference)


def ingest_file(ctx: QuireContext, path: Path, *, source: str = "cli", source_ref: str | None = None,
                original_name: str | None = None) -> IngestResult:
    """Register one file. Never raises for bad input: the result says what happened."""
    name = original_name or path.name
    ref = source_ref if source_ref is not None else str(path)
    try:
        with path.open("rb") as handle:
            staged = ctx.blobs.stage(handle, ctx.settings.max_file_bytes)
    except InputRejectedError as exc:
        return _rejected(ctx, str(path), str(exc), source=source, source_ref=ref)
    except OSError as exc:
        return _rejected(ctx, str(path), f"cannot read file: {exc.strerror or exc}", source=source, source_ref=ref)

    document_id = document_id_for(staged.sha256)
    with transaction(ctx.engine) as session:
        if session.get(Document, document_id) is not None:
            ctx.blobs.discard(staged)
            _add_source(session, document_id, name, source, ref, IngestStatus.DUPLICATE)
            return IngestResult(str(path), IngestStatus.DUPLICATE, staged.sha256, str(document_id),
                                "the same bytes were ingested before")

    state, reason, media_type, page_count = State.PENDING, None, "application/octet-stream", None
    try:
        info = inspect_file(staged.temp_path, ctx.settings)
        media_type, page_count = info.media_type, info.page_count
    except QuarantineError as exc:
        state, reason = State.QUARANTINED, str(exc)
        media_type = getattr(exc, "media_type", None) or media_type
    except InputRejectedError as exc:
        ctx.blobs.discard(staged)
        return _rejected(ctx, str(path), str(exc), source=source, source_ref=ref, sha256=staged.sha256)

    # The blob is published before the row that points at it, so no row ever names a missing blob;
    # a blob left behind by a failed transaction is harmless (the next arrival reuses it).
    ctx.blobs.commit(staged)
    with transaction(ctx.engine) as session:
        # No conflict target: id and sha256 are both unique and both derive from the bytes,
        # so a racing arrival of the same file may trip either index.
        inserted = session.execute(
            insert(Document).values(
                id=document_id, sha256=staged.sha256, size_bytes=staged.size, media_type=media_type,
                page_count=page_count, blob_uri=ctx.blobs.uri_for(staged.sha256), original_name=name,
                state=state.value, state_reason=reason, max_attempts=ctx.settings.max_attempts,
            ).on_conflict_do_nothing().returning(Document.id)
        ).first()
        if inserted is None:
            # Another process registered the same bytes a moment ago (its transaction has committed:
            # the unique index made us wait for it). This arrival is a duplicate of that one.
            _add_source(session, document_id, name, source, ref, IngestStatus.DUPLICATE)
            return IngestResult(str(path), IngestStatus.DUPLICATE, staged.sha256, str(document_id),
                                "the same bytes were ingested at the same moment")
        _add_source(session, document_id, name, source, ref, IngestStatus.NEW)
        record_audit(session, action="ingested", document_id=document_id,
                     detail={"state": state.value, "reason": reason, "source": source, "name": name,
                             "size": staged.size, "media_type": media_type, "pages": page_count})
    if state is State.QUARANTINED:
        return IngestResult(str(path), IngestStatus.QUARANTINED, staged.sha256, str(document_id), reason)
    return IngestResult(str(path), IngestStatus.NEW, staged.sha256, str(document_id))


def _add_source(session: Session, document_id: uuid.UUID, name: str, source: str, ref: str,
                disposition: IngestStatus) -> None:
    session.add(DocumentSource(document_id=document_id, original_name=name, source=source, source_ref=ref,
                               disposition=disposition.value))
    if disposition is IngestStatus.DUPLICATE:
        record_audit(session, action="duplicate_received", document_id=document_id,
                     detail={"source": source, "name": name, "source_ref": ref})


def _rejected(ctx: QuireContext, path: str, reason: str, *, source: str, source_ref: str | None,
              sha256: str | None = None) -> IngestResult:
    with transaction(ctx.engine) as session:
        record_audit(session, action="rejected", document_id=None,
                     detail={"path": path, "reason": reason, "source": source, "source_ref": source_ref,
                             "sha256": sha256})
    log.warning("rejected %s: %s", path, reason)
    return IngestResult(path, IngestStatus.REJECTED, sha256, None, reason)


def iter_input_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Files named directly, and every file below named folders (sorted, hidden files skipped)."""
    for path in paths:
        if path.is_dir():
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for filename in sorted(filenames):
                    if not filename.startswith("."):
                        yield Path(dirpath) / filename
        else:
            yield path
