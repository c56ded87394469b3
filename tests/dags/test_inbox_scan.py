"""inbox_scan registers new inbox files once and emits the pending-documents Asset only when it did."""

from __future__ import annotations

import shutil

import pytest
from sqlalchemy import select

pytestmark = pytest.mark.usefixtures("airflow_db")


def _scan_state(dag_run) -> str:
    from airflow.models.taskinstance import TaskInstance
    from airflow.settings import Session

    with Session() as session:
        return session.execute(select(TaskInstance.state).where(
            TaskInstance.dag_id == dag_run.dag_id, TaskInstance.run_id == dag_run.run_id)).scalar_one()


def _asset_events() -> int:
    from airflow.models.asset import AssetEvent, AssetModel
    from airflow.settings import Session

    with Session() as session:
        return len(session.execute(select(AssetEvent.id).join(AssetModel, AssetModel.id == AssetEvent.asset_id)
                                   .where(AssetModel.uri == "quire://documents/pending")).all())


def test_new_inbox_files_are_registered_once_and_announce_the_asset(airflow_db, quire_env, ctx, sample_files):
    from airflow.dag_processing.dagbag import DagBag

    from quire.services import state_counts
    from tests.dags.conftest import DAGS_FOLDER

    dag = DagBag(dag_folder=str(DAGS_FOLDER)).dags["inbox_scan"]
    inbox = ctx.settings.inbox
    (inbox / "batch").mkdir(parents=True)
    shutil.copy(sample_files["invoice"], inbox / "batch" / "a.pdf")
    shutil.copy(sample_files["encrypted"], inbox / "locked.pdf")
    events_before = _asset_events()

    first = dag.test()
    assert _scan_state(first) == "success"
    counts = state_counts(ctx)
    assert counts["PENDING"] == 1 and counts["QUARANTINED"] == 1
    assert _asset_events() == events_before + 1

    second = dag.test()  # nothing new: skipped, no event, no duplicate rows
    assert _scan_state(second) == "skipped"
    assert _asset_events() == events_before + 1
    assert state_counts(ctx)["PENDING"] == 1
