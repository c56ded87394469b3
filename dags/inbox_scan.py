"""inbox_scan: every minute, register new files from the inbox folder; tell document_pipeline when there are.

The single task emits the ``quire://documents/pending`` Asset when it
registered at least one new document (a scan with nothing new ends skipped,
which emits no event), so document_pipeline runs right after files arrive.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import _quire_adapter as adapter
from _quire_adapter import INBOX_DAG_ID, PENDING_DOCUMENTS_URI
from airflow.sdk import Asset, dag, get_current_context, task

DOC_MD = """
### Quire inbox scan

Every minute, registers files that appeared in the configured inbox folder (`QUIRE_INBOX_ROOT`, default
`$QUIRE_HOME/inbox`) as documents: validated, hashed, stored content-addressed, duplicates recognised by
sha256. When new documents were registered it emits the `quire://documents/pending` Asset, which schedules
`document_pipeline`. A scan that finds nothing new is *skipped* (no Asset event).
"""


@dag(
    dag_id=INBOX_DAG_ID,
    schedule=timedelta(minutes=1),
    start_date=datetime(2024, 1, 1),
    catchup=False,
    max_active_runs=1,
    tags=["quire", "intake"],
    doc_md=DOC_MD,
    default_args=adapter.DEFAULT_ARGS,
)
def inbox_scan():
    @task(outlets=[Asset(PENDING_DOCUMENTS_URI)])
    def scan_inbox() -> dict:
        return adapter.scan_inbox(get_current_context())

    scan_inbox()


inbox_scan()
