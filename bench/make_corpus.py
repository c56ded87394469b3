"""Write a seeded corpus of generated documents with ground truth for the accuracy benchmark.

    python bench/make_corpus.py --out bench/out/corpus --count 200 --seed 1 --split dev

For each document NNN it writes NNN.pdf (digital), NNN.scan.pdf (or .png: image only) and
NNN.json (ground truth, see tests/factories). Document i of a run uses generator seed
``seed * 1_000_000 + i`` on the dev split, ``seed * 1_000_000 + 500_000 + i`` on the
held-out split, ``seed * 1_000_000 + 250_000 + i`` on the tune split and ``seed * 1_000_000 +
750_000 + i`` on the tune2 split, so no two splits share a seed; each split only uses its own
layouts (the tune splits widen what rules are tuned on, tune2 where and how the vendor is named,
see tests/factories/tune_layouts.py). The same arguments always produce byte-identical files.
``--no-scans`` writes the digital PDFs and ground truth only (its ground truth lists no scan).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.factories import SPLITS, generate_invoice, render_pdf, render_scan  # noqa: E402

SEEDS_PER_RUN = 1_000_000
SEED_OFFSETS = {"dev": 0, "tune": 250_000, "heldout": 500_000, "tune2": 750_000}


def document_seed(run_seed: int, index: int, split: str) -> int:
    return run_seed * SEEDS_PER_RUN + SEED_OFFSETS[split] + index


def write_document(out: Path, index: int, seed: int, split: str, scan_format: str | None) -> dict:
    spec = generate_invoice(seed, split=split)
    stem = f"{index:03d}"
    render_pdf(spec, out / f"{stem}.pdf")
    scans = render_scan(spec, out / f"{stem}.scan.{scan_format}", seed) if scan_format else []
    truth = {**spec.ground_truth(), "files": {"pdf": f"{stem}.pdf", "scan": [p.name for p in scans]}}
    (out / f"{stem}.json").write_text(json.dumps(truth, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return truth


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--split", choices=SPLITS, default="dev")
    parser.add_argument("--scan-format", choices=("pdf", "png", "tif"), default="pdf")
    parser.add_argument("--no-scans", action="store_true", help="skip the scanned renderings (digital only)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(write_document, args.out, index, document_seed(args.seed, index, args.split),
                               args.split, None if args.no_scans else args.scan_format)
                   for index in range(args.count)]
        truths = [future.result() for future in futures]
    manifest = {
        "count": args.count, "seed": args.seed, "split": args.split, "scan_format": args.scan_format,
        "doc_types": dict(sorted(Counter(t["doc_type"] for t in truths).items())),
        "layouts": dict(sorted(Counter(t["layout"] for t in truths).items())),
        "languages": dict(sorted(Counter(t["language"] for t in truths).items())),
        "pages": sum(t["pages"] for t in truths),
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.count} documents ({manifest['pages']} pages) to {args.out} "
          f"in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
