"""The resume client against a stand-in HTTP server speaking Airflow's two endpoints."""

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from quire.airflow_api import AirflowApi, AirflowApiError, AirflowRunNotFoundError


@pytest.fixture
def server():
    seen: list[tuple[str, str, dict | None, str]] = []
    replies: dict[str, tuple[int, dict]] = {}

    class Handler(BaseHTTPRequestHandler):
        def _reply(self, method):
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            seen.append((method, self.path, body, self.headers.get("Authorization")))
            code, payload = replies.get(method, (200, {}))
            data = json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self._reply("GET")

        def do_POST(self):
            self._reply("POST")

        def log_message(self, *args):
            pass

    httpd = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}", seen, replies
    httpd.shutdown()


def test_clear_failed_names_the_failed_instances_and_clears_their_downstream(server):
    url, seen, replies = server
    replies["GET"] = (200, {"task_instances": [{"task_id": "process_chunk.extract", "map_index": 2},
                                               {"task_id": "dispatch_outbox", "map_index": -1}]})
    replies["POST"] = (200, {"task_instances": [{"task_id": "process_chunk.extract", "map_index": 2},
                                                {"task_id": "process_chunk.publish", "map_index": 2}]})
    cleared = AirflowApi(url, "tok").clear_failed("document_pipeline", "manual__2026-01-01T00:00:00+00:00")
    assert [(c.task_id, c.map_index) for c in cleared] == [("process_chunk.extract", 2),
                                                           ("process_chunk.publish", 2)]
    (get, get_path, _, auth), (post, post_path, body, _) = seen
    assert auth == "Bearer tok"
    assert get_path.startswith("/api/v2/dags/document_pipeline/dagRuns/manual__2026-01-01T00%3A00%3A00%2B00%3A00"
                               "/taskInstances?state=failed&state=upstream_failed")
    assert post_path == "/api/v2/dags/document_pipeline/clearTaskInstances"
    assert body == {"dag_run_id": "manual__2026-01-01T00:00:00+00:00",
                    "task_ids": [["process_chunk.extract", 2], "dispatch_outbox"], "include_downstream": True,
                    "include_upstream": False, "only_failed": False, "dry_run": False}


def test_nothing_failed_clears_nothing(server):
    url, seen, replies = server
    replies["GET"] = (200, {"task_instances": []})
    assert AirflowApi(url, "tok").clear_failed("d", "r") == []
    assert [m for m, *_ in seen] == ["GET"]


def test_unknown_run_and_unreachable_api_are_told_apart(server):
    url, _, replies = server
    replies["GET"] = (404, {"detail": "Dag Run not found"})
    with pytest.raises(AirflowRunNotFoundError):
        AirflowApi(url, "tok").clear_failed("d", "r")
    with pytest.raises(AirflowApiError) as info:
        AirflowApi("http://127.0.0.1:9", "tok", timeout=2).clear_failed("d", "r")
    assert not isinstance(info.value, AirflowRunNotFoundError)
