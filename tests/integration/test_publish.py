"""publish and the outbox dispatcher: announced exactly with the state change, delivered once per key."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from quire.context import build_context
from quire.db.engine import transaction
from quire.db.models import Document, OutboxEvent, PublishedDocument
from quire.model import Extraction, FieldValue, Routing
from quire.stages.extract import record_extraction
from quire.stages.publish import dispatch_outbox, publish_document
from quire.states import State
from tests.doubles import SimulatedCrash
from tests.integration.factories import make_document


def _extracted_document(ctx, name="inv.pdf"):
    document_id = make_document(ctx, name, state=State.EXTRACTED, lease_owner="dag/run")
    with transaction(ctx.engine) as session:
        record_extraction(session, uuid.UUID(document_id), Extraction(
            fields={"total_amount": FieldValue("10.00", 0.9)}, line_items=(), validation=(), routing=Routing.AUTO,
            extractor_version="test-1"), classification_id=None, pipeline_run_id=None)
    return document_id


def _rows(ctx, model):
    with transaction(ctx.engine) as session:
        return session.execute(select(model)).scalars().all()


def test_publish_writes_state_and_outbox_event_together_and_releases_the_lease(ctx):
    document_id = _extracted_document(ctx)
    result = publish_document(document_id, ctx)
    assert result.detail == {"published": 1, "settled": True}
    [event] = _rows(ctx, OutboxEvent)
    assert event.status == "PENDING" and event.idempotency_key.startswith(f"documents:{document_id}:extracted:v")
    assert event.payload["fields"]["total_amount"]["value"] == "10.00"
    [document] = _rows(ctx, Document)
    assert (document.state, document.lease_owner) == ("PUBLISHED", None)


def test_publishing_twice_announces_once(ctx):
    document_id = _extracted_document(ctx)
    publish_document(document_id, ctx)
    assert publish_document(document_id, ctx).detail["published"] == 0
    assert len(_rows(ctx, OutboxEvent)) == 1


def test_dispatcher_delivers_marks_published_and_completes_the_document(ctx):
    document_id = _extracted_document(ctx)
    publish_document(document_id, ctx)
    result = dispatch_outbox(ctx, owner="dispatcher")
    assert result.to_xcom() == {"delivered": 1, "failed": 0, "reclaimed": 0}
    [event], [delivered], [document] = _rows(ctx, OutboxEvent), _rows(ctx, PublishedDocument), _rows(ctx, Document)
    assert event.status == "PUBLISHED" and event.published_at is not None
    assert delivered.idempotency_key == event.idempotency_key and delivered.delivery_count == 1
    assert document.state == "COMPLETE"
    assert dispatch_outbox(ctx, owner="dispatcher").to_xcom()["delivered"] == 0


def test_crash_between_delivery_and_marking_redelivers_the_same_key_and_the_sink_keeps_one_row(ctx, settings):
    document_id = _extracted_document(ctx)
    publish_document(document_id, ctx)
    crashing = build_context(settings.model_copy(update={"sink": "tests.doubles:CrashAfterDeliverySink"}))
    with pytest.raises(SimulatedCrash):
        dispatch_outbox(crashing, owner="doomed-dispatcher")
    [event] = _rows(ctx, OutboxEvent)
    assert event.status == "PUBLISHING" and event.claimed_by == "doomed-dispatcher"
    assert dispatch_outbox(ctx, owner="next").to_xcom()["delivered"] == 0  # a fresh claim is left alone
    with transaction(ctx.engine) as session:  # five minutes pass
        session.execute(update(OutboxEvent).values(claimed_at=datetime.now(UTC) - timedelta(minutes=6)))
    result = dispatch_outbox(ctx, owner="next")
    assert result.to_xcom() == {"delivered": 1, "failed": 0, "reclaimed": 1}
    [delivered] = _rows(ctx, PublishedDocument)
    assert delivered.delivery_count == 2 and delivered.idempotency_key == event.idempotency_key
    assert _rows(ctx, Document)[0].state == "COMPLETE"
