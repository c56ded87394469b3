"""The ``quire`` command: the same services the Airflow tasks and the UI plugin use."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from quire.settings import get_settings

Handler = Callable[[argparse.Namespace], int]


def _context():
    from quire.context import build_context

    return build_context(get_settings())


def cmd_ingest(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from quire.intake import IngestStatus, ingest_path, iter_input_files

    ctx = _context()
    files = list(iter_input_files(Path(p) for p in args.paths))
    show_progress = len(files) > 1 and not args.no_progress and sys.stderr.isatty()
    counts = dict.fromkeys(IngestStatus, 0)
    for path in tqdm(files, unit="file", disable=not show_progress, file=sys.stderr):
        result = ingest_path(ctx, path, source=args.source)
        counts[result.status] += 1
        if args.json:
            print(json.dumps(result.to_json(), sort_keys=True), flush=True)
        else:
            line = f"{result.status.value:11} {result.sha256[:12] if result.sha256 else '-':12} {path}"
            print(line + (f"  ({result.reason})" if result.reason else ""))
    if not args.json:
        print(", ".join(f"{n} {s.value}" for s, n in counts.items()), file=sys.stderr)
    return 0


def cmd_extract(args: argparse.Namespace) -> int:
    from quire.intake import iter_input_files
    from quire.offline import extract_file_records

    settings = get_settings()
    for path in iter_input_files(Path(p) for p in args.paths):
        record = extract_file_records(path, settings, password=args.password)
        if args.json:
            print(json.dumps(record, sort_keys=True, ensure_ascii=False), flush=True)
            continue
        print(f"{path}: {record['status']}" + (f" ({record['reason']})" if record["reason"] else "")
              + f", {record['pages']} pages ({record['ocr_pages']} OCR)")
        for doc in record["documents"]:
            fields = ", ".join(f"{k}={v['value']}" for k, v in doc["fields"].items() if v["value"] is not None)
            print(f"  pages {doc['page_range'][0]}-{doc['page_range'][1]} {doc['doc_type']}"
                  f" ({doc['doc_type_confidence']}) {doc['routing']}: {fields}")
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from quire.db.engine import get_engine
    from quire.db.migrate import upgrade

    upgrade(get_engine(get_settings()))
    print("database schema is current")
    return 0


def cmd_db_url(args: argparse.Namespace) -> int:
    from quire.db.engine import AIRFLOW_DATABASE, QUIRE_DATABASE, resolve_database_url

    print(resolve_database_url(get_settings(), AIRFLOW_DATABASE if args.airflow else QUIRE_DATABASE))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from quire.services import list_documents, state_counts

    ctx = _context()
    counts = state_counts(ctx)
    attention = list_documents(ctx, states=["FAILED", "BLOCKED", "QUARANTINED", "REVIEW_REQUIRED"],
                               limit=args.limit)
    if args.json:
        print(json.dumps({"counts": counts, "needs_attention": attention}, indent=2, sort_keys=True))
        return 0
    print("  ".join(f"{state} {n}" for state, n in counts.items() if n) or "no documents yet")
    for doc in attention:
        print(f"{doc['state']:16} {doc['id']}  {doc['name'][:40]:40}  {doc['reason'] or ''}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from quire.services import document_detail

    detail = document_detail(_context(), args.document)
    if args.json:
        print(json.dumps(detail, indent=2, sort_keys=True, default=str))
        return 0
    print(f"{detail['name']}  {detail['id']}\n  state {detail['state']}"
          + (f" ({detail['reason']})" if detail["reason"] else "")
          + f", type {detail['doc_type'] or '-'}, {detail['pages'] or '?'} pages,"
          f" attempts {detail['attempts']}/{detail['max_attempts']}")
    for attempt in detail["attempts_log"]:
        print(f"  {attempt['started_at'][:19]} {attempt['task_id']:10} try {attempt['try_number']}"
              f" {attempt['outcome']:8} {attempt['error_class'] or ''} {attempt['error_message'] or ''}")
    if detail["extractions"]:
        latest = detail["extractions"][-1]
        print(f"  routing {latest['routing']}; fields:")
        for name, field in sorted(latest["fields"].items()):
            print(f"    {name:16} {field.get('value')!s:40} {field.get('confidence')}")
    return 0


def _action(name: str) -> Handler:
    def run(args: argparse.Namespace) -> int:
        from quire import services

        kwargs = {"actor": args.actor, "request_id": args.request_id}
        if name == "release":
            kwargs["password"] = args.password
        if name == "approve":
            kwargs["corrections"] = dict(_field_assignment(item) for item in args.set or [])
        action = getattr(services, f"{name}_document")
        ctx = _context()
        results = [action(ctx, ref, **kwargs) for ref in args.documents]
        for result in results:
            print(json.dumps(result.to_json(), sort_keys=True) if args.json else
                  f"{result.action}: {result.document_id} -> {result.state} ({result.message})")
        return 0
    return run


def _field_assignment(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        raise SystemExit(f"--set takes FIELD=VALUE, got {text!r}")
    return name.strip(), value.strip()


# ---- Airflow runtime: `quire up`, `quire down`, `quire run` (dags/ + quire.airflow_runtime) ----


def cmd_up(args: argparse.Namespace) -> int:
    from quire import airflow_runtime as rt

    config = rt.RuntimeConfig(port=args.port, parallelism=args.parallelism, executor=args.executor)
    result = rt.up(get_settings(), config, wait_timeout=args.timeout)
    for name in result.reused:
        print(f"{name:14} already running")
    for name in result.started:
        print(f"{name:14} started")
    if result.migrated:
        print("airflow metadata database migrated")
    print(f"Airflow UI: {result.url}  (user {result.user}, password {result.password})")
    print(f"task slots: {result.parallelism} (QUIRE_TASK_SLOTS; set when the components start)")
    print(f"logs: {rt.RuntimePaths.for_settings(get_settings()).log_dir}; stop with `quire down`")
    return 0


def cmd_down(args: argparse.Namespace) -> int:
    from quire import airflow_runtime as rt

    for name, how in rt.down(get_settings(), timeout=args.timeout).items():
        print(f"{name:14} {how}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from quire.airflow_runtime import run_until_idle

    summary = run_until_idle(get_settings(), timeout=args.timeout, keep_running=args.keep_running,
                             document_ids=args.document_ids or None, chunk_size=args.chunk_size,
                             progress=not args.json)
    if args.json:
        print(json.dumps(summary.to_json(), indent=2, sort_keys=True))
    else:
        print(summary.text())
    return 0 if summary.idle else 1


def _add_runtime_commands(commands) -> None:
    from quire.airflow_runtime import EXECUTORS

    up = commands.add_parser("up", help="start Airflow (api-server, scheduler, dag-processor, triggerer) "
                                        "on 127.0.0.1 in the background")
    up.add_argument("--port", type=int, default=8080, help="api-server port (0 or taken: a free one)")
    up.add_argument("--parallelism", type=int, default=0,
                    help="task instances at once (default: QUIRE_TASK_SLOTS, or two per core)")
    up.add_argument("--executor", choices=sorted(EXECUTORS), default=None,
                    help="local (LocalExecutor) or celery (CeleryExecutor on QUIRE_CELERY_BROKER_URL, with a "
                         "worker started here); default QUIRE_EXECUTOR, else local")
    up.add_argument("--timeout", type=float, default=180, help="seconds to wait until Airflow is healthy")
    up.set_defaults(handler=cmd_up)

    down = commands.add_parser("down", help="stop the Airflow components `quire up` started")
    down.add_argument("--timeout", type=float, default=20, help="seconds between SIGTERM and SIGKILL")
    down.set_defaults(handler=cmd_down)

    run = commands.add_parser("run", help="process documents through the real document_pipeline DAG")
    run.add_argument("--until-idle", action="store_true", required=True,
                     help="trigger runs until nothing is pending or working, then exit")
    run.add_argument("--timeout", type=float, default=3600, help="give up after this many seconds")
    run.add_argument("--chunk-size", type=int, default=0, help="documents per mapped instance (0 = automatic)")
    run.add_argument("--keep-running", action="store_true", help="leave components started here running")
    run.add_argument("--json", action="store_true", help="print the summary as JSON")
    run.add_argument("document_ids", nargs="*", metavar="ID", help="only these documents (ids or hashes)")
    run.set_defaults(handler=cmd_run)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quire", description="Quire: documents in, validated records out.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug detail to stderr")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ingest = commands.add_parser("ingest", help="register files or folders (recursive) as documents")
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    ingest.add_argument("--json", action="store_true", help="one JSON object per file on stdout")
    ingest.add_argument("--source", default="cli", help="name of the channel the files came through")
    ingest.add_argument("--no-progress", action="store_true", help="no progress bar on folders")
    ingest.set_defaults(handler=cmd_ingest)

    extract = commands.add_parser("extract", help="parse, split, classify and extract files in-process "
                                  "(no database, no Airflow)")
    extract.add_argument("paths", nargs="+", metavar="FILE")
    extract.add_argument("--json", action="store_true", help="one JSON object per input file")
    extract.add_argument("--password", help="password for encrypted PDFs")
    extract.set_defaults(handler=cmd_extract)

    status = commands.add_parser("status", help="documents per state, and those needing attention")
    status.add_argument("--json", action="store_true")
    status.add_argument("--limit", type=int, default=20, help="how many documents needing attention to list")
    status.set_defaults(handler=cmd_status)

    show = commands.add_parser("show", help="everything known about one document")
    show.add_argument("document", help="document id, sha256 or a sha256 prefix")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=cmd_show)

    actions = {
        "retry": "re-open FAILED documents where they stopped, with a fresh attempt budget",
        "reprocess": "process documents again from the start",
        "release": "release QUARANTINED documents (optionally with the PDF password)",
        "approve": "approve REVIEW_REQUIRED documents (optionally correcting fields) and publish them",
    }
    for name, text in actions.items():
        action = commands.add_parser(name, help=text)
        action.add_argument("documents", nargs="+", metavar="DOCUMENT", help="id, sha256 or sha256 prefix")
        action.add_argument("--actor", default=_default_actor(), help="who is acting (for the audit trail)")
        action.add_argument("--request-id", help="idempotency key: the same request twice acts once")
        action.add_argument("--json", action="store_true")
        if name == "release":
            action.add_argument("--password", help="the password an encrypted PDF needs")
        if name == "approve":
            action.add_argument("--set", action="append", metavar="FIELD=VALUE", help="correct a field")
        action.set_defaults(handler=_action(name))

    db = commands.add_parser("db", help="database maintenance")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    db_commands.add_parser("upgrade", help="migrate the schema to the newest revision").set_defaults(
        handler=cmd_db_upgrade)
    url = db_commands.add_parser("url", help="print the database URL in use (starting the embedded server)")
    url.add_argument("--airflow", action="store_true", help="Airflow's metadata database instead of Quire's")
    url.set_defaults(handler=cmd_db_url)
    _add_runtime_commands(commands)
    return parser


def _default_actor() -> str:
    import getpass

    return f"cli:{getpass.getuser()}"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    handler: Handler = args.handler
    from quire.errors import QuireError

    try:
        return handler(args)
    except QuireError as exc:
        print(f"quire: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
