"""Rows for tests that need documents in a given state without running the engines."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import Document
from quire.ids import document_id_for
from quire.states import State


def make_document(ctx: QuireContext, name: str = "doc.pdf", *, state: State = State.PENDING,
                  content: bytes | None = None, received_at: datetime | None = None, **values) -> str:
    content = content if content is not None else name.encode()
    sha256 = hashlib.sha256(content).hexdigest()
    document_id = document_id_for(sha256)
    with transaction(ctx.engine) as session:
        session.add(Document(id=document_id, sha256=sha256, size_bytes=len(content), media_type="application/pdf",
                             blob_uri=ctx.blobs.uri_for(sha256), original_name=name, state=state.value,
                             received_at=received_at or datetime.now(UTC),
                             max_attempts=values.pop("max_attempts", ctx.settings.max_attempts), **values))
    return str(document_id)
