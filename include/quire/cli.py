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

    db = commands.add_parser("db", help="database maintenance")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    db_commands.add_parser("upgrade", help="migrate the schema to the newest revision").set_defaults(
        handler=cmd_db_upgrade)
    url = db_commands.add_parser("url", help="print the database URL in use (starting the embedded server)")
    url.add_argument("--airflow", action="store_true", help="Airflow's metadata database instead of Quire's")
    url.set_defaults(handler=cmd_db_url)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    handler: Handler = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
