"""How fast is the UI's Documents list at 100,000 documents?

Creates a scratch database on the test server (``QUIRE_TEST_ADMIN_URL``, default
the local PostgreSQL at 127.0.0.1:5432, else Quire's embedded server), migrates it,
inserts N documents (default 100,000) with sources, runs each list query the UI
makes several times and prints the median and worst milliseconds, plus the plan's
top node so an index regression shows. The database is dropped at the end.

    .venv/bin/python bench/ui_list.py [--documents 100000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SEED_SQL = """
INSERT INTO documents (id, sha256, size_bytes, media_type, page_count, blob_uri, original_name, state,
                       state_reason, current_stage, doc_type, received_at, created_at, updated_at)
SELECT md5('doc' || n)::uuid,
       encode(sha256(('doc' || n)::bytea), 'hex'),
       10000 + n % 500000, 'application/pdf', 1 + n % 7, 'blob://sha256/x',
       (ARRAY['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne', 'wonka'])[1 + n % 8]
         || '_invoice_' || n || '.pdf',
       s.state,
       CASE WHEN s.state = 'FAILED' THEN 'parse: RuntimeError boom ' || n % 13 END,
       CASE WHEN s.state = 'COMPLETE' THEN 'publish' ELSE 'parse' END,
       CASE WHEN s.state IN ('PENDING', 'IN_PROGRESS') THEN NULL
            ELSE (ARRAY['invoice', 'receipt', 'credit_note', 'other'])[1 + n % 4] END,
       :t0 + (n * interval '315 seconds'), now(), now()
FROM generate_series(1, :n) AS n
CROSS JOIN LATERAL (SELECT CASE
    WHEN n % 100 < 80 THEN 'COMPLETE' WHEN n % 100 < 85 THEN 'PENDING' WHEN n % 100 < 88 THEN 'FAILED'
    WHEN n % 100 < 91 THEN 'REVIEW_REQUIRED' WHEN n % 100 < 93 THEN 'QUARANTINED'
    WHEN n % 100 < 95 THEN 'BLOCKED' WHEN n % 100 < 97 THEN 'IN_PROGRESS' ELSE 'PUBLISHED' END AS state) s;
INSERT INTO document_sources (document_id, original_name, source, disposition, received_at)
SELECT id, original_name, (ARRAY['inbox', 'email', 'sftp', 'api'])[1 + (get_byte(decode(sha256, 'hex'), 0) % 4)],
       'new', received_at FROM documents;
ANALYZE documents; ANALYZE document_sources;
"""


def admin_url() -> str:
    import os

    from tests.conftest import _admin_url

    return os.environ.get("QUIRE_TEST_ADMIN_URL") or _admin_url(Path(tempfile.mkdtemp(prefix="quire-bench-")))


def timed(label: str, fn, repeat: int) -> tuple[str, float, float, object]:
    fn()  # warm the plan and the cache: an operator clicks a page that was just shown
    samples, result = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        result = fn()
        samples.append((time.perf_counter() - began) * 1000)
    return label, statistics.median(samples), max(samples), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)

    from quire.db.engine import to_sqlalchemy_url

    admin_server = admin_url()
    name = f"quire_bench_ui_{uuid.uuid4().hex[:8]}"
    admin = create_engine(to_sqlalchemy_url(admin_server), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_server).set(database=name).render_as_string(hide_password=False)
    try:
        return run(url, args)
    finally:
        from quire.db.engine import _engine_for

        _engine_for.cache_clear()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def run(url: str, args: argparse.Namespace) -> int:
    from quire import queries
    from quire.context import build_context
    from quire.db.engine import transaction
    from quire.settings import Settings

    ctx = build_context(Settings(home=Path(tempfile.mkdtemp(prefix="quire-bench-home-")), database_url=url))
    began = time.perf_counter()
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    with transaction(ctx.engine) as session:
        for statement in SEED_SQL.strip().split(";\n"):
            if statement.strip():
                session.execute(text(statement), {"n": args.documents, "t0": t0})
    print(f"seeded {args.documents:,} documents (+ sources) in {time.perf_counter() - began:.1f} s")
    with transaction(ctx.engine) as session:
        sha = session.execute(text("SELECT sha256 FROM documents ORDER BY received_at LIMIT 1 OFFSET 777")).scalar()
        middle = session.execute(text("SELECT received_at, id FROM documents ORDER BY received_at DESC, id DESC "
                                      "OFFSET :o LIMIT 1"), {"o": args.documents // 2}).one()
    deep = queries.Cursor(middle.received_at, middle.id).encode()
    last_month = t0 + timedelta(seconds=315 * args.documents) - timedelta(days=30)
    F = queries.DocumentFilter
    cases = [
        ("newest page, no filter", F(), None),
        ("state=FAILED", F(states=("FAILED",)), None),
        ("state=REVIEW_REQUIRED, page at the middle", F(states=("REVIEW_REQUIRED",)), deep),
        ("type=receipt, last 30 days", F(doc_types=("receipt",), received_from=last_month), None),
        ("source=email", F(source="email"), None),
        ("search name 'umbrella_invoice_4242'", F(search="umbrella_invoice_4242"), None),
        ("search name 'wonka' (many hits)", F(search="wonka"), None),
        ("search hash prefix (8 hex)", F(search=sha[:8]), None),
        ("page at the middle (50,000 rows deep)", F(), deep),
        ("state=FAILED + source=sftp + type=invoice", F(states=("FAILED",), source="sftp", doc_types=("invoice",)),
         None),
    ]
    rows = []
    for label, flt, cursor in cases:
        rows.append(timed(f"{label}: page of 50", lambda f=flt, c=cursor: queries.list_page(
            ctx, f, cursor=c, limit=50, with_counts=False), args.repeat))
        rows.append(timed(f"{label}: counts per state", lambda f=flt: queries.state_counts(ctx, f), args.repeat))
    rows.append(timed("filter choices (types, sources)", lambda: queries.filter_choices(ctx), args.repeat))
    rows.append(timed("operations metrics", lambda: queries.operations_metrics(ctx), args.repeat))

    width = max(len(r[0]) for r in rows)
    print(f"\n{'query':<{width}}  median ms  worst ms  rows")
    for label, median, worst, result in rows:
        size = len(result.rows) if hasattr(result, "rows") else ""
        print(f"{label:<{width}}  {median:9.2f}  {worst:8.2f}  {size}")

    print("\nplans (top nodes):")
    from sqlalchemy.dialects import postgresql

    for label, flt, cursor in cases:
        with transaction(ctx.engine) as session:
            query = _list_query(flt, cursor)
            compiled = query.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True})
            plan = session.execute(text(f"EXPLAIN {compiled}")).scalars().all()
        print(f"  {label}: {' / '.join(line.strip() for line in plan[:3])[:200]}")
    return 0


def _list_query(flt, cursor):
    """The SQL list_page runs, for EXPLAIN."""
    from sqlalchemy import select, tuple_

    from quire import queries
    from quire.db.models import Document

    query = select(*queries._LIST_COLUMNS).where(*queries._filter_conditions(flt))
    if cursor:
        position = queries.Cursor.decode(cursor)
        query = query.where(tuple_(Document.received_at, Document.id) < tuple_(position.received_at, position.id))
    return query.order_by(Document.received_at.desc(), Document.id.desc()).limit(51)


if __name__ == "__main__":
    raise SystemExit(main())
