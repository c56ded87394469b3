"""The task boundary of the Quire DAGs: build the context, call one function, translate errors.

Every Quire task body is a one-line call into this module, so the DAG files
stay declarative and the translation from Quire's outcomes to Airflow's task
states happens in exactly one place (``advance``):

* a document that ended FAILED/BLOCKED/QUARANTINED in this attempt
  -> ``AirflowFailException`` (no retry; the document already carries its
  terminal state and reason);
* a document that failed in a retryable way and has tries left
  -> ``quire.errors.TransientError`` so Airflow retries the task with
  exponential backoff (documents already past the stage are skipped, their
  results read back, not recomputed);
* otherwise the outcome's counts go to XCom (never text or bytes).

This module is imported when a DAG file is parsed, so nothing here imports
Quire's heavy modules or touches a database at import time: all of that
happens inside the functions, i.e. when a task runs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

DOCUMENT_DAG_ID = "document_pipeline"
INBOX_DAG_ID = "inbox_scan"
#: emitted by inbox_scan when it registered new documents; document_pipeline is scheduled on it
PENDING_DOCUMENTS_URI = "quire://documents/pending"
#: the context key a mapped task sets so ``map_index_template`` can show what the instance carries
LABEL_KEY = "quire_label"
STAGES = ("parse", "split", "classify", "extract", "publish")
BACKFILL_RUN_TYPE = "backfill"
#: retries with exponential backoff for transient failures; terminal ones fail at once (AirflowFailException).
#: weight_rule "upstream": a chunk's next stage goes before other chunks' earlier stages, so chunks finish one
#: after another instead of every chunk's cheap later stages queueing up behind all the parses (a tail of
#: short task instances at the end of a backlog, each paying Airflow's per-instance latency).
DEFAULT_ARGS = {
    "owner": "quire",
    "weight_rule": "upstream",
    "retries": 3,
    "retry_delay": timedelta(seconds=5),
    "retry_exponential_backoff": 2.0,
    "max_retry_delay": timedelta(minutes=2),
}


def quire_context(*, migrate: bool = False):
    """The Quire context for this task process (settings from ``QUIRE_*``; ``quire up`` sets them)."""
    from quire.context import build_context
    from quire.settings import get_settings

    return build_context(get_settings(), migrate_schema=migrate)


def _owner(context: Any) -> str:
    ti = context["ti"]
    return f"{ti.dag_id}/{ti.run_id}"


def _slots() -> int:
    """Task instances that run at once: what automatic chunking sizes for."""
    try:
        return max(1, int(os.environ.get("AIRFLOW__CORE__PARALLELISM", "")))
    except ValueError:
        return max(1, os.cpu_count() or 1)


def _request_id(owner: str, document_id: str, action: str) -> str:
    """A request id that is the same when a retried task repeats the same request (so it is a no-op)."""
    return f"{action}-" + hashlib.sha256(f"{owner}|{document_id}".encode()).hexdigest()[:40]


# ---------------------------------------------------------------- document_pipeline


def fetch_pending(context: Any) -> list[dict]:
    """Claim documents for this run and return the chunks the mapped task group runs over."""
    from airflow.sdk.exceptions import AirflowFailException

    from quire.errors import TerminalError
    from quire.pipeline import plan_chunks
    from quire.runs import claim_documents
    from quire.services import documents_received_between, reprocess_document, resolve_document_ids

    ctx = quire_context(migrate=True)
    params = context["params"]
    owner = _owner(context)
    references = [str(r).strip() for r in (params.get("document_ids") or []) if str(r).strip()]
    try:
        document_ids = resolve_document_ids(ctx, references) if references else None
    except TerminalError as exc:
        raise AirflowFailException(str(exc)) from exc

    received_between = None
    if context["dag_run"].run_type == BACKFILL_RUN_TYPE:
        received_between = (context["data_interval_start"], context["data_interval_end"])
        reopen = documents_received_between(ctx, *received_between)
        log.info("backfill %s .. %s: %d documents received in the interval", *received_between, len(reopen))
    elif params.get("force_reprocess"):
        if not document_ids:
            raise AirflowFailException("force_reprocess needs document_ids (or run a backfill over a date range)")
        reopen = document_ids
    else:
        reopen = []
    for document_id in reopen:
        # one request per try: a retried fetch may reopen what an earlier try was refused (e.g. still leased);
        # what this run already reopened and claimed is leased to it, so reprocess leaves it alone
        request_id = _request_id(f"{owner}#{context['ti'].try_number}", document_id, "reprocess")
        result = reprocess_document(ctx, document_id, actor=owner, request_id=request_id)
        log.info("reprocess %s: %s (%s)", document_id, result.state, result.message)

    claim = claim_documents(ctx, owner=owner, limit=int(params.get("limit") or 1000), document_ids=document_ids,
                            received_between=received_between)
    for document_id in claim.exhausted:
        log.warning("document %s: attempt budget exhausted, now FAILED (`quire retry` re-opens it)", document_id)
    chunks = plan_chunks(claim.claimed, int(params.get("chunk_size") or 0), slots=_slots())
    log.info("claimed %d documents in %d chunks for %s", len(claim.claimed), len(chunks), owner)
    return chunks


def label_instance(context: Any, chunk: dict) -> None:
    """Name the mapped instance after what it carries (read by ``map_index_template``)."""
    context[LABEL_KEY] = chunk["label"]


def advance(context: Any, stage: str, chunk: dict) -> dict:
    """Run one stage over a chunk and translate its outcome (see the module docstring)."""
    from airflow.sdk.exceptions import AirflowFailException

    from quire.errors import TransientError
    from quire.pipeline import advance_chunk
    from quire.runs import Attempt

    label_instance(context, chunk)
    ti = context["ti"]
    attempt = Attempt(ti.dag_id, ti.run_id, ti.task_id, try_number=ti.try_number, max_tries=ti.max_tries,
                      map_index=ti.map_index)
    outcome = advance_chunk(quire_context(), stage, chunk["document_ids"], attempt)
    log.info("%s", outcome.summary())
    if outcome.terminal_failures:
        raise AirflowFailException(outcome.summary())
    if outcome.transient_failures:
        raise TransientError(outcome.summary())
    return outcome.to_xcom()


def dispatch_outbox(context: Any) -> dict:
    from quire.stages.publish import dispatch_outbox as dispatch

    result = dispatch(quire_context(), owner=_owner(context))
    log.info("outbox: %s", json.dumps(result.to_xcom()))
    return result.to_xcom()


# ---------------------------------------------------------------- inbox_scan


def scan_inbox(context: Any) -> dict:
    """Ingest files that appeared in (or changed in) the inbox since the last scan.

    A small cursor (path -> size, mtime) under the cache folder keeps files
    already taken from being registered as duplicates on every scan. Skips the
    task (so no Asset event is emitted) when nothing new was registered.
    """
    from airflow.sdk.exceptions import AirflowSkipException

    from quire.intake import IngestStatus, ingest_reference, iter_input_files

    ctx = quire_context(migrate=True)
    inbox = ctx.settings.inbox.expanduser()
    if not inbox.is_dir():
        raise AirflowSkipException(f"inbox {inbox} does not exist")
    cursor_path = ctx.settings.cache_root / "inbox_scan.json"
    seen = _read_cursor(cursor_path)
    counts = dict.fromkeys((s.value for s in IngestStatus), 0)
    for path in iter_input_files([inbox]):
        # lexical reference: ingest_reference resolves it and refuses links that lead out of the inbox
        reference = str(path.relative_to(inbox))
        try:
            stat = path.stat()
            signature = [stat.st_size, stat.st_mtime_ns]
        except OSError:
            signature = None
        if signature is not None and seen.get(reference) == signature:
            continue
        result = ingest_reference(ctx, reference, source="inbox")
        counts[result.status.value] += 1
        if signature is not None:
            seen[reference] = signature
        log.info("%-11s %s", result.status.value, reference)
    _write_cursor(cursor_path, seen)
    log.info("inbox %s: %s", inbox, counts)
    if not counts[IngestStatus.NEW.value]:
        raise AirflowSkipException(f"no new documents in {inbox} ({counts})")
    return counts


def _read_cursor(path: Path) -> dict[str, list[int]]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _write_cursor(path: Path, seen: dict[str, list[int]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(seen, sort_keys=True))
    os.replace(tmp, path)
