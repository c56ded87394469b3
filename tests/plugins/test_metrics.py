"""Operations metrics: the page, and the Prometheus text format at /quire/metrics."""

import re
import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from quire.db.engine import transaction
from quire.db.models import OutboxEvent, PipelineRun
from quire.states import State
from tests.integration.factories import make_document

# one sample line of the text exposition format 0.0.4: name{label="value",...} number
SAMPLE = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? -?[0-9.e+-]+$')


def _seed(ctx):
    now = datetime.now(UTC)
    make_document(ctx, "old.pdf", state=State.PENDING, received_at=now - timedelta(hours=2))
    make_document(ctx, "new.pdf", state=State.PENDING, received_at=now - timedelta(minutes=1))
    failed = make_document(ctx, "f1.pdf", state=State.FAILED)
    make_document(ctx, "f2.pdf", state=State.FAILED, state_reason="attempt budget exhausted: 3 of 3")
    make_document(ctx, 'q "odd".pdf', state=State.QUARANTINED)
    review = make_document(ctx, "r.pdf", state=State.REVIEW_REQUIRED)
    with transaction(ctx.engine) as session:
        session.execute(text("UPDATE documents SET updated_at = now() - interval '30 minutes' WHERE id = :id"),
                        {"id": uuid.UUID(review)})
        session.add_all([
            PipelineRun(document_id=uuid.UUID(failed), dag_id="d", run_id="r", task_id="parse", try_number=1,
                        stage="parse", outcome="retry", error_class="OSError"),
            PipelineRun(document_id=uuid.UUID(failed), dag_id="d", run_id="r", task_id="parse", try_number=2,
                        stage="parse", outcome="failed", error_class="quire.errors.ParseError"),
            OutboxEvent(idempotency_key="k1", document_id=uuid.UUID(review), stage="publish", version=1,
                        event_type="e", payload={}, status="PENDING",
                        created_at=now - timedelta(minutes=10)),
        ])


def test_metrics_text_is_prometheus_exposition_format(ui):
    _seed(ui.ctx)
    response = ui.get("/quire/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    body = response.text
    assert body.endswith("\n")
    families = {}
    for line in body.splitlines():
        if line.startswith("# HELP "):
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert kind == "gauge" and name not in families
            families[name] = kind
            continue
        assert SAMPLE.match(line), line
        assert line.split("{")[0].split(" ")[0] in families, line
    values = {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in body.splitlines()
              if not line.startswith("#")}
    assert 7150 < values["quire_oldest_pending_age_seconds"] < 7300
    assert values['quire_documents{state="PENDING"}'] == 2
    assert 590 < values["quire_outbox_oldest_age_seconds"] < 700
    assert values["quire_outbox_waiting_events"] == 1
    assert values["quire_task_retries_last_hour"] == 1
    assert values['quire_terminal_failures{state="FAILED",reason="ParseError"}'] == 1
    assert values['quire_terminal_failures{state="FAILED",reason="attempt_budget_exhausted"}'] == 1
    assert values['quire_terminal_failures{state="QUARANTINED",reason="unknown"}'] == 1
    assert values["quire_review_waiting_documents"] == 1
    assert 1790 < values["quire_review_oldest_age_seconds"] < 1900


def test_empty_queues_report_zero_ages(ui):
    values = dict(line.rsplit(" ", 1) for line in ui.get("/quire/metrics").text.splitlines()
                  if not line.startswith("#"))
    assert values["quire_oldest_pending_age_seconds"] == "0.0"
    assert values["quire_review_waiting_documents"] == "0"


def test_label_values_are_escaped():
    from quire.queries import _sample

    assert _sample("m", 1, {"reason": 'a "b"\\\nc'}) == 'm{reason="a \\"b\\"\\\\\\nc"} 1'


def test_operations_page(ui):
    _seed(ui.ctx)
    page = ui.get("/quire/operations")
    assert page.status_code == 200
    assert "Oldest pending" in page.text and "2h 0" in page.text
    assert "ParseError" in page.text and "attempt_budget_exhausted" in page.text
    assert "Waiting for review" in page.text and "30m" in page.text
