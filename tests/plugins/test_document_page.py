"""The document page: attempts with Airflow log links, pages with previews, decisions, delivery, audit."""

import hashlib
import io
import uuid
from pathlib import Path

from PIL import Image

from quire.db.engine import transaction
from quire.db.models import AuditEvent, ClassificationRecord, OutboxEvent, PageResult, PipelineRun, SplitManifest
from quire.states import State
from tests.integration.factories import make_document


def _pdf(pages: int) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    for n in range(pages):
        pdf.drawString(72, 760, f"INVOICE page {n + 1}")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _stored_pdf(ctx, name: str, pages: int, **values) -> str:
    content = _pdf(pages)
    path: Path = ctx.blobs.path_for(hashlib.sha256(content).hexdigest())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return make_document(ctx, name, content=content, page_count=pages, **values)


def test_document_page_shows_every_section(ui):
    doc = _stored_pdf(ui.ctx, "packet.pdf", 2, state=State.FAILED, state_reason="classify: boom",
                      resume_state="SPLIT", current_stage="classify")
    did = uuid.UUID(doc)
    with transaction(ui.ctx.engine) as session:
        session.add_all([
            PipelineRun(document_id=did, dag_id="document_pipeline", run_id="manual__2026-03-01", task_id="parse",
                        map_index=-1, try_number=1, stage="parse", outcome="success"),
            PipelineRun(document_id=did, dag_id="document_pipeline", run_id="manual__2026-03-01",
                        task_id="stage.classify", map_index=2, try_number=3, stage="classify", outcome="failed",
                        error_class="quire.errors.ClassifyError", error_message="no vendor block",
                        traceback_excerpt="Traceback (most recent call last):\n  ...\nClassifyError"),
            *[PageResult(document_id=did, stage="parse", page_number=n, method="text", engine="pdfium",
                         width=595, height=842, text=f"INVOICE page {n}", words=[], confidence=0.99,
                         checksum="c") for n in (1, 2)],
            SplitManifest(document_id=did, rule_version="split-1", manifest_sha256="m" * 64,
                          parts=[{"index": 0, "first_page": 1, "last_page": 2, "reason": "single",
                                  "document_id": None}]),
            ClassificationRecord(document_id=did, doc_type="invoice", confidence=0.91, classifier_version="cls-1",
                                 decision_sha256="d" * 64),
            OutboxEvent(idempotency_key=f"{doc}:publish:1", document_id=did, stage="publish", version=1,
                        event_type="document.published", payload={}, status="DEAD", attempts=5,
                        last_error="sink down"),
            AuditEvent(document_id=did, actor="erin", action="release", detail={"note": "hello"}),
        ])
    page = ui.get(f"/quire/documents/{doc}")
    assert page.status_code == 200
    html = page.text
    assert "packet.pdf" in html and "classify: boom" in html
    # the failed attempt, with a link to the Airflow 3 UI task instance (mapped, that try) opening outside the iframe
    assert "no vendor block" in html and "ClassifyError" in html and "Traceback" in html
    assert ('href="/dags/document_pipeline/runs/manual__2026-03-01/tasks/stage.classify/mapped/2?try_number=3"'
            ' target="_top"') in html
    assert f'src="/quire/documents/{doc}/pages/1.png"' in html and "text layer" in html and "pdfium" in html
    assert "split-1" in html and "invoice" in html and "0.91" in html
    assert "sink down" in html and "DEAD" in html
    assert "erin" in html and "hello" in html
    assert 'id="resume"' in html and 'id="reprocess"' in html


def test_page_preview_is_a_small_png_rendered_from_the_blob(ui):
    doc = _stored_pdf(ui.ctx, "two.pdf", 2)
    response = ui.get(f"/quire/documents/{doc}/pages/2.png")
    assert response.status_code == 200 and response.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert 300 < image.height < 700 and image.width < image.height  # ~48 dpi of an A4 page
    assert ui.get(f"/quire/documents/{doc}/pages/3.png").status_code == 404


def test_an_image_document_previews_the_image(ui):
    buffer = io.BytesIO()
    Image.new("RGB", (1200, 1600), "white").save(buffer, format="PNG")
    content = buffer.getvalue()
    path = ui.ctx.blobs.path_for(hashlib.sha256(content).hexdigest())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    doc = make_document(ui.ctx, "scan.png", content=content)
    with transaction(ui.ctx.engine) as session:
        from quire.db.models import Document

        session.get(Document, uuid.UUID(doc)).media_type = "image/png"
    image = Image.open(io.BytesIO(ui.get(f"/quire/documents/{doc}/pages/1.png").content))
    assert image.size == (600, 800)


def test_a_missing_document_is_a_404_page(ui):
    response = ui.get(f"/quire/documents/{uuid.uuid4()}", headers={"Accept": "text/html"})
    assert response.status_code == 404 and "Not found" in response.text
