"""The Documents pages in a real browser, inside a real Airflow started by `quire up`.

An invoice goes through the real document_pipeline DAG with the extractor
switched off, so it ends FAILED at extract. The test then does what an operator
does: sign in to Airflow, open Documents from the navigation, filter to FAILED,
open the document, switch the fault off (the "fix"), press Resume, and watch the
document reach PUBLISHED / COMPLETE. Screenshots of the list and the document
page are written to docs/ (``QUIRE_SCREENSHOTS=0`` to skip).

Playwright drives Debian's Chromium (it cannot download its own browser here).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("QUIRE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage"]
DONE = ("PUBLISHED", "COMPLETE")


def _need_browser() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("the `playwright` Python package is not installed (requirements.txt)")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt package `chromium`, see packages.txt)")


def _invoice_pdf(path: Path) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    lines = ["Acme Supplies Inc", "12 Market Street, Springfield", "", "Invoice No: INV-7001",
             "Invoice Date: 2024-03-05", "Bill To: Quire Test Customer Ltd", "",
             "Description                          Qty      Unit price      Amount",
             "Paper, A4, 500 sheets                  4            5.25       21.00",
             "Toner cartridge                        1           89.00       89.00", "",
             "Subtotal: 110.00", "Tax: 0.00", "Total: 110.00 USD"]
    pdf.setFont("Helvetica-Bold", 18)
    pdf.drawString(60, 800, "INVOICE")
    pdf.setFont("Helvetica", 11)
    for i, line in enumerate(lines):
        pdf.drawString(60, 780 - 18 * i, line)
    pdf.showPage()
    pdf.save()
    return path


@pytest.fixture
def airflow(settings, tmp_path):
    """Airflow's components started by `quire up` for this test's database, stopped afterwards."""
    _need_browser()
    from quire import airflow_runtime as rt

    faults = tmp_path / "faults"
    faults.mkdir()
    (faults / "extractor-down").touch()
    config = rt.RuntimeConfig(port=rt.free_port(), parallelism=2, extra_env={
        "QUIRE_EXTRACTOR": "tests.browser.faults:extractor_down_while_flagged",
        "QUIRE_TEST_FAULT_DIR": str(faults),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
    })
    try:
        result = rt.up(settings, config, wait_timeout=240)
    except Exception:
        rt.down(settings)
        raise
    try:
        yield result, faults
    finally:
        rt.down(settings)


def _wait(predicate, timeout: float, what: str, interval: float = 1.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _neighbours(ctx) -> None:
    """Documents in states no run picks up, so the list looks like a working day (and FAILED stays one)."""
    from datetime import UTC, datetime, timedelta

    from quire.states import State
    from tests.integration.factories import make_document

    now = datetime.now(UTC)
    rows = [("acme-2024-0311.pdf", State.COMPLETE, "invoice", None),
            ("globex-credit-note-17.pdf", State.COMPLETE, "credit_note", None),
            ("scan_0042.tiff", State.REVIEW_REQUIRED, "receipt", "review: total_amount low confidence"),
            ("hr-payslips-march.pdf", State.QUARANTINED, None, "parse: the PDF is encrypted and needs a password"),
            ("initech-0099.pdf", State.BLOCKED, "invoice", "blocked by total_matches_lines"),
            ("umbrella-7781.pdf", State.COMPLETE, "invoice", None),
            ("wonka-receipt.jpg", State.COMPLETE, "receipt", None)]
    for i, (name, state, doc_type, reason) in enumerate(rows):
        make_document(ctx, name, state=state, doc_type=doc_type, state_reason=reason, page_count=1 + i % 3,
                      received_at=now - timedelta(minutes=7 * (i + 1)))


def _failed_document(ctx) -> dict | None:
    from quire.queries import DocumentFilter, list_page

    rows = list_page(ctx, DocumentFilter(states=("FAILED",)), with_counts=False).rows
    return rows[0] if rows else None


def test_resume_a_failed_document_from_the_airflow_ui(airflow, ctx, settings, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from quire.airflow_runtime import AirflowClient
    from quire.intake import ingest_file

    up, faults = airflow
    doc = ingest_file(ctx, _invoice_pdf(tmp_path / "invoice-7001.pdf"), source="browser-test")
    client = AirflowClient(up.url, up.user, up.password)
    client.wait_for_dag("document_pipeline", timeout=180)
    # a scheduled run may claim it first; either way the document ends FAILED at extract
    client.trigger("document_pipeline", {"document_ids": [str(doc.document_id)]})
    failed = _wait(lambda: _failed_document(ctx), 300, "the document to fail at extract", interval=2)
    _neighbours(ctx)

    shots = os.environ.get("QUIRE_SCREENSHOTS", "1") != "0"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        try:
            page.goto(f"{up.url}/auth/login/")
            page.locator("input[name=username]").fill(up.user)
            page.locator("input[name=password]").fill(up.password)
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url(lambda url: "/auth/login" not in url, timeout=60_000)

            # Documents from Airflow's navigation: the plugin's page in an iframe
            page.goto(f"{up.url}/plugin/quire-documents")
            frame = page.frame_locator("iframe")
            expect(frame.locator("h1", has_text="Documents")).to_be_visible(timeout=60_000)
            expect(frame.locator("#documents")).to_contain_text(failed["name"])
            if shots:
                page.wait_for_timeout(1000)  # let the iframe paint before the screenshot
                page.screenshot(path=str(REPO_ROOT / "docs" / "ui-documents.png"))
            frame.locator('.states a[data-state="FAILED"]').click()
            expect(frame.locator("#documents tbody tr")).to_have_count(1, timeout=30_000)
            expect(frame.locator("#documents")).to_contain_text(failed["name"])

            frame.locator(f'#documents a[href$="/documents/{failed["id"]}"]').click()
            expect(frame.locator("#doc-state")).to_contain_text("FAILED", timeout=30_000)
            expect(frame.locator("#timeline")).to_contain_text("failed")
            expect(frame.locator("#timeline")).to_contain_text("ExtractorDownError")

            (faults / "extractor-down").unlink()  # the fix; now resume at the failed task
            frame.locator("#resume").click()
            expect(frame.locator("#notice")).to_contain_text("cleared", timeout=60_000)

            def reached_done() -> bool:
                page.reload()
                state = page.frame_locator("iframe").locator("#doc-state").inner_text(timeout=30_000)
                return state.strip() in DONE

            _wait(reached_done, 300, "the document to reach PUBLISHED or COMPLETE", interval=3)
            frame = page.frame_locator("iframe")
            expect(frame.locator("#audit")).to_contain_text("task_instances_cleared")
            if shots:
                frame.locator("#pages img").first.scroll_into_view_if_needed()
                page.screenshot(path=str(REPO_ROOT / "docs" / "ui-document.png"), full_page=False)
        finally:
            browser.close()
