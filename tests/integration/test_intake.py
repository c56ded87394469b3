"""Intake against real PostgreSQL and the dev corpus: every arrival is accounted for."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from sqlalchemy import func, select

from quire.blobs import sha256_file
from quire.db.engine import transaction
from quire.db.models import AuditEvent, Document, DocumentSource
from quire.intake import IngestStatus, ingest_file, ingest_reference, iter_input_files, resolve_source_ref
from quire.errors import InputRejectedError

AWKWARD_OUTCOMES = {
    "ocrmypdf__invalid.pdf": IngestStatus.QUARANTINED,
    "pdfplumber__password-example.pdf": IngestStatus.QUARANTINED,
    "pypdf__r6-user-password.pdf": IngestStatus.QUARANTINED,
    "ocrmypdf__multipage.pdf": IngestStatus.NEW,
    "samplefiles__GeoTopo-komprimiert.pdf": IngestStatus.NEW,
    "ocrmypdf__vector.pdf": IngestStatus.NEW,
}


def _count(ctx, model) -> int:
    with transaction(ctx.engine) as session:
        return session.execute(select(func.count()).select_from(model)).scalar_one()


def test_new_file_becomes_a_pending_document_with_blob_source_and_audit(ctx, corpus_dir):
    path = corpus_dir / "awkward" / "ocrmypdf__multipage.pdf"
    result = ingest_file(ctx, path, source="test")
    assert result.status is IngestStatus.NEW and result.reason is None
    assert result.sha256 == sha256_file(path)
    with transaction(ctx.engine) as session:
        document = session.get(Document, uuid.UUID(result.document_id))
        assert (document.state, document.media_type, document.page_count) == ("PENDING", "application/pdf", 6)
        assert document.size_bytes == path.stat().st_size
        assert session.execute(select(DocumentSource.disposition)).scalars().all() == ["new"]
        assert session.execute(select(AuditEvent.action)).scalars().all() == ["ingested"]
    blob = ctx.blobs.path_from_uri(document.blob_uri)
    assert blob.read_bytes() == path.read_bytes()


def test_same_bytes_again_is_a_duplicate_that_keeps_its_source_row(ctx, corpus_dir, tmp_path):
    original = corpus_dir / "awkward" / "ocrmypdf__multipage.pdf"
    renamed = tmp_path / "scan-from-mailroom.pdf"
    renamed.write_bytes(original.read_bytes())
    first = ingest_file(ctx, original, source="test")
    second = ingest_file(ctx, renamed, source="mailroom")
    assert second.status is IngestStatus.DUPLICATE and second.document_id == first.document_id
    assert _count(ctx, Document) == 1
    with transaction(ctx.engine) as session:
        sources = session.execute(select(DocumentSource.original_name, DocumentSource.source,
                                         DocumentSource.disposition).order_by(DocumentSource.id)).all()
    assert sources == [("ocrmypdf__multipage.pdf", "test", "new"), ("scan-from-mailroom.pdf", "mailroom", "duplicate")]


@pytest.mark.parametrize("name", sorted(p.name for p in (Path(__file__).resolve().parents[2].parent / "shared"
                                                         / "corpus" / "dev" / "awkward").glob("*.pdf")))
def test_every_awkward_pdf_gets_a_clear_outcome(ctx, corpus_dir, name):
    result = ingest_file(ctx, corpus_dir / "awkward" / name, source="test")
    assert result.status in (IngestStatus.NEW, IngestStatus.QUARANTINED)
    if name in AWKWARD_OUTCOMES:
        assert result.status is AWKWARD_OUTCOMES[name], result.reason
    if result.status is IngestStatus.QUARANTINED:
        assert result.reason and len(result.reason) > 15  # a sentence a person can act on
        with transaction(ctx.engine) as session:
            assert session.get(Document, uuid.UUID(result.document_id)).state == "QUARANTINED"


def test_password_protected_pdf_is_quarantined_with_a_readable_reason(ctx, corpus_dir):
    result = ingest_file(ctx, corpus_dir / "awkward" / "pdfplumber__password-example.pdf")
    assert result.status is IngestStatus.QUARANTINED
    assert "password" in result.reason.lower()


def test_unsupported_type_is_rejected_audited_and_not_stored(ctx, tmp_path):
    text_file = tmp_path / "notes.txt"
    text_file.write_text("just some text, not a document")
    result = ingest_file(ctx, text_file)
    assert result.status is IngestStatus.REJECTED and result.document_id is None
    assert _count(ctx, Document) == 0
    with transaction(ctx.engine) as session:
        [audit] = session.execute(select(AuditEvent)).scalars().all()
    assert audit.action == "rejected" and audit.detail["path"] == str(text_file)
    assert not any(p.is_file() for p in ctx.settings.blob_root.rglob("*") if ".incoming" not in p.parts)


def test_oversized_file_is_rejected_before_being_stored(ctx, settings, tmp_path, corpus_dir):
    from quire.context import build_context

    small = build_context(settings.model_copy(update={"max_file_bytes": 1000}))
    result = ingest_file(small, corpus_dir / "awkward" / "ocrmypdf__multipage.pdf")
    assert result.status is IngestStatus.REJECTED and "larger than" in result.reason


@pytest.mark.parametrize("reference", ["/etc/passwd", "../outside.pdf", "a/../../outside.pdf", "C:\\x.pdf"])
def test_source_references_escaping_the_inbox_are_rejected(tmp_path, reference):
    with pytest.raises(InputRejectedError):
        resolve_source_ref(tmp_path, reference)


def test_a_symlink_out_of_the_inbox_is_rejected(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (tmp_path / "secret.pdf").write_bytes(b"%PDF-1.4")
    (inbox / "link.pdf").symlink_to(tmp_path / "secret.pdf")
    with pytest.raises(InputRejectedError, match="outside the inbox"):
        resolve_source_ref(inbox, "link.pdf")


def test_ingest_reference_records_a_rejection_for_an_escaping_reference(ctx):
    result = ingest_reference(ctx, "../../etc/passwd")
    assert result.status is IngestStatus.REJECTED and "'..'" in result.reason


def test_folders_are_walked_recursively_in_a_stable_order(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    for relative in ("b/2.pdf", "a/deep/1.pdf", "a/0.pdf", ".hidden.pdf"):
        (tmp_path / relative).write_bytes(b"x")
    assert [p.relative_to(tmp_path).as_posix() for p in iter_input_files([tmp_path])] == [
        "a/0.pdf", "a/deep/1.pdf", "b/2.pdf"]


def _ingest_in_process(url: str, home: str, path: str, barrier, queue) -> None:
    from quire.context import build_context
    from quire.settings import Settings

    ctx = build_context(Settings(home=Path(home), database_url=url))
    barrier.wait()
    queue.put(ingest_file(ctx, Path(path), source="race").status.value)


def test_two_processes_ingesting_the_same_file_at_once_leave_one_document_and_two_sources(ctx, settings, corpus_dir):
    spawn = multiprocessing.get_context("spawn")
    barrier, queue = spawn.Barrier(2), spawn.Queue()
    path = corpus_dir / "awkward" / "ocrmypdf__multipage.pdf"
    workers = [spawn.Process(target=_ingest_in_process,
                             args=(settings.database_url, str(settings.home), str(path), barrier, queue))
               for _ in range(2)]
    for worker in workers:
        worker.start()
    statuses = sorted(queue.get(timeout=120) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    assert statuses == ["duplicate", "new"]
    assert _count(ctx, Document) == 1 and _count(ctx, DocumentSource) == 2


def test_cli_ingest_json_prints_one_object_per_file(settings, corpus_dir, tmp_path):
    folder = tmp_path / "drop"
    folder.mkdir()
    for name in ("ocrmypdf__invalid.pdf", "ocrmypdf__multipage.pdf"):
        (folder / name).write_bytes((corpus_dir / "awkward" / name).read_bytes())
    (folder / "readme.txt").write_text("not a document")
    env = {"QUIRE_DATABASE_URL": settings.database_url, "QUIRE_HOME": str(settings.home), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-m", "quire.cli", "ingest", "--json", str(folder)],
                         capture_output=True, text=True, env=env, timeout=120, check=True)
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(Path(r["path"]).name, r["status"]) for r in rows] == [
        ("ocrmypdf__invalid.pdf", "quarantined"), ("ocrmypdf__multipage.pdf", "new"), ("readme.txt", "rejected")]
    assert all(set(r) == {"path", "sha256", "document_id", "status", "reason"} for r in rows)
    again = subprocess.run([sys.executable, "-m", "quire.cli", "ingest", "--json", str(folder)],
                           capture_output=True, text=True, env=env, timeout=120, check=True)
    assert [json.loads(line)["status"] for line in again.stdout.splitlines()] == [
        "duplicate", "duplicate", "rejected"]
