"""Throughput: the real Airflow scheduler vs the same stage code in a plain loop (issue 3, point 13).

    python bench/throughput.py [--text N] [--scans M] [--workers 2] [--work DIR]

Generates N one-page text-layer PDFs (default 500) and takes M scanned pages
(SROIE receipts from the dev corpus, cycled as cropped copies past the 36 photos;
default 30), then processes each set

  (a) through the real scheduler: `quire up` components, document_pipeline
      triggered by `quire run --until-idle` logic (LocalExecutor, parallelism
      = the product default `quire up` uses unless --slots names one), and
  (b) with the same stage code (`quire.pipeline.advance_chunk` for each stage,
      then `dispatch_outbox`) in a plain loop over `workers` processes (the
      machine's cores by default) taking chunks from a shared queue, chunked
      the same way (for the same slot count), writing the same rows,

each mode on its own fresh QUIRE_HOME with its own embedded PostgreSQL. Ingest
is not timed; the clock runs from the first claim to the last document settled.
Prints docs/s for both, their ratio (a)/(b), and the peak RSS of any single
process of each mode (ru_maxrss of the mode's process tree); then, from
Airflow's own task_instance rows, where the scheduler's seconds went (per task:
mean seconds queued and running, and when its last instance finished).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("QUIRE_CORPUS_DIR", REPO.parent / "shared" / "corpus" / "dev"))


# ---------------------------------------------------------------- inputs


def make_text_pdfs(folder: Path, count: int) -> list[Path]:
    """One-page digital invoices with a text layer, each with its own number (so its own sha256)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"bench-{i:05d}.pdf"
        pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
        y = 800
        pdf.setFont("Helvetica-Bold", 18)
        pdf.drawString(60, y, "INVOICE")
        pdf.setFont("Helvetica", 11)
        qty, unit = 1 + i % 7, 3.5 + (i % 13)
        lines = ["Benchmark Supplies Ltd", "1 Load Street, Testville", "", f"Invoice No: BEN-{i:06d}",
                 "Invoice Date: 2024-03-05", "Bill To: Quire Customer", "",
                 "Description                          Qty      Unit price      Amount",
                 f"{'Widget type ' + str(i % 17):<36} {qty:>3} {unit:>14.2f} {qty * unit:>14.2f}", "",
                 f"Subtotal: {qty * unit:.2f}", "Tax: 0.00", f"Total: {qty * unit:.2f} USD", "", "Page 1 of 1"]
        for line in lines:
            y -= 18
            pdf.drawString(60, y, line)
        pdf.showPage()
        pdf.save()
        paths.append(path)
    return paths


def scanned_pages(folder: Path, count: int) -> list[Path]:
    """The SROIE receipt photos; past the last one, copies of them, each its own page to OCR.

    A copy is cropped by one more pixel at the right and bottom edges per cycle through the
    photos (background there, so the text and the OCR work are the same), which gives it its own
    bytes and pixels: its own sha256, and no hit in the OCR cache, which is keyed by pixels.
    """
    from PIL import Image

    images = sorted((CORPUS / "sroie" / "img").glob("*.jpg"))
    if not images:
        raise SystemExit(f"no scanned pages in {CORPUS / 'sroie' / 'img'}")
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        source, cycle = images[i % len(images)], i // len(images)
        if cycle == 0:
            paths.append(source)
            continue
        path = folder / f"{source.stem}-copy{cycle}.jpg"
        with Image.open(source) as image:
            image.crop((0, 0, image.width - cycle, image.height - cycle)).save(path, quality=95)
        paths.append(path)
    return paths


# ---------------------------------------------------------------- modes (each in its own process)


def _settings(home: Path, database_url: str | None = None):
    """Settings for ``home``; without ``database_url`` its embedded server (the product's default)."""
    os.environ["QUIRE_HOME"] = str(home)
    if database_url:
        os.environ["QUIRE_DATABASE_URL"] = database_url
    else:
        os.environ.pop("QUIRE_DATABASE_URL", None)
    from quire.settings import Settings, get_settings

    get_settings.cache_clear()
    return Settings(home=home, database_url=database_url)


def _ingest(ctx, paths: list[Path]) -> None:
    from quire.intake import ingest_path

    for path in paths:
        ingest_path(ctx, path)


def _peak_rss_mb() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return max(children, own) / 1024


def mode_scheduler(home: Path, sets: dict[str, list[Path]], workers: int, slots: int, chunk_size: int = 0) -> dict:
    from quire import airflow_runtime as rt
    from quire.context import build_context
    from quire.services import state_counts

    settings = _settings(home)
    ctx = build_context(settings)
    # the product's default slot count unless --slots names one (reported as "slots")
    config = rt.RuntimeConfig(port=rt.free_port(), parallelism=slots)
    result = rt.up(settings, config)
    config = rt.RuntimeConfig(port=config.port, parallelism=result.parallelism)
    client = rt.AirflowClient(result.url, result.user, result.password)
    client.wait_for_dag(rt.DOCUMENT_DAG_ID)
    client.unpause(rt.DOCUMENT_DAG_ID)
    _wait_no_active_runs(client)
    out = {"slots": result.parallelism}
    try:
        for name, paths in sets.items():
            _ingest(ctx, paths)
            started = time.monotonic()
            summary = rt.run_until_idle(settings, timeout=3600, progress=False, config=config, poll_seconds=1.0,
                                        chunk_size=chunk_size)
            seconds = time.monotonic() - started
            out[name] = {"documents": len(paths), "seconds": seconds, "idle": summary.idle,
                         "runs": len(summary.runs), "states": {k: v for k, v in state_counts(ctx).items() if v},
                         "timeline": _task_timeline(settings, [r["run_id"] for r in summary.runs])}
    finally:
        rt.down(settings)
    out["peak_rss_mb"] = _peak_rss_mb()
    return out


def _task_timeline(settings, run_ids: list[str]) -> dict:
    """Where the scheduler's seconds went, from Airflow's own task_instance rows of these runs.

    Per task: instances, mean seconds queued -> running (executor and process start), mean seconds
    running (the task process), and the seconds from the run's start to the last instance's end. The
    ``busy`` share is the slot-seconds spent inside task processes over the slots the run had.
    """
    from sqlalchemy import create_engine, text

    from quire import airflow_runtime as rt

    engine = create_engine(rt.airflow_sqlalchemy_urls(rt.airflow_database_url(settings))[0])
    try:
        with engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT ti.task_id, ti.queued_dttm, ti.start_date, ti.end_date, dr.start_date AS run_start, "
                "dr.end_date AS run_end FROM task_instance ti JOIN dag_run dr ON dr.dag_id = ti.dag_id AND dr.run_id = ti.run_id "
                "WHERE ti.run_id = ANY(:ids) AND ti.start_date IS NOT NULL AND ti.end_date IS NOT NULL"),
                {"ids": run_ids}).all()
    finally:
        engine.dispose()
    if not rows:
        return {}
    run_start = min(r.run_start for r in rows)
    run_end = max(r.run_end or r.end_date for r in rows)
    tasks: dict[str, dict] = {}
    for r in rows:
        task = tasks.setdefault(r.task_id.rsplit(".", 1)[-1], {"n": 0, "queued_s": 0.0, "running_s": 0.0,
                                                               "last_end_s": 0.0})
        task["n"] += 1
        task["queued_s"] += ((r.start_date - r.queued_dttm).total_seconds() if r.queued_dttm else 0.0)
        task["running_s"] += (r.end_date - r.start_date).total_seconds()
        task["last_end_s"] = max(task["last_end_s"], (r.end_date - run_start).total_seconds())
    for task in tasks.values():
        task["queued_s"] = round(task["queued_s"] / task["n"], 2)
        task["running_s"] = round(task["running_s"] / task["n"], 2)
        task["last_end_s"] = round(task["last_end_s"], 1)
    return {"run_s": round((run_end - run_start).total_seconds(), 1), "tasks": tasks}


def _wait_no_active_runs(client) -> None:
    from quire import airflow_runtime as rt

    deadline = time.monotonic() + 120
    time.sleep(3)
    while client.dag_runs(rt.DOCUMENT_DAG_ID, states=rt.ACTIVE_RUN_STATES) and time.monotonic() < deadline:
        time.sleep(1)


_WORKER_CTX = None


def _init_worker(home: str, database_url: str) -> None:
    """Per worker process, once: the context (its own engine), like a task process builds its own."""
    global _WORKER_CTX
    from quire.context import build_context

    _WORKER_CTX = build_context(_settings(Path(home), database_url), migrate_schema=False)


def _loop_worker(chunks: list[dict]) -> None:
    from quire.pipeline import STAGES, advance_chunk
    from quire.runs import Attempt

    ctx = _WORKER_CTX
    for chunk in chunks:
        for stage in STAGES:
            advance_chunk(ctx, stage, chunk["document_ids"], Attempt("bench", "loop", stage, try_number=1,
                                                                     max_tries=3))


def mode_loop(home: Path, sets: dict[str, list[Path]], workers: int, slots: int, chunk_size: int = 0) -> dict:
    import multiprocessing

    from quire.context import build_context
    from quire.pipeline import plan_chunks
    from quire.runs import claim_documents
    from quire.services import state_counts, unfinished_count
    from quire.stages.publish import dispatch_outbox

    settings = _settings(home)
    ctx = build_context(settings)
    # the workers get the resolved URL, as the Airflow components do (no per-process embedded-server probe)
    from quire.db.engine import resolve_database_url
    database_url = resolve_database_url(settings)
    out = {"workers": workers}
    mp = multiprocessing.get_context("spawn")  # fresh processes: no database connections shared by fork
    for name, paths in sets.items():
        _ingest(ctx, paths)
        started = time.monotonic()
        claim = claim_documents(ctx, owner="bench/loop", limit=100_000)
        chunks = plan_chunks(claim.claimed, chunk_size, slots=slots)
        # the scheduler hands chunks to free slots; a shared queue is the plain-loop equivalent
        with mp.Pool(workers, initializer=_init_worker, initargs=(str(home), database_url)) as pool:
            pool.map(_loop_worker, [[chunk] for chunk in chunks], chunksize=1)
        dispatch_outbox(ctx, owner="bench/loop", limit=100_000)
        seconds = time.monotonic() - started
        out[name] = {"documents": len(paths), "seconds": seconds, "idle": unfinished_count(ctx) == 0,
                     "states": {k: v for k, v in state_counts(ctx).items() if v}}
    out["peak_rss_mb"] = _peak_rss_mb()
    return out


def _stop_embedded(home: Path) -> None:
    pid_file = home / "pgdata" / "postmaster.pid"
    if pid_file.exists():
        try:
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGTERM)
        except (ProcessLookupError, ValueError):
            pass


# ---------------------------------------------------------------- driver


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--text", type=int, default=500, help="one-page text-layer PDFs (default 500)")
    parser.add_argument("--scans", type=int, default=30, help="scanned pages (default 30)")
    parser.add_argument("--workers", type=int, default=2, help="processes of the plain loop (default 2)")
    parser.add_argument("--slots", type=int, default=0,
                        help="Airflow parallelism, and the slots both modes plan chunks for (default: the product's, "
                             "QUIRE_TASK_SLOTS or two per core)")
    parser.add_argument("--chunk-size", type=int, default=0, help="documents per chunk, both modes (0 = auto)")
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temp folder)")
    parser.add_argument("--only", choices=("scheduler", "loop"), help="run one mode only")
    parser.add_argument("--mode", choices=("scheduler", "loop"), help=argparse.SUPPRESS)  # child process
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds of both modes (default 2)")
    parser.add_argument("--round", type=int, default=0, help=argparse.SUPPRESS)  # child process
    args = parser.parse_args(argv)

    import tempfile

    work = args.work or Path(tempfile.mkdtemp(prefix="quire-bench-"))
    if args.mode:  # a child: run one mode and print its JSON
        sets = json.loads((work / "sets.json").read_text())
        sets = {k: [Path(p) for p in v] for k, v in sets.items()}
        runner = mode_scheduler if args.mode == "scheduler" else mode_loop
        home = work / f"home-{args.mode}-{args.round}"
        try:
            print("RESULT " + json.dumps(runner(home, sets, args.workers, args.slots, args.chunk_size)), flush=True)
        finally:
            _stop_embedded(home)
        return 0

    if not args.slots:
        from quire.airflow_runtime import task_slots
        from quire.settings import Settings

        args.slots = task_slots(Settings())
    work.mkdir(parents=True, exist_ok=True)
    sets = {}
    if args.text:
        sets["text"] = [str(p) for p in make_text_pdfs(work / "text", args.text)]
    if args.scans:
        sets["scans"] = [str(p) for p in scanned_pages(work / "scans", args.scans)]
    (work / "sets.json").write_text(json.dumps(sets))
    print(f"inputs: {args.text} text PDFs, {args.scans} scanned pages; loop: {args.workers} processes; "
          f"scheduler: {args.slots} slots (Airflow parallelism); "
          f"chunk size {args.chunk_size or 'auto'}; scratch {work}", flush=True)

    # The machine is shared and noisy: alternate the modes (loop, scheduler, loop, ...) and compare medians.
    modes = [m for m in ("loop", "scheduler") if not args.only or args.only == m]
    rounds: dict[str, list[dict]] = {m: [] for m in modes}
    for index in range(args.rounds):
        for mode in modes:
            env = dict(os.environ, OMP_THREAD_LIMIT="1")
            started = time.monotonic()
            proc = subprocess.run([sys.executable, __file__, "--mode", mode, "--work", str(work), "--workers",
                                   str(args.workers), "--slots", str(args.slots), "--chunk-size", str(args.chunk_size), "--round",
                                   str(index)], env=env, capture_output=True, text=True)
            lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
            if proc.returncode != 0 or not lines:
                print(f"{mode} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}", file=sys.stderr)
                return 1
            result = json.loads(lines[-1][len("RESULT "):])
            result["load_average"] = os.getloadavg()[0]
            rounds[mode].append(result)
            print(f"round {index + 1} {mode} ({time.monotonic() - started:.0f} s, load {result['load_average']:.1f}):"
                  f" {json.dumps(result)}", flush=True)

    import statistics

    print()
    print(f"{'set':6} {'docs':>5} {'scheduler docs/s':>17} {'loop docs/s':>12} {'ratio':>6}   per round (sched/loop)")
    for name in sets:
        rates = {m: [r[name]["documents"] / r[name]["seconds"] for r in rs] for m, rs in rounds.items()}
        median = {m: statistics.median(v) for m, v in rates.items()}
        ratio = median["scheduler"] / median["loop"] if len(median) == 2 else float("nan")
        per_round = " ".join(f"{a / b:.2f}" for a, b in zip(rates.get("scheduler", []), rates.get("loop", []),
                                                           strict=False))
        print(f"{name:6} {len(sets[name]):>5} {median.get('scheduler', float('nan')):>17.2f} "
              f"{median.get('loop', float('nan')):>12.2f} {ratio:>6.2f}   {per_round}")
    for mode, rs in rounds.items():
        print(f"peak RSS of one process, {mode}: {max(r['peak_rss_mb'] for r in rs):.0f} MB")
    for name in sets:
        timeline = rounds.get("scheduler", [{}])[-1].get(name, {}).get("timeline")
        if not timeline:
            continue
        print(f"\nscheduler, {name}, last round: the run took {timeline['run_s']} s")
        print(f"  {'task':16} {'instances':>9} {'queued s':>9} {'running s':>10} {'last done at s':>15}")
        for task, t in sorted(timeline["tasks"].items(), key=lambda item: item[1]["last_end_s"]):
            print(f"  {task:16} {t['n']:>9} {t['queued_s']:>9.2f} {t['running_s']:>10.2f} {t['last_end_s']:>15.1f}")
    if not args.keep and args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
