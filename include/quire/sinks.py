"""Where published records go. A sink must accept the same idempotency key twice and keep one record."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import Engine, func
from sqlalchemy.dialects.postgresql import insert

from quire.db.models import PublishedDocument
from quire.loading import load_object
from quire.settings import Settings


class Sink(Protocol):
    name: str

    def deliver(self, idempotency_key: str, document_id: str, payload: dict[str, Any]) -> None:
        """Deliver one record; raise SinkDeliveryError (transient) if it was not accepted."""


class TableSink:
    """The default sink: the ``published_documents`` table, upserted by idempotency key."""

    name = "table"

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def deliver(self, idempotency_key: str, document_id: str, payload: dict[str, Any]) -> None:
        statement = insert(PublishedDocument).values(idempotency_key=idempotency_key, document_id=document_id,
                                                     payload=payload)
        statement = statement.on_conflict_do_update(
            index_elements=[PublishedDocument.idempotency_key],
            set_={"last_delivered_at": func.now(), "delivery_count": PublishedDocument.delivery_count + 1})
        with self._engine.begin() as conn:
            conn.execute(statement)


def get_sink(settings: Settings, engine: Engine) -> Sink:
    if settings.sink == "table":
        return TableSink(engine)
    return load_object(settings.sink)(settings=settings, engine=engine)
