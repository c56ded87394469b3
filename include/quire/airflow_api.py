"""A small client for the one Airflow REST call the UI's "resume" action makes.

Resuming a failed document clears the failed task instances of its DAG run and
their downstream (``POST /api/v2/dags/{dag_id}/clearTaskInstances``), so Airflow
re-runs them and everything after them while the upstream task instances keep
their state.

The UI plugin builds it with the operator's own token, so Airflow checks the
operator's permission and its audit log names the operator. Plain ``urllib``:
``include/quire`` never imports Airflow.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Protocol


class AirflowApiError(Exception):
    """Airflow's API refused the call or could not be reached."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class AirflowRunNotFoundError(AirflowApiError):
    """Airflow does not know the DAG or the run (deleted, or another Airflow)."""


@dataclass(frozen=True)
class ClearedTaskInstance:
    task_id: str
    map_index: int
    state: str | None


class TaskInstanceClearer(Protocol):
    """What ``quire.services.resume_document`` needs from Airflow; tests hand it a double."""

    def clear_failed(self, dag_id: str, run_id: str) -> list[ClearedTaskInstance]: ...


class AirflowApi:
    """``/api/v2`` at ``base_url``, authenticated with a bearer token."""

    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base_url}/api/v2{path}", data=data, method=method, headers={
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json",
            "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode(errors="replace")[:1000]
            kind = AirflowRunNotFoundError if exc.code == 404 else AirflowApiError
            raise kind(f"{method} {path}: HTTP {exc.code}: {detail}", exc.code) from exc
        except (urllib.error.URLError, OSError) as exc:
            raise AirflowApiError(f"{method} {path}: Airflow's API at {self.base_url} is unreachable: {exc}") \
                from exc
        return json.loads(payload) if payload else None

    def failed_task_instances(self, dag_id: str, run_id: str) -> list[tuple[str, int]]:
        """The run's failed (and upstream_failed) task instances as (task_id, map_index)."""
        query = urllib.parse.urlencode({"state": ["failed", "upstream_failed"], "limit": 1000}, doseq=True)
        result = self._call("GET", f"/dags/{urllib.parse.quote(dag_id, safe='')}/dagRuns/"
                                   f"{urllib.parse.quote(run_id, safe='')}/taskInstances?{query}")
        return [(ti["task_id"], int(ti.get("map_index", -1))) for ti in (result or {}).get("task_instances", [])]

    def clear_failed(self, dag_id: str, run_id: str) -> list[ClearedTaskInstance]:
        """Clear the failed task instances of one run and everything downstream of them.

        Measured on Airflow 3.3.2: ``{"dag_run_id", "only_failed": true, "include_downstream": true}``
        clears the failed task instances only; ``include_downstream`` takes effect only with ``task_ids``,
        and ``only_failed`` then filters the (successful, all_done) downstream back out. So the failed
        instances are named explicitly and ``only_failed`` is off: the downstream publish and dispatch run
        again, and nothing upstream of a failure is touched.
        """
        markers = self.failed_task_instances(dag_id, run_id)
        if not markers:
            return []
        result = self._call("POST", f"/dags/{urllib.parse.quote(dag_id, safe='')}/clearTaskInstances",
                            {"dag_run_id": run_id, "task_ids": [[t, m] if m >= 0 else t for t, m in markers],
                             "include_downstream": True, "include_upstream": False, "only_failed": False,
                             "dry_run": False})
        return [ClearedTaskInstance(ti.get("task_id", ""), int(ti.get("map_index", -1)), ti.get("state"))
                for ti in (result or {}).get("task_instances", [])]
