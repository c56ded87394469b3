"""OCR character error rate per preprocessing variant on the SROIE receipts (real scans with line ground truth).

    .venv/bin/python bench/ocr_quality.py [--jobs 2] [--limit N] [--variants raw,gray,...]

CER = edit distance / reference length, after putting both texts in the same reading order
(boxes grouped into lines by vertical overlap, lines top to bottom, left to right within
a line), collapsing whitespace and upper-casing: tesseract may emit columns in another
order, which raw edit distance would count as errors, and SROIE transcribes every line in
capitals ("DOCUMENT NO" for a printed "Document No").
Each receipt goes through the production engine (TesseractEngine.recognize), so
OSD and every option are measured as Quire runs them.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps

from quire.engines.inspect import image_dpi
from quire.engines.ocr import TesseractEngine
from quire.engines.preprocess import Preprocessing
from quire.model import Word

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "dev"

VARIANTS = {
    "colour+otsu": Preprocessing(grayscale=False, min_dpi=0, thresholding="otsu"),
    "gray": Preprocessing(grayscale=True, min_dpi=0, thresholding="otsu"),
    "gray+sauvola": Preprocessing(grayscale=True, min_dpi=0, thresholding="sauvola"),
    "gray+upscale300": Preprocessing(grayscale=True, min_dpi=300, thresholding="otsu"),
    "gray+upscale300+sauvola": Preprocessing(grayscale=True, min_dpi=300, thresholding="sauvola"),
    "colour+lines28": Preprocessing(grayscale=False, min_dpi=0, thresholding="otsu", min_text_height=28),
    "gray+lines28": Preprocessing(grayscale=True, min_dpi=0, thresholding="otsu", min_text_height=28),
    "gray+lines28+sauvola": Preprocessing(grayscale=True, min_dpi=0, thresholding="sauvola", min_text_height=28),
    "gray+lines40+sauvola": Preprocessing(grayscale=True, min_dpi=0, thresholding="sauvola", min_text_height=40),
    "gray+contrast+lines28": Preprocessing(grayscale=True, min_dpi=0, thresholding="otsu", min_text_height=28,
                                           autocontrast=True),
    "gray+contrast+lines28+sauvola": Preprocessing(grayscale=True, min_dpi=0, thresholding="sauvola",
                                                   min_text_height=28, autocontrast=True),
    "gray+contrast+lines36": Preprocessing(grayscale=True, min_dpi=0, thresholding="otsu", min_text_height=36,
                                           autocontrast=True),
}


@dataclass(frozen=True)
class Receipt:
    name: str
    image: Path
    reference: str


def load_receipts(corpus: Path) -> list[Receipt]:
    receipts = []
    for image in sorted((corpus / "sroie" / "img").glob("*.jpg")):
        boxes = corpus / "sroie" / "box" / f"{image.stem}.csv"
        receipts.append(Receipt(image.stem, image, reference_text(boxes)))
    return receipts


def reference_text(path: Path) -> str:
    """Ground-truth line boxes, in the same reading order as the OCR words."""
    boxes = []
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        for row in csv.reader(handle):
            if len(row) < 9:
                continue
            xs, ys = [int(v) for v in row[0:8:2]], [int(v) for v in row[1:8:2]]
            transcript = ",".join(row[8:])  # the transcript may contain commas
            boxes.append(Word(transcript, min(xs), min(ys), max(xs), max(ys)))
    return reading_order(tuple(boxes))


def reading_order(words: tuple[Word, ...] | list[Word]) -> str:
    """Words grouped into lines by vertical overlap, lines top to bottom, words left to right."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        centre = (word.top + word.bottom) / 2
        if lines and lines[-1][0].top <= centre <= lines[-1][0].bottom:
            lines[-1].append(word)
        else:
            lines.append([word])
    return normalise(" ".join(" ".join(w.text for w in sorted(line, key=lambda w: w.x0)) for line in lines))


def normalise(text: str) -> str:
    return " ".join(text.upper().split())


def edit_distance(a: str, b: str) -> int:
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def measure(task: tuple[str, Receipt]) -> tuple[str, str, float, float]:
    variant, receipt = task
    engine = TesseractEngine("eng", VARIANTS[variant])
    with Image.open(receipt.image) as opened:
        dpi = round(image_dpi(opened))
        image = ImageOps.exif_transpose(opened).convert("RGB")
    started = time.perf_counter()
    result = engine.recognize(image, dpi)
    seconds = time.perf_counter() - started
    hypothesis = reading_order(result.words)
    cer = edit_distance(receipt.reference, hypothesis) / max(1, len(receipt.reference))
    return variant, receipt.name, cer, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("QUIRE_CORPUS_DIR", DEFAULT_CORPUS)))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="only the first N receipts")
    parser.add_argument("--receipts", default="", help="comma-separated receipt numbers (default: all)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated variant names")
    parser.add_argument("--per-receipt", action="store_true", help="also print every receipt's CER")
    args = parser.parse_args()

    receipts = load_receipts(args.corpus)[: args.limit or None]
    if args.receipts:
        receipts = [r for r in receipts if r.name in args.receipts.split(",")]
    variants = [v for v in args.variants.split(",") if v]
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variants {sorted(unknown)}; known: {list(VARIANTS)}")
    tasks = [(variant, receipt) for variant in variants for receipt in receipts]
    results: dict[str, list[tuple[str, float, float]]] = {v: [] for v in variants}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for variant, name, cer, seconds in pool.map(measure, tasks):
            results[variant].append((name, cer, seconds))

    print(f"{len(receipts)} SROIE receipts, tesseract, {args.jobs} processes")
    print(f"{'variant':<28} {'mean CER':>9} {'median':>8} {'worst':>7} {'s/page':>7}")
    for variant in variants:
        cers = [cer for _, cer, _ in results[variant]]
        seconds = [s for _, _, s in results[variant]]
        print(f"{variant:<28} {statistics.mean(cers):>9.4f} {statistics.median(cers):>8.4f} "
              f"{max(cers):>7.3f} {statistics.mean(seconds):>7.2f}")
    if args.per_receipt:
        names = [r.name for r in receipts]
        print("\nreceipt " + " ".join(f"{v[:12]:>12}" for v in variants))
        by_variant = {v: {n: c for n, c, _ in results[v]} for v in variants}
        for name in names:
            print(f"{name:<7} " + " ".join(f"{by_variant[v][name]:>12.3f}" for v in variants))
    return 0


if __name__ == "__main__":
    sys.exit(main())
