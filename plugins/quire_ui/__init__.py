"""Airflow plugin: Quire's Documents pages in the Airflow UI's navigation.

The api-server mounts the FastAPI app at ``/quire``; the nav entry "Documents"
shows ``/quire/documents`` inside the Airflow UI (an iframe under
``/plugin/quire-documents``). Nothing here touches a database at import time:
the app builds Quire's context on its first request.
"""

from __future__ import annotations

from airflow.plugins_manager import AirflowPlugin

from quire_ui.app import PREFIX, app


class QuireUIPlugin(AirflowPlugin):
    name = "quire_ui"
    fastapi_apps = [{"app": app, "url_prefix": PREFIX, "name": "Quire documents"}]
    external_views = [
        {"name": "Documents", "href": f"{PREFIX}/documents", "destination": "nav", "url_route": "quire-documents",
         "icon": f"{PREFIX}/static/documents.svg", "category": "Quire"},
        {"name": "Document operations", "href": f"{PREFIX}/operations", "destination": "nav",
         "url_route": "quire-operations", "icon": f"{PREFIX}/static/gauge.svg", "category": "Quire"},
    ]
