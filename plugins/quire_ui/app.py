"""Quire's pages inside the Airflow UI: documents list, document page, actions, operations metrics.

A FastAPI app the api-server mounts (``url_prefix`` ``/quire``). Plugin apps are
not protected by Airflow, so every route depends on Airflow's own
authentication (``GetUserDep``: the UI's ``_token`` cookie, or a bearer token);
actions that change state also need permission to edit DAG runs
(``requires_access_dag("PUT", DagAccessEntity.RUN)``, the check Airflow's own
"clear/mark DAG run" endpoints make). Every action goes through
``quire.services`` (the CLI's implementation) with the form's request id, so a
double click acts once and the audit trail says who did it.
"""

from __future__ import annotations

import io
import json
import logging
import os
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

from fastapi import Depends, FastAPI, Form, HTTPException, Query, Request, status
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from airflow.api_fastapi.auth.managers.base_auth_manager import COOKIE_NAME_JWT_TOKEN
from airflow.api_fastapi.auth.managers.models.resource_details import DagAccessEntity
from airflow.api_fastapi.core_api.security import GetUserDep, requires_access_dag
from quire import queries, services
from quire.errors import QuireError

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
PREFIX = "/quire"
PAGE_SIZE = 50
PREVIEW_DPI = 48
PREVIEW_MAX_PIXELS = 4_000_000

#: the permission an action needs: edit DAG runs (as Airflow's clear/mark-run endpoints require)
can_edit_dag_runs = requires_access_dag(method="PUT", access_entity=DagAccessEntity.RUN)
EditDep = Depends(can_edit_dag_runs)

STATE_COLOURS = {
    "PENDING": "#808080", "IN_PROGRESS": "#32cd32", "PARSED": "#4a9fd8", "SPLIT": "#4a9fd8",
    "CLASSIFIED": "#4a9fd8", "EXTRACTED": "#4a9fd8", "REVIEW_REQUIRED": "#d4a017", "PUBLISHED": "#008080",
    "COMPLETE": "#008000", "FAILED": "#dc2626", "BLOCKED": "#8b5cf6", "QUARANTINED": "#a0522d",
}


def _default_context():
    from quire.context import build_context

    # `quire up` migrates the schema before the api-server starts; the UI only reads and acts
    return build_context(migrate_schema=False)


def _default_airflow(request: Request):
    """Airflow's REST API, called with the operator's own token so Airflow checks (and logs) the operator."""
    from quire.airflow_api import AirflowApi

    token = _request_token(request)
    base = os.environ.get("AIRFLOW__API__BASE_URL") or f"{request.url.scheme}://{request.url.netloc}"
    return AirflowApi(base, token) if token else None


def _request_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE_NAME_JWT_TOKEN)


def _age(seconds: float | None) -> str:
    """A compact age: 42s, 7m 03s, 5h 12m, 3d 4h."""
    if seconds is None:
        return "-"
    seconds = int(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def _when(value: str | None) -> str:
    if not value:
        return "-"
    stamp = datetime.fromisoformat(value).astimezone(UTC)
    return stamp.strftime("%Y-%m-%d %H:%M:%S")


def _parse_date(value: str | None, *, end: bool = False) -> datetime | None:
    if not value:
        return None
    try:
        day = datetime.fromisoformat(value)
    except ValueError as exc:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, f"not a date: {value!r}") from exc
    if day.tzinfo is None:
        day = day.replace(tzinfo=UTC)
    # a date-only "to" includes that whole day
    return day + timedelta(days=1) if end and len(value) == 10 else day


def get_context(request: Request) -> Any:
    """Quire's context, built on the first request (never at import: the scheduler imports plugins too)."""
    state = request.app.state
    if getattr(state, "quire_context", None) is None:
        state.quire_context = state.quire_context_factory()
    return state.quire_context


# module level: with postponed annotations FastAPI resolves these names in the module's globals
CtxDep = Annotated[Any, Depends(get_context)]
RequestId = Annotated[str, Form(min_length=8, max_length=100)]


def create_app(context_factory: Callable[[], Any] = _default_context,
               airflow_factory: Callable[[Request], Any] = _default_airflow) -> FastAPI:
    """The plugin's app; tests pass their own Quire context and Airflow API double."""

    app = FastAPI(title="Quire documents", docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    # icons for the Airflow nav only: no data, so (like Airflow's own UI assets) not behind a login
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    templates.env.filters.update(age=_age, when=_when, tojson_pretty=lambda v: json.dumps(v, indent=1,
                                                                                         ensure_ascii=False))
    templates.env.globals.update(state_colours=STATE_COLOURS, task_log_path=queries.task_log_path)
    app.state.quire_context_factory = context_factory

    def prefix(request: Request) -> str:
        return request.scope.get("root_path", "") or ""

    def airflow_base(request: Request) -> str:
        """Where the Airflow UI lives, for links out of the iframe (the api-server serves both)."""
        root = prefix(request)
        return root[: -len(PREFIX)] if root.endswith(PREFIX) else ""

    def user_can_edit(request: Request, user: Any) -> bool:
        try:
            can_edit_dag_runs(request, user)
        except HTTPException:
            return False
        return True

    def same_origin(request: Request) -> None:
        """Cookie-authenticated forms: refuse a POST another site made (Airflow's cookie is SameSite=Lax too)."""
        origin = request.headers.get("origin") or request.headers.get("referer")
        if origin and origin != "null" and urlsplit(origin).netloc != request.url.netloc:
            raise HTTPException(status.HTTP_403_FORBIDDEN, "cross-origin form post refused")

    def render(request: Request, template: str, user: Any, **values: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, template, {
            "prefix": prefix(request), "airflow_base": airflow_base(request), "user": user,
            "user_name": getattr(user, "get_name", lambda: str(user))(), **values})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if "text/html" in request.headers.get("accept", "") and exc.status_code in (401, 403, 404, 400):
            body = templates.get_template("error.html").render(
                prefix=prefix(request), airflow_base=airflow_base(request), status=exc.status_code,
                detail=exc.detail, next=str(request.url))
            return HTMLResponse(body, status_code=exc.status_code, headers=exc.headers)
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    @app.get("/", include_in_schema=False)
    def index(request: Request, user: GetUserDep) -> RedirectResponse:
        return RedirectResponse(f"{prefix(request)}/documents", status.HTTP_303_SEE_OTHER)

    def _filter_from(state: list[str], doc_type: str | None, source: str | None, received_from: str | None,
                     received_to: str | None, q: str | None) -> queries.DocumentFilter:
        try:
            return queries.DocumentFilter(
                states=tuple(s for s in state if s), doc_types=(doc_type,) if doc_type else (),
                source=source or None, received_from=_parse_date(received_from),
                received_to=_parse_date(received_to, end=True), search=q or None)
        except ValueError as exc:
            raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc

    def _page(quire, flt, cursor: str | None, limit: int) -> queries.DocumentPage:
        try:
            return queries.list_page(quire, flt, cursor=cursor, limit=limit)
        except queries.InvalidCursorError as exc:
            raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc

    @app.get("/documents", response_class=HTMLResponse)
    def documents(request: Request, user: GetUserDep, quire: CtxDep,
                  state: Annotated[list[str], Query()] = [],  # noqa: B006 - FastAPI reads the default
                  doc_type: str | None = None, source: str | None = None,
                  received_from: Annotated[str | None, Query(alias="from")] = None,
                  received_to: Annotated[str | None, Query(alias="to")] = None,
                  q: str | None = None, cursor: str | None = None,
                  limit: Annotated[int, Query(ge=1, le=queries.MAX_PAGE_SIZE)] = PAGE_SIZE) -> HTMLResponse:
        flt = _filter_from(state, doc_type, source, received_from, received_to, q)
        page = _page(quire, flt, cursor, limit)
        params = {"state": list(flt.states), "doc_type": doc_type or "", "source": source or "",
                  "from": received_from or "", "to": received_to or "", "q": q or ""}
        kept = {k: v for k, v in params.items() if v}

        def link(**changes: Any) -> str:
            merged = {**kept, **{k: v for k, v in changes.items() if v is not None}}
            merged = {k: v for k, v in merged.items() if v not in ("", [], None)}
            return f"{prefix(request)}/documents?{urlencode(merged, doseq=True)}"

        return render(request, "documents.html", user, page=page, params=params, link=link,
                      choices=queries.filter_choices(quire), total=sum(page.counts.values()))

    @app.get("/api/documents")
    def documents_json(user: GetUserDep, quire: CtxDep,
                       state: Annotated[list[str], Query()] = [],  # noqa: B006
                       doc_type: str | None = None, source: str | None = None,
                       received_from: Annotated[str | None, Query(alias="from")] = None,
                       received_to: Annotated[str | None, Query(alias="to")] = None,
                       q: str | None = None, cursor: str | None = None,
                       limit: Annotated[int, Query(ge=1, le=queries.MAX_PAGE_SIZE)] = PAGE_SIZE) -> dict:
        page = _page(quire, _filter_from(state, doc_type, source, received_from, received_to, q), cursor, limit)
        return {"documents": page.rows, "next_cursor": page.next_cursor, "prev_cursor": page.prev_cursor,
                "counts": page.counts}

    def _detail(quire, reference: str) -> dict[str, Any]:
        try:
            return services.document_detail(quire, reference)
        except services.DocumentNotFoundError as exc:
            raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from exc
        except services.AmbiguousDocumentError as exc:
            raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc

    @app.get("/documents/{reference}", response_class=HTMLResponse)
    def document(request: Request, reference: str, user: GetUserDep, quire: CtxDep,
                 notice: str | None = None, ok: int = 1) -> HTMLResponse:
        detail = _detail(quire, reference)
        latest = detail["extractions"][-1] if detail["extractions"] else None
        return render(request, "document.html", user, d=detail, latest=latest, notice=notice, ok=bool(ok),
                      can_edit=user_can_edit(request, user), request_id=str(uuid.uuid4()))

    @app.get("/api/documents/{reference}")
    def document_json(reference: str, user: GetUserDep, quire: CtxDep) -> dict:
        return _detail(quire, reference)

    @app.get("/documents/{reference}/pages/{page_number}.png")
    def page_preview(reference: str, page_number: int, user: GetUserDep, quire: CtxDep) -> Response:
        png = _render_page(quire, reference, page_number)
        return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})

    def _after(request: Request, result: Any) -> RedirectResponse:
        query = urlencode({"notice": result.message, "ok": int(result.changed)})
        return RedirectResponse(f"{prefix(request)}/documents/{result.document_id}?{query}",
                                status.HTTP_303_SEE_OTHER)

    def _act(request: Request, reference: str, action: Callable[[], Any]) -> Response:
        same_origin(request)
        try:
            result = action()
        except services.DocumentNotFoundError as exc:
            raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from exc
        except QuireError as exc:
            query = urlencode({"notice": str(exc), "ok": 0})
            return RedirectResponse(f"{prefix(request)}/documents/{reference}?{query}", status.HTTP_303_SEE_OTHER)
        except Exception as exc:  # an Airflow API failure: say so on the page; the request can be sent again
            from quire.airflow_api import AirflowApiError

            if not isinstance(exc, AirflowApiError):
                raise
            query = urlencode({"notice": f"Airflow refused or could not be reached: {exc}", "ok": 0})
            return RedirectResponse(f"{prefix(request)}/documents/{reference}?{query}", status.HTTP_303_SEE_OTHER)
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(result.to_json())
        return _after(request, result)

    def _actor(user: Any) -> str:
        return getattr(user, "get_name", lambda: str(user))()

    @app.post("/documents/{reference}/resume", dependencies=[EditDep])
    def resume(request: Request, reference: str, user: GetUserDep, quire: CtxDep, request_id: RequestId) -> Response:
        return _act(request, reference, lambda: services.resume_document(
            quire, reference, actor=_actor(user), airflow=airflow_factory(request), request_id=f"ui-{request_id}"))

    @app.post("/documents/{reference}/reprocess", dependencies=[EditDep])
    def reprocess(request: Request, reference: str, user: GetUserDep, quire: CtxDep,
                  request_id: RequestId) -> Response:
        return _act(request, reference, lambda: services.reprocess_document(
            quire, reference, actor=_actor(user), request_id=f"ui-{request_id}"))

    @app.post("/documents/{reference}/release", dependencies=[EditDep])
    def release(request: Request, reference: str, user: GetUserDep, quire: CtxDep, request_id: RequestId,
                password: Annotated[str, Form()] = "") -> Response:
        return _act(request, reference, lambda: services.release_document(
            quire, reference, actor=_actor(user), password=password or None, request_id=f"ui-{request_id}"))

    @app.post("/documents/{reference}/approve", dependencies=[EditDep])
    async def approve(request: Request, reference: str, user: GetUserDep, quire: CtxDep) -> Response:
        form = await request.form()
        request_id = str(form.get("request_id", ""))
        if not 8 <= len(request_id) <= 100:
            raise HTTPException(422, "request_id is required")
        # only fields the reviewer changed count as corrections
        corrections = {}
        for key, value in form.items():
            if key.startswith("field.") and str(value) != str(form.get(f"original.{key[6:]}", "")):
                corrections[key[6:]] = str(value).strip()
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(_act, request, reference, lambda: services.approve_document(
            quire, reference, actor=_actor(user), corrections=corrections, request_id=f"ui-{request_id}"))

    @app.get("/operations", response_class=HTMLResponse)
    def operations(request: Request, user: GetUserDep, quire: CtxDep) -> HTMLResponse:
        return render(request, "operations.html", user, m=queries.operations_metrics(quire))

    @app.get("/metrics")
    def metrics(user: GetUserDep, quire: CtxDep) -> PlainTextResponse:
        return PlainTextResponse(queries.render_prometheus(queries.operations_metrics(quire)),
                                 media_type=queries.PROMETHEUS_CONTENT_TYPE)

    return app


def _render_page(quire: Any, reference: str, page_number: int) -> bytes:
    """A small PNG of one page of the document's original file (a split part reads its parent's file)."""
    import uuid as _uuid

    from sqlalchemy import select

    from quire.db.engine import transaction
    from quire.db.models import Document, DocumentSecret
    from quire.services import DocumentNotFoundError, find_document

    with transaction(quire.engine) as session:
        try:
            doc = find_document(session, reference)
        except DocumentNotFoundError as exc:
            raise HTTPException(status.HTTP_404_NOT_FOUND, str(exc)) from exc
        root = session.get(Document, doc.parent_id) if doc.parent_id else doc
        if doc.page_first and not doc.page_first <= page_number <= doc.page_last:
            raise HTTPException(status.HTTP_404_NOT_FOUND, "that page is not part of this document")
        password = session.execute(select(DocumentSecret.password)
                                   .where(DocumentSecret.document_id == _uuid.UUID(str(root.id)))).scalar()
        path, media_type = quire.blobs.path_from_uri(root.blob_uri), root.media_type
    if not path.exists():
        raise HTTPException(status.HTTP_404_NOT_FOUND, "the document's file is not in the blob store")
    try:
        if media_type == "application/pdf":
            return _render_pdf_page(path, page_number, password)
        return _render_image_page(path, page_number)
    except HTTPException:
        raise
    except Exception as exc:  # noqa: BLE001 - a page that cannot be previewed is not a server error
        log.info("no preview for %s page %s: %s", reference, page_number, exc)
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no preview: {exc}") from exc


def _render_pdf_page(path: Path, page_number: int, password: str | None) -> bytes:
    from quire.engines.inspect import open_pdf

    with open_pdf(path, password) as pdf:
        if not 1 <= page_number <= len(pdf):
            raise HTTPException(status.HTTP_404_NOT_FOUND, "no such page")
        page = pdf[page_number - 1]
        try:
            width, height = page.get_size()
            scale = PREVIEW_DPI / 72
            # cap pixels before rendering: a decompression-bomb page must not cost seconds and gigabytes
            if width * height * scale * scale > PREVIEW_MAX_PIXELS:
                scale = (PREVIEW_MAX_PIXELS / (width * height)) ** 0.5
            bitmap = page.render(scale=scale)
            image = bitmap.to_pil()
        finally:
            page.close()
    return _png(image)


def _render_image_page(path: Path, page_number: int) -> bytes:
    from PIL import Image, ImageSequence

    with Image.open(path) as image:
        frames = ImageSequence.Iterator(image)
        for index, frame in enumerate(frames, start=1):
            if index == page_number:
                copy = frame.convert("RGB")
                copy.thumbnail((600, 800))
                return _png(copy)
    raise HTTPException(status.HTTP_404_NOT_FOUND, "no such page")


def _png(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


app = create_app()
