"""Actions through the UI: quire.services underneath, audited, acting once per request id."""

import uuid

from sqlalchemy import select

from quire.airflow_api import AirflowApiError, AirflowRunNotFoundError, ClearedTaskInstance
from quire.db.engine import transaction
from quire.db.models import AuditEvent, DocumentSecret, PipelineRun
from quire.model import Extraction, FieldValue, LineItem, Routing, ValidationResult
from quire.stages.extract import record_extraction
from quire.states import State
from tests.integration.factories import make_document


def _state(ui, doc: str) -> str:
    return ui.get(f"/quire/api/documents/{doc}").json()["state"]


def _audit(ctx, doc: str) -> list[AuditEvent]:
    with transaction(ctx.engine) as session:
        return list(session.execute(select(AuditEvent).where(AuditEvent.document_id == uuid.UUID(doc))
                                    .order_by(AuditEvent.id)).scalars())


def _failed_with_run(ctx, name: str = "f.pdf", outcome: str = "failed") -> str:
    doc = make_document(ctx, name, state=State.FAILED, resume_state="PARSED", current_stage="classify",
                        state_reason="classify: boom")
    with transaction(ctx.engine) as session:
        session.add(PipelineRun(document_id=uuid.UUID(doc), dag_id="document_pipeline", run_id="manual__1",
                                task_id="classify", map_index=0, try_number=3, stage="classify", outcome=outcome,
                                error_class="RuntimeError", error_message="boom"))
    return doc


def test_resume_clears_the_failed_task_instances_of_its_run_once_per_request(ui):
    doc = _failed_with_run(ui.ctx)
    ui.airflow.cleared = [ClearedTaskInstance("classify", 0, None), ClearedTaskInstance("extract", 0, None)]
    for _ in range(2):  # a double click sends the same request id twice
        response = ui.post(f"/quire/documents/{doc}/resume", data={"request_id": "click-0001"})
        assert response.status_code == 303
    assert ui.airflow.calls == [("document_pipeline", "manual__1")]
    first = ui.client.get(response.headers["location"], headers=ui.headers())
    assert "already carried out" in first.text  # the second submit says so, and did nothing
    actions = [(a.action, a.actor) for a in _audit(ui.ctx, doc)]
    assert ("resume", "admin-user") in actions and ("task_instances_cleared", "admin-user") in actions
    assert sum(1 for a, _ in actions if a == "resume") == 1
    # the task re-run (not the UI) moves the document on; it stays FAILED until then
    assert _state(ui, doc) == "FAILED"


def test_resume_without_an_airflow_run_reopens_for_the_next_run(ui):
    doc = make_document(ui.ctx, "f.pdf", state=State.FAILED, resume_state="CLASSIFIED", attempts=3)
    response = ui.post(f"/quire/documents/{doc}/resume", data={"request_id": "click-0002"},
                       headers={"Accept": "application/json"})
    assert response.json()["changed"] and response.json()["state"] == "CLASSIFIED"
    assert ui.airflow.calls == []
    assert ui.get(f"/quire/api/documents/{doc}").json()["attempts"] == 0


def test_resume_falls_back_to_reopen_when_airflow_no_longer_knows_the_run(ui):
    doc = _failed_with_run(ui.ctx)
    ui.airflow.error = AirflowRunNotFoundError("HTTP 404", 404)
    response = ui.post(f"/quire/documents/{doc}/resume", data={"request_id": "click-0003"},
                       headers={"Accept": "application/json"})
    assert response.json()["state"] == "PARSED" and ui.airflow.calls


def test_resume_with_airflow_unreachable_records_nothing_and_can_be_sent_again(ui):
    doc = _failed_with_run(ui.ctx)
    ui.airflow.error = AirflowApiError("connection refused")
    response = ui.post(f"/quire/documents/{doc}/resume", data={"request_id": "click-0004"})
    page = ui.client.get(response.headers["location"], headers=ui.headers())
    assert "could not be reached" in page.text
    assert not [a for a in _audit(ui.ctx, doc) if a.action == "resume"]
    ui.airflow.error = None
    ui.airflow.cleared = [ClearedTaskInstance("classify", 0, None)]
    response = ui.post(f"/quire/documents/{doc}/resume", data={"request_id": "click-0004"},
                       headers={"Accept": "application/json"})
    assert response.json()["changed"]


def test_resume_of_a_document_that_is_not_failed_changes_nothing(ui):
    doc = make_document(ui.ctx, "ok.pdf", state=State.COMPLETE)
    body = ui.post(f"/quire/documents/{doc}/resume", data={"request_id": "click-0005"},
                   headers={"Accept": "application/json"}).json()
    assert not body["changed"] and "only FAILED" in body["message"]


def test_reprocess_once_per_request(ui):
    doc = make_document(ui.ctx, "done.pdf", state=State.COMPLETE)
    bodies = [ui.post(f"/quire/documents/{doc}/reprocess", data={"request_id": "click-0006"},
                      headers={"Accept": "application/json"}).json() for _ in range(2)]
    assert [b["changed"] for b in bodies] == [True, False]
    assert _state(ui, doc) == "PENDING"
    assert [a.action for a in _audit(ui.ctx, doc)].count("reprocess") == 1


def test_release_with_a_password(ui):
    doc = make_document(ui.ctx, "locked.pdf", state=State.QUARANTINED, state_reason="encrypted")
    for _ in range(2):
        ui.post(f"/quire/documents/{doc}/release", data={"request_id": "click-0007", "password": "s3cret"})
    assert _state(ui, doc) == "PENDING"
    with transaction(ui.ctx.engine) as session:
        secret = session.get(DocumentSecret, uuid.UUID(doc))
    assert secret.password == "s3cret" and secret.supplied_by == "admin-user"
    release = [a for a in _audit(ui.ctx, doc) if a.action == "release"]
    assert len(release) == 1 and release[0].detail["password_supplied"] is True
    assert "s3cret" not in str([a.detail for a in _audit(ui.ctx, doc)])


def test_review_corrects_fields_and_approves_once(ui):
    doc = make_document(ui.ctx, "unsure.pdf", state=State.REVIEW_REQUIRED)
    with transaction(ui.ctx.engine) as session:
        record_extraction(session, uuid.UUID(doc), Extraction(
            fields={"total_amount": FieldValue("10.00", 0.3), "invoice_number": FieldValue(None, 0.0)},
            line_items=(), validation=(ValidationResult("required_fields", False, "invoice_number missing"),),
            routing=Routing.REVIEW, extractor_version="x-1"), classification_id=None, pipeline_run_id=None)
    page = ui.get(f"/quire/documents/{doc}")
    assert 'name="field.invoice_number"' in page.text and 'id="approve"' in page.text
    form = {"request_id": "click-0008", "field.invoice_number": "INV-42", "original.invoice_number": "",
            "field.total_amount": "10.00", "original.total_amount": "10.00"}
    for _ in range(2):
        assert ui.post(f"/quire/documents/{doc}/approve", data=form).status_code == 303
    detail = ui.get(f"/quire/api/documents/{doc}").json()
    assert detail["state"] == "PUBLISHED"
    reviewed = [e for e in detail["extractions"] if e["origin"] == "review"]
    assert len(reviewed) == 1 and reviewed[0]["decided_by"] == "admin-user"
    assert reviewed[0]["fields"]["invoice_number"]["value"] == "INV-42"
    approve = [a for a in _audit(ui.ctx, doc) if a.action == "approve"]
    assert len(approve) == 1 and approve[0].detail["corrections"] == {"invoice_number": "INV-42"}


def test_line_items_show_their_discount_on_the_page_and_keep_it_through_review(ui):
    doc = make_document(ui.ctx, "discounted.pdf", state=State.REVIEW_REQUIRED)
    rows = (LineItem("Project management", "5", "28.00", "126.00", 0.98, discount_percent="10"),
            LineItem("Site visit", "1", "350.00", "350.00", 0.97))
    with transaction(ui.ctx.engine) as session:
        record_extraction(session, uuid.UUID(doc), Extraction(
            fields={"total_amount": FieldValue("476.00", 0.3)}, line_items=rows,
            validation=(ValidationResult("field_confidence", False, "total_amount (0.30)"),),
            routing=Routing.REVIEW, extractor_version="x-1"), classification_id=None, pipeline_run_id=None)
    page = ui.get(f"/quire/documents/{doc}").text
    assert '<th class="num">Discount</th>' in page
    assert '<td class="num">28.00</td><td class="num">10 %</td><td class="num">126.00</td>' in page
    assert '<td class="num">350.00</td><td class="num"></td><td class="num">350.00</td>' in page
    form = {"request_id": "click-0010", "field.total_amount": "476.00", "original.total_amount": "476.00"}
    assert ui.post(f"/quire/documents/{doc}/approve", data=form).status_code == 303
    reviewed = [e for e in ui.get(f"/quire/api/documents/{doc}").json()["extractions"] if e["origin"] == "review"]
    assert [i["discount_percent"] for i in reviewed[0]["line_items"]] == ["10", None]


def test_an_action_needs_a_request_id(ui):
    doc = make_document(ui.ctx, "f.pdf", state=State.FAILED)
    assert ui.post(f"/quire/documents/{doc}/resume", data={}).status_code == 422
    assert ui.post(f"/quire/documents/{doc}/approve", data={}).status_code == 422
