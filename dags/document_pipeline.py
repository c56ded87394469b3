"""document_pipeline: fetch_pending -> [parse -> split -> classify -> extract -> publish] per chunk -> dispatch.

Thin by design: every task is a call into ``_quire_adapter``, which calls one
function of ``include/quire``. Nothing here touches a database when the file
is parsed.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import _quire_adapter as adapter
from _quire_adapter import DOCUMENT_DAG_ID, LABEL_KEY, PENDING_DOCUMENTS_URI
from airflow.sdk import (Asset, AssetOrTimeSchedule, CronTriggerTimetable, Param, dag, get_current_context, task,
                         task_group)

DOC_MD = """
### Quire document pipeline

Claims pending documents (`FOR UPDATE SKIP LOCKED`, with a lease owned by this run), groups them into chunks
and runs each chunk through **parse -> split -> classify -> extract -> publish** in its own mapped task group,
so one document failing never blocks another chunk. Each mapped instance is labelled with the document it
carries (`name [sha256 prefix]`, `+N more` for a chunk). `dispatch_outbox` then delivers what was published.

* **Retries**: a transient failure (engine timeout, database hiccup) retries the task with exponential backoff;
  documents already past the stage are skipped and their results read back. A terminal failure (encrypted,
  malformed, business rule) fails the task at once and leaves the document FAILED / QUARANTINED / BLOCKED
  with its reason; the rest of the chunk goes on.
* **Resume**: *Clear* the failed task instances of a run (only failed, with downstream) to resume there.
* **Runs**: on every `quire://documents/pending` Asset event (inbox_scan), every 10 minutes, and by hand with
  the params below. A **backfill** over a date range reprocesses the documents received in each run's
  data interval (idempotent: the same results are not delivered twice).

State lives in PostgreSQL; `quire status` and `quire show ID` print it. XCom carries ids and counts only.
"""

STAGE_TASK_DEFAULTS = dict(map_index_template="{{ " + LABEL_KEY + " }}")


@dag(
    dag_id=DOCUMENT_DAG_ID,
    schedule=AssetOrTimeSchedule(
        timetable=CronTriggerTimetable("*/10 * * * *", timezone="UTC", interval=timedelta(minutes=10)),
        assets=Asset(PENDING_DOCUMENTS_URI),
    ),
    start_date=datetime(2024, 1, 1),
    catchup=False,
    max_active_runs=2,
    max_active_tasks=64,
    tags=["quire", "documents"],
    doc_md=DOC_MD,
    default_args=adapter.DEFAULT_ARGS,
    params={
        "document_ids": Param(
            [], type="array", items={"type": "string", "minLength": 6},
            title="Documents",
            description="Only these documents: ids, full sha256 hashes or sha256 prefixes (6+ characters). "
                        "Empty: every pending document.",
        ),
        "force_reprocess": Param(
            False, type="boolean", title="Force reprocess",
            description="Re-open the listed documents first, even COMPLETE or FAILED/BLOCKED/QUARANTINED ones, "
                        "and run them from parse again (needs Documents).",
        ),
        "chunk_size": Param(
            0, type="integer", minimum=0, maximum=500, title="Chunk size",
            description="Documents per mapped task group instance. 0 = automatic: one per instance when few "
                        "are pending (each shows alone in the grid), larger chunks for a backlog.",
        ),
        "limit": Param(
            1000, type="integer", minimum=1, maximum=20000, title="Limit",
            description="Claim at most this many documents in this run (the rest wait for the next run).",
        ),
    },
)
def document_pipeline():
    @task
    def fetch_pending() -> list[dict]:
        return adapter.fetch_pending(get_current_context())

    @task_group(group_id="process_chunk")
    def process_chunk(chunk: dict):
        @task(**STAGE_TASK_DEFAULTS)
        def parse(chunk: dict) -> dict:
            return adapter.advance(get_current_context(), "parse", chunk)

        # after parse: all_done, because each stage is state-driven. A document that failed upstream is
        # simply not ready for this stage; the others in the chunk go on.
        @task(trigger_rule="all_done", **STAGE_TASK_DEFAULTS)
        def split(chunk: dict) -> dict:
            return adapter.advance(get_current_context(), "split", chunk)

        @task(trigger_rule="all_done", **STAGE_TASK_DEFAULTS)
        def classify(chunk: dict) -> dict:
            return adapter.advance(get_current_context(), "classify", chunk)

        @task(trigger_rule="all_done", **STAGE_TASK_DEFAULTS)
        def extract(chunk: dict) -> dict:
            return adapter.advance(get_current_context(), "extract", chunk)

        @task(trigger_rule="all_done", **STAGE_TASK_DEFAULTS)
        def publish(chunk: dict) -> dict:
            return adapter.advance(get_current_context(), "publish", chunk)

        parse(chunk) >> split(chunk) >> classify(chunk) >> extract(chunk) >> publish(chunk)

    @task(trigger_rule="all_done")
    def dispatch_outbox() -> dict:
        return adapter.dispatch_outbox(get_current_context())

    process_chunk.expand(chunk=fetch_pending()) >> dispatch_outbox()


document_pipeline()
