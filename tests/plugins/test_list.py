"""The Documents list: filters, search, counts per state, keyset pages."""

from datetime import UTC, datetime, timedelta

from quire.db.engine import transaction
from quire.db.models import DocumentSource
from quire.states import State
from tests.integration.factories import make_document

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _add_source(ctx, document_id: str, source: str, name: str = "x.pdf") -> None:
    import uuid

    with transaction(ctx.engine) as session:
        session.add(DocumentSource(document_id=uuid.UUID(document_id), original_name=name, source=source,
                                   disposition="new"))


def _names(response) -> list[str]:
    assert response.status_code == 200, response.text
    return [row["name"] for row in response.json()["documents"]]


def test_filters_by_state_type_date_and_source(ui):
    a = make_document(ui.ctx, "a-invoice.pdf", state=State.FAILED, doc_type="invoice", received_at=T0)
    b = make_document(ui.ctx, "b-receipt.pdf", state=State.COMPLETE, doc_type="receipt",
                      received_at=T0 + timedelta(days=1))
    c = make_document(ui.ctx, "c-invoice.pdf", state=State.FAILED, doc_type="invoice",
                      received_at=T0 + timedelta(days=2))
    _add_source(ui.ctx, a, "inbox")
    _add_source(ui.ctx, b, "email")
    _add_source(ui.ctx, c, "email")

    assert _names(ui.get("/quire/api/documents")) == ["c-invoice.pdf", "b-receipt.pdf", "a-invoice.pdf"]
    assert _names(ui.get("/quire/api/documents?state=FAILED")) == ["c-invoice.pdf", "a-invoice.pdf"]
    assert _names(ui.get("/quire/api/documents?state=FAILED&state=COMPLETE")) == [
        "c-invoice.pdf", "b-receipt.pdf", "a-invoice.pdf"]
    assert _names(ui.get("/quire/api/documents?doc_type=receipt")) == ["b-receipt.pdf"]
    assert _names(ui.get("/quire/api/documents?source=email")) == ["c-invoice.pdf", "b-receipt.pdf"]
    # a date-only "to" includes that day
    assert _names(ui.get("/quire/api/documents?from=2026-03-02&to=2026-03-02")) == ["b-receipt.pdf"]
    assert _names(ui.get("/quire/api/documents?from=2026-03-02")) == ["c-invoice.pdf", "b-receipt.pdf"]
    assert _names(ui.get("/quire/api/documents?state=FAILED&source=email&doc_type=invoice")) == ["c-invoice.pdf"]


def test_unknown_state_or_bad_date_is_a_400(ui):
    assert ui.get("/quire/api/documents?state=NOPE").status_code == 400
    assert ui.get("/quire/api/documents?from=yesterday").status_code == 400
    assert ui.get("/quire/api/documents?cursor=garbage").status_code == 400


def test_search_by_name_substring_or_hash_prefix(ui):
    make_document(ui.ctx, "Invoice_ACME_2024-03.pdf", content=b"acme")
    make_document(ui.ctx, "receipt 100%.jpg", content=b"receipt")
    other = make_document(ui.ctx, "scan.pdf", content=b"scan")
    sha = ui.get(f"/quire/api/documents/{other}").json()["sha256"]

    assert _names(ui.get("/quire/api/documents?q=acme")) == ["Invoice_ACME_2024-03.pdf"]  # case-insensitive
    assert _names(ui.get("/quire/api/documents?q=100%25")) == ["receipt 100%.jpg"]  # % is literal
    assert _names(ui.get("/quire/api/documents", params={"q": "ACM_"})) == []  # _ is literal too
    assert _names(ui.get(f"/quire/api/documents?q={sha[:8]}")) == ["scan.pdf"]
    assert _names(ui.get(f"/quire/api/documents?q={sha[:8].upper()}")) == ["scan.pdf"]


def test_counts_per_state_follow_the_other_filters_but_not_the_state_filter(ui):
    for i in range(3):
        make_document(ui.ctx, f"f{i}.pdf", state=State.FAILED, doc_type="invoice")
    make_document(ui.ctx, "r.pdf", state=State.REVIEW_REQUIRED, doc_type="receipt")
    counts = ui.get("/quire/api/documents?state=FAILED").json()["counts"]
    assert counts["FAILED"] == 3 and counts["REVIEW_REQUIRED"] == 1 and counts["PENDING"] == 0
    assert set(counts) == {s.value for s in State}
    counts = ui.get("/quire/api/documents?doc_type=receipt").json()["counts"]
    assert counts["FAILED"] == 0 and counts["REVIEW_REQUIRED"] == 1


def test_keyset_pages_cover_every_document_once_forward_and_back(ui):
    # same received_at for many rows: the id breaks ties, so no row is skipped or repeated
    for i in range(23):
        make_document(ui.ctx, f"doc-{i:02d}.pdf", received_at=T0 + timedelta(minutes=i // 4))
    seen, cursor, pages = [], None, []
    while True:
        body = ui.get("/quire/api/documents", params={"limit": 5, **({"cursor": cursor} if cursor else {})}).json()
        pages.append(body)
        seen += [r["name"] for r in body["documents"]]
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert len(pages) == 5 and len(seen) == 23 and len(set(seen)) == 23
    assert pages[0]["prev_cursor"] is None
    received = [r["received_at"] for p in pages for r in p["documents"]]
    assert received == sorted(received, reverse=True)
    # back from the last page gives exactly the page before it
    back = ui.get("/quire/api/documents", params={"limit": 5, "cursor": pages[-1]["prev_cursor"]}).json()
    assert [r["name"] for r in back["documents"]] == [r["name"] for r in pages[-2]["documents"]]
    assert back["next_cursor"] is not None
    # back to the first page: no newer page
    first = ui.get("/quire/api/documents", params={"limit": 5, "cursor": pages[1]["prev_cursor"]}).json()
    assert [r["name"] for r in first["documents"]] == [r["name"] for r in pages[0]["documents"]]
    assert first["prev_cursor"] is None


def test_html_list_shows_counts_rows_and_filter_links(ui):
    doc = make_document(ui.ctx, "broken.pdf", state=State.FAILED, state_reason="parse: boom")
    make_document(ui.ctx, "fine.pdf", state=State.COMPLETE)
    page = ui.get("/quire/documents?state=FAILED")
    assert page.status_code == 200
    assert f'href="/quire/documents/{doc}"' in page.text and "parse: boom" in page.text
    assert "fine.pdf" not in page.text
    assert 'data-state="FAILED"' in page.text and 'href="/quire/documents?state=COMPLETE"' in page.text
