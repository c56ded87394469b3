"""Field-level extraction accuracy: exact match after normalisation, per field and per corpus.

Corpora:
  * SROIE receipts (/work/shared/corpus/dev/sroie): scored on the line-level ground-truth
    transcripts (box/*.csv, an upper bound: perfect OCR) and, when ``quire.engines`` is
    present, on real OCR of img/*.jpg.
  * the generated invoice corpus (bench/make_corpus.py output): digital PDFs and scanned
    renders, dev and held-out splits reported separately, plus line-item rows recovered.

Usage:
  python bench/accuracy.py                       # SROIE only
  python bench/accuracy.py --invoices bench/out/corpus
  python bench/accuracy.py --no-ocr              # skip OCR of the receipt images
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from quire.extraction.classify import classify_document
from quire.extraction.fields import extract_fields
from quire.extraction.normalise import find_dates, fold, format_amount, parse_amount
from quire.model import ParsedDocument, PageText, TextMethod, Word
from quire.settings import Settings

SROIE = Path("/work/shared/corpus/dev/sroie")
RECEIPT_FIELDS = ("vendor_name", "vendor_address", "issue_date", "total_amount")
INVOICE_FIELDS = ("invoice_number", "issue_date", "due_date", "currency", "vendor_name", "vendor_address",
                  "subtotal_amount", "tax_amount", "total_amount")
WORKERS = 2
SETTINGS = Settings(template_dir=None)


# -- SROIE -----------------------------------------------------------------------------------------------

def sroie_box_document(csv_path: Path) -> ParsedDocument:
    """A receipt page from SROIE line boxes: each transcript split into words spread over its box."""
    words: list[Word] = []
    for row in csv.reader(csv_path.read_text(encoding="utf-8", errors="replace").splitlines()):
        if len(row) < 9:
            continue
        xs, ys = [float(v) for v in row[0:8:2]], [float(v) for v in row[1:8:2]]
        transcript = ",".join(row[8:]).strip()
        if not transcript:
            continue
        x0, x1, top, bottom = min(xs), max(xs), min(ys), max(ys)
        per_char = (x1 - x0) / max(len(transcript), 1)
        offset = 0
        for token in transcript.split(" "):
            if token:
                words.append(Word(token, x0 + offset * per_char, top, x0 + (offset + len(token)) * per_char,
                                  bottom))
            offset += len(token) + 1
    width = max((w.x1 for w in words), default=1.0)
    height = max((w.bottom for w in words), default=1.0)
    text = "\n".join(w.text for w in words)
    return ParsedDocument((PageText(1, width, height, text, tuple(words), TextMethod.OCR, "sroie-box", 1.0),))


def sroie_truth(key_path: Path) -> dict[str, str | None]:
    """SROIE key fields normalised the way Quire emits them (ISO date, decimal total)."""
    key = json.loads(key_path.read_text(encoding="utf-8"))
    dates = find_dates(key["date"])
    resolved = dates[0].resolve("dmy") if dates else None
    total = parse_amount(key["total"].replace("RM", "").replace("$", "").replace(" ", ""), ".")
    return {
        "vendor_name": fold(key["company"]),
        "vendor_address": fold(key["address"]),
        "issue_date": resolved.isoformat() if resolved else None,
        "total_amount": format_amount(total) if total is not None else None,
    }


def _compare_key(field: str, value: str | None) -> str | None:
    if value is None:
        return None
    return fold(value) if field in ("vendor_name", "vendor_address") else value


def _sroie_ocr_document(image_path: Path) -> ParsedDocument:
    from quire.engines import open_document, read_page  # the page reader; absent until it lands

    with open_document(image_path) as document:
        return ParsedDocument(tuple(read_page(document, n) for n in range(1, len(document) + 1)))


@dataclass(frozen=True)
class Outcome:
    name: str
    matches: dict[str, bool]
    doc_type: str
    error: str = ""
    rows_gt: int = 0
    rows_matched: int = 0


def score_sroie_item(args: tuple[str, str]) -> Outcome:
    stem, source = args
    truth = sroie_truth(SROIE / "key" / f"{stem}.json")
    try:
        parsed = (sroie_box_document(SROIE / "box" / f"{stem}.csv") if source == "box"
                  else _sroie_ocr_document(SROIE / "img" / f"{stem}.jpg"))
        classification = classify_document(parsed)
        extraction = extract_fields(parsed, classification, templates=(), settings=SETTINGS)
    except Exception as exc:  # a benchmark reports a crash as a miss on every field, and goes on
        return Outcome(stem, {f: False for f in RECEIPT_FIELDS}, "error", f"{type(exc).__name__}: {exc}")
    matches = {f: _compare_key(f, extraction.fields[f].value) == truth[f] for f in RECEIPT_FIELDS}
    return Outcome(stem, matches, classification.doc_type)


# -- generated invoices ----------------------------------------------------------------------------------

def _normalise_truth_value(field: str, value: object) -> str | None:
    if value is None:
        return None
    return fold(str(value)) if field in ("vendor_name", "vendor_address") else str(value)


def _row_key(item: dict) -> tuple:
    return tuple(item.get(k) for k in ("description", "quantity", "unit_price", "amount"))


def score_invoice_item(args: tuple[str, str]) -> Outcome:
    document_path, truth_path = Path(args[0]), Path(args[1])
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    truth_fields = truth.get("fields", truth)
    try:
        from quire.engines import open_document, read_page

        with open_document(document_path) as document:
            parsed = ParsedDocument(tuple(read_page(document, n) for n in range(1, len(document) + 1)))
        classification = classify_document(parsed)
        extraction = extract_fields(parsed, classification, templates=(), settings=SETTINGS)
    except Exception as exc:  # reported as a miss on every field
        return Outcome(document_path.name, {f: False for f in INVOICE_FIELDS}, "error",
                       f"{type(exc).__name__}: {exc}", len(truth.get("line_items", [])), 0)
    matches = {}
    for field in INVOICE_FIELDS:
        expected = truth_fields.get(field)
        if isinstance(expected, dict):
            expected = expected.get("value")
        matches[field] = (_compare_key(field, extraction.fields[field].value)
                          == _normalise_truth_value(field, expected))
    gt_rows = [_row_key(item) for item in truth.get("line_items", [])]
    got_rows = [_row_key(item.to_json()) for item in extraction.line_items]
    matched = sum(1 for row in gt_rows if row in got_rows and not got_rows.remove(row))
    return Outcome(document_path.name, matches, classification.doc_type, rows_gt=len(gt_rows),
                   rows_matched=matched)


# -- reporting -------------------------------------------------------------------------------------------

def run(items: Sequence[tuple[str, str]], scorer: Callable[[tuple[str, str]], Outcome]) -> list[Outcome]:
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        return list(pool.map(scorer, items))


def print_table(title: str, outcomes: Sequence[Outcome], fields: Iterable[str], *, verbose: bool) -> None:
    print(f"\n{title}  (n={len(outcomes)})")
    print(f"  {'field':<18}{'accuracy':>10}{'correct':>10}")
    for field in fields:
        correct = sum(o.matches[field] for o in outcomes)
        print(f"  {field:<18}{100 * correct / max(len(outcomes), 1):>9.1f}%{correct:>10}")
    rows_gt = sum(o.rows_gt for o in outcomes)
    if rows_gt:
        rows = sum(o.rows_matched for o in outcomes)
        print(f"  {'line_item_rows':<18}{100 * rows / rows_gt:>9.1f}%{rows:>10} of {rows_gt}")
    errors = [o for o in outcomes if o.error]
    if errors:
        print(f"  errors: {len(errors)}; first: {errors[0].name}: {errors[0].error}")
    if verbose:
        for o in outcomes:
            missed = [f for f, ok in o.matches.items() if not ok]
            if missed:
                print(f"    {o.name}: missed {', '.join(missed)}")


def _engines_available() -> bool:
    try:
        from quire.engines import open_document, read_page  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--invoices", type=Path, help="generated corpus root (bench/make_corpus.py --out)")
    parser.add_argument("--no-ocr", action="store_true", help="skip OCR of the SROIE images")
    parser.add_argument("--verbose", action="store_true", help="list the misses of every document")
    args = parser.parse_args(argv)
    started = time.monotonic()
    stems = sorted(p.stem for p in (SROIE / "key").glob("*.json"))
    box = run([(s, "box") for s in stems], score_sroie_item)
    print_table("SROIE receipts, ground-truth transcripts (upper bound, no OCR errors)", box, RECEIPT_FIELDS,
                verbose=args.verbose)
    print(f"  classified as receipt: {sum(o.doc_type == 'receipt' for o in box)}/{len(box)}")
    if not args.no_ocr:
        if _engines_available():
            ocr = run([(s, "ocr") for s in stems], score_sroie_item)
            print_table("SROIE receipts, Quire OCR (quire.engines)", ocr, RECEIPT_FIELDS, verbose=args.verbose)
        else:
            print("\nSROIE receipts, Quire OCR: skipped, quire.engines (the page reader) is not available yet")
    if args.invoices:
        for split_name, kind, items in _invoice_items(args.invoices):
            outcomes = run(items, score_invoice_item)
            print_table(f"Generated invoices, split={split_name}, {kind}", outcomes, INVOICE_FIELDS,
                        verbose=args.verbose)
    print(f"\n[{time.monotonic() - started:.1f}s, {WORKERS} processes]")
    return 0


def _invoice_items(root: Path) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(split, kind, [(document, truth json)]) groups found under a generated corpus root."""
    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for truth_path in sorted(root.rglob("*.json")):
        if truth_path.name in ("manifest.json", "index.json"):
            continue
        for document_path in sorted(truth_path.parent.glob(truth_path.stem + "*")):
            if document_path.suffix.lower() in (".pdf", ".png", ".jpg", ".tif", ".tiff"):
                kind = "scanned" if "scan" in document_path.name or document_path.suffix != ".pdf" else "digital"
                split_name = next((p for p in truth_path.parts if p in ("dev", "heldout")), "all")
                groups.setdefault((split_name, kind), []).append((str(document_path), str(truth_path)))
    return [(split_name, kind, items) for (split_name, kind), items in sorted(groups.items())]


if __name__ == "__main__":
    sys.exit(main())
