"""Image clean-up before tesseract, and the options that say which steps run.

Every option that changes OCR output is part of :attr:`Preprocessing.key`, which
goes into the OCR engine's ``settings_key`` and so into the OCR cache key.

The defaults are what bench/ocr_quality.py measured best on the 36 SROIE receipts.
First round (reading-order CER, mean per receipt, psm 3): grey + Otsu + upscaling small
text to 28 px lines 0.152, against 0.177 for grey alone and 0.170 for the untouched
colour scan. Upscaling by declared dpi barely helped (0.176): most scans declare none.
Sauvola (0.220) and autocontrast (0.187) wiped out a few faint or dark scans entirely.
Second round (region-aligned CER pooled over all 1961 line boxes; see the bench):
  grey + Otsu + 28 px lines, psm 3: 0.0860; psm 4: 0.0820; psm 6: 0.0757
  + separator removal (psm 6): 0.0748   + flattening (psm 6): 0.0752
  + both (psm 6): 0.0745   + both (psm 4): 0.0769 (reading-order 0.129, was 0.152)
  + both (psm 3): 0.0825   + flattening alone (psm 3): 0.0870
  + deskew (psm 6): 0.0763   + unsharp mask (psm 6): 0.0793   lines 36 px (psm 6): 0.0759
  + flattening + autocontrast (psm 6): 0.0920
Separator removal and flattening help receipts only together with psm 4 or 6, and that
combination made field extraction on the 200 generated scanned invoices worse (see
DEFAULT_SEGMENTATION in ocr.py), so every new step is an option, off; deskew (tesseract
copes with the few degrees these scans have), sharpening, Sauvola and autocontrast too.
Despeckling (a 3x3 median on the grey page) is on for full-width pages: on the generated scanned
invoices (bench/accuracy.py, 200 dev + 200 tune) line-item rows 59.3 -> 76.6 % and 39.8 -> 57.1 %,
vendor_name 83.5 -> 88.0 and 70.5 -> 82.0, total_amount 90.3 -> 92.3 and 85.3 -> 90.5, invoice_number
89.2 -> 86.7 and 92.1 -> 94.7; on the SROIE receipts it hurt (issue_date 91.7 -> 88.9 %, CER up), so
TesseractEngine leaves it out on narrow columns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter, ImageOps

from quire.model import Word

#: tesseract's ``thresholding_method`` values
THRESHOLDING_METHODS = {"otsu": 0, "leptonica-otsu": 1, "sauvola": 2}


@dataclass(frozen=True, slots=True)
class Preprocessing:
    """Which clean-up steps run before OCR."""

    #: convert to 8-bit grey first (tesseract thresholds colour channels separately otherwise)
    grayscale: bool = True
    #: a 3x3 median filter on the grey image before anything else: the salt-and-pepper noise of a scan
    #: (isolated dark pixels on grey paper) otherwise survives binarisation and tesseract reads it as
    #: letters between the columns and instead of faint values
    despeckle: bool = True
    #: images declaring less than this resolution are upscaled to it (0: never)
    min_dpi: int = 0
    #: tesseract's binarisation: "otsu" (global) or "sauvola" (local; helped shaded invoice rows in
    #: measurements.md, but erased faint dot-matrix receipts)
    thresholding: str = "otsu"
    #: stretch the grey levels so the faintest ink becomes black (faded thermal and dot-matrix prints)
    autocontrast: bool = False
    #: upscale when the text lines are shorter than this many pixels (0: never); measured on the
    #: image, because most scans do not declare their resolution (or declare a wrong one)
    min_text_height: int = 28
    #: upscaling never makes an image larger than this (tesseract time and memory grow with pixels)
    max_upscaled_pixels: int = 40_000_000
    #: level text lines slanted by up to MAX_SKEW_DEGREES (projection profile of the ink); the words
    #: are mapped back into the frame of the image as given
    deskew: bool = False
    #: whiten thin rows of dots, dashes or rules that span most of the width (receipt separators),
    #: which tesseract otherwise reads as strings of punctuation or letters
    remove_rules: bool = False
    #: a light unsharp mask after upscaling (edges blurred by LANCZOS and by the scan)
    sharpen: bool = False
    #: divide by the estimated paper brightness (shading, creases, tinted paper) so one global
    #: threshold fits the whole page
    flatten: bool = False
    #: whiten the thin long rules of table grids and boxes (vertical ones cross text lines and are read
    #: as "|", "I" or "l"; horizontal ones touching a line blur its letters)
    remove_grid: bool = False

    def __post_init__(self) -> None:
        if self.thresholding not in THRESHOLDING_METHODS:
            raise ValueError(f"unknown thresholding {self.thresholding!r}; "
                             f"expected one of {sorted(THRESHOLDING_METHODS)}")

    @property
    def key(self) -> str:
        """A stable description of the options, for cache keys."""
        key = (f"gray={int(self.grayscale)};min_dpi={self.min_dpi};threshold={self.thresholding};"
               f"min_text_height={self.min_text_height};autocontrast={int(self.autocontrast)};"
               f"max_px={self.max_upscaled_pixels}")
        # steps added later appear only when on, so the keys (and cache entries) of older settings stay valid
        for name in ("deskew", "remove_rules", "sharpen", "flatten", "remove_grid", "despeckle"):
            if getattr(self, name):
                key += f";{name}=1"
        return key

    @property
    def tesseract_config(self) -> list[str]:
        """``-c`` arguments for the tesseract CLI."""
        return ["-c", f"thresholding_method={THRESHOLDING_METHODS[self.thresholding]}"]


@dataclass(frozen=True, slots=True)
class PreparedImage:
    """The image tesseract reads, its resolution, and how to map what it reads back to the page."""

    image: Image.Image
    dpi: float
    #: degrees the image was turned counter-clockwise to level its lines (0: not turned)
    skew: float = 0.0
    #: size in points of the image before levelling (levelling enlarges the canvas to keep the corners)
    source_size: tuple[float, float] = (0.0, 0.0)

    def to_source(self, words: tuple[Word, ...], rotation: int = 0) -> tuple[Word, ...]:
        """Words read on the levelled image (turned clockwise by ``rotation``) in the unlevelled frame.

        The centre of each box is turned back about the image centre; the box keeps its size
        (a word on a slanted line has no upright box that is exactly right).
        """
        if not self.skew:
            return words
        width, height = self.image.width * 72 / self.dpi, self.image.height * 72 / self.dpi
        source_width, source_height = self.source_size
        if rotation in (90, 270):
            width, height, source_width, source_height = height, width, source_height, source_width
        angle = math.radians(self.skew)
        cos, sin = math.cos(angle), math.sin(angle)
        mapped = []
        for word in words:
            dx = (word.x0 + word.x1) / 2 - width / 2
            dy = (word.top + word.bottom) / 2 - height / 2
            cx = dx * cos - dy * sin + source_width / 2
            cy = dx * sin + dy * cos + source_height / 2
            half_w, half_h = (word.x1 - word.x0) / 2, (word.bottom - word.top) / 2
            mapped.append(Word(word.text, max(0.0, cx - half_w), max(0.0, cy - half_h),
                               min(source_width, cx + half_w), min(source_height, cy + half_h),
                               word.confidence))
        return tuple(mapped)


def prepare_image(image: Image.Image, dpi: float, options: Preprocessing) -> tuple[Image.Image, float]:
    """The image to OCR and its resolution (changed by upscaling); see :func:`prepare_page`."""
    prepared = prepare_page(image, dpi, options)
    return prepared.image, prepared.dpi


def prepare_page(image: Image.Image, dpi: float, options: Preprocessing) -> PreparedImage:
    """Apply the enabled steps: grey, despeckling, contrast, separator removal, levelling, upscaling,
    sharpening."""
    if options.grayscale and image.mode != "L":
        image = ImageOps.grayscale(image)
    elif image.mode not in ("L", "RGB"):
        image = image.convert("RGB")
    if options.despeckle and image.mode == "L":
        image = median_3x3(image)
    if options.flatten:
        image = flatten_background(image)
    if options.autocontrast:
        # clip 1% at each end: a few black specks or white glare must not set the range
        image = ImageOps.autocontrast(image, cutoff=1)
    if options.remove_rules:
        image = remove_rule_rows(image)
    skew, source_size = 0.0, (image.width * 72 / dpi, image.height * 72 / dpi)
    if options.deskew:
        skew = estimate_skew(image)
        if abs(skew) >= MIN_SKEW_DEGREES:
            background = 255 if image.mode == "L" else (255, 255, 255)
            image = image.rotate(skew, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=background)
        else:
            skew = 0.0
    if options.remove_grid:  # after levelling: a slanted rule is no long run of ink in one pixel row
        image = remove_grid_lines(image)
    factor = 1.0
    if options.min_dpi and dpi < options.min_dpi:
        factor = options.min_dpi / dpi
    if options.min_text_height:
        height = text_line_height(image)
        if height and height * factor < options.min_text_height:
            factor = options.min_text_height / height
    factor = min(factor, MAX_UPSCALE, math.sqrt(options.max_upscaled_pixels / (image.width * image.height)))
    if factor > 1.0:
        image = image.resize((round(image.width * factor), round(image.height * factor)),
                             Image.Resampling.LANCZOS)
        dpi *= factor
    if options.sharpen:
        image = image.filter(ImageFilter.UnsharpMask(radius=SHARPEN_RADIUS, percent=SHARPEN_PERCENT,
                                                     threshold=SHARPEN_THRESHOLD))
    return PreparedImage(image, dpi, skew, source_size)


#: levelling looks for skew within +-this many degrees (a receipt fed crookedly into a scanner)
MAX_SKEW_DEGREES = 5.0
#: smaller skews are left alone: resampling blurs more than the slant hurts
MIN_SKEW_DEGREES = 0.3
#: the levelled projection profile must be this much sharper than the unturned one to act
#: (pages without clear text lines, or with vertical ones, give flat scores at every angle)
MIN_SKEW_GAIN = 0.05
#: skew is estimated on a copy at most this wide (the angle does not depend on the scale)
_SKEW_ESTIMATE_WIDTH = 1000
#: a run of inky rows is a separator when it is at most this share of the median text-line height ...
_RULE_HEIGHT_SHARE = 0.5
#: ... and its ink spans at least this share of the width the page's ink spans
_RULE_WIDTH_SHARE = 0.5
SHARPEN_RADIUS, SHARPEN_PERCENT, SHARPEN_THRESHOLD = 1.0, 80, 2


#: the paper brightness is the brightest pixel within this many text-line heights (ink never fills it)
_BACKGROUND_WINDOW_LINES = 1.5


def median_3x3(image: Image.Image) -> Image.Image:
    """The 3x3 median of a grey image, edges replicated: pixel for pixel what PIL's
    ``MedianFilter(3)`` gives, in a fifth of its time (0.041 s against 0.203 s for a 200 dpi A4 page, idle machine).

    Each row of the window is sorted by min/max; the median of nine is then the median of the
    rows' largest minimum, median of medians and smallest maximum (Paeth's network).
    """
    padded = np.pad(np.asarray(image, dtype=np.uint8), 1, mode="edge")
    height, width = image.height, image.width
    rows = []
    for dy in range(3):
        a, b, c = (padded[dy:dy + height, dx:dx + width] for dx in range(3))
        low, high = np.minimum(a, b), np.maximum(a, b)
        rows.append((np.minimum(low, c), np.maximum(low, np.minimum(high, c)), np.maximum(high, c)))
    largest_min = np.maximum(np.maximum(rows[0][0], rows[1][0]), rows[2][0])
    smallest_max = np.minimum(np.minimum(rows[0][2], rows[1][2]), rows[2][2])
    return Image.fromarray(_median_of_three(largest_min, _median_of_three(*(row[1] for row in rows)), smallest_max))


def _median_of_three(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def flatten_background(image: Image.Image) -> Image.Image:
    """The image divided by its local paper brightness: shading and tinted paper become white.

    The background is a max filter (ink is darker than paper) over a window of about 1.5 text
    lines, computed on a copy reduced 4x and smoothed, then stretched back to full size.
    """
    colour = image.mode != "L"
    grey = ImageOps.grayscale(image) if colour else image
    line_height = text_line_height(grey) or 30.0
    reduction = 4
    small = grey.resize((max(1, grey.width // reduction), max(1, grey.height // reduction)), Image.Resampling.BOX)
    size = max(3, int(_BACKGROUND_WINDOW_LINES * line_height / reduction) | 1)  # odd, as MaxFilter needs
    background = small.filter(ImageFilter.MaxFilter(size)).filter(ImageFilter.GaussianBlur(size / 2))
    background = np.asarray(background.resize(grey.size, Image.Resampling.BILINEAR), dtype=np.float32)
    pixels = np.asarray(image, dtype=np.float32)
    if colour:
        background = background[..., None]
    flat = np.clip(pixels * 255.0 / np.maximum(background, 1.0), 0, 255)
    return Image.fromarray(flat.astype(np.uint8))


def estimate_skew(image: Image.Image) -> float:
    """Degrees to turn ``image`` counter-clockwise so its text lines run level (0 when unsure).

    Positive when the lines run down to the right. The angle maximises the sharpness (sum of
    squares) of the projection profile of the ink pixels, searched coarsely and then finely.
    """
    grey = image if image.mode == "L" else ImageOps.grayscale(image)
    if grey.width > _SKEW_ESTIMATE_WIDTH:
        grey = grey.resize((_SKEW_ESTIMATE_WIDTH, max(1, round(grey.height * _SKEW_ESTIMATE_WIDTH / grey.width))),
                           Image.Resampling.BOX)
    pixels = np.asarray(grey, dtype=np.uint8)
    ys, xs = np.nonzero(pixels <= _otsu_threshold(pixels))
    if ys.size < 100:
        return 0.0
    step = max(1, ys.size // 200_000)  # enough points for a stable profile, bounded cost
    ys, xs = ys[::step].astype(np.float64), xs[::step].astype(np.float64)

    def sharpness(degrees: float) -> float:
        projected = ys - xs * math.tan(math.radians(degrees))
        counts = np.bincount((projected - projected.min()).astype(np.int64))
        return float(np.dot(counts, counts))

    coarse = np.arange(-MAX_SKEW_DEGREES, MAX_SKEW_DEGREES + 1e-9, 0.5)
    best = max(coarse, key=sharpness)
    fine = np.arange(best - 0.5, best + 0.5 + 1e-9, 0.05)
    best = float(max(fine, key=sharpness))
    if sharpness(best) < sharpness(0.0) * (1 + MIN_SKEW_GAIN):
        return 0.0
    return round(max(-MAX_SKEW_DEGREES, min(MAX_SKEW_DEGREES, best)), 2)


def remove_rule_rows(image: Image.Image) -> Image.Image:
    """Whiten thin bands of ink that span most of the page width: dotted, dashed and solid separators.

    A band is a run of rows holding ink between blank rows (as in :func:`text_line_height`);
    text bands are about a line high, separator bands a fraction of that.
    """
    pixels = np.asarray(image)
    grey = pixels if pixels.ndim == 2 else np.asarray(ImageOps.grayscale(image), dtype=np.uint8)
    ink = grey <= _otsu_threshold(grey)
    inky_rows = ink.sum(axis=1) > max(2, _INK_ROW_SHARE * grey.shape[1])
    edges = np.diff(np.concatenate(([0], inky_rows.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    lengths = ends - starts
    lines = lengths[lengths >= _MIN_LINE_ROWS]
    if lines.size < 3:
        return image
    line_height = float(np.median(lines))
    inky_columns = np.flatnonzero(ink.any(axis=0))
    page_span = inky_columns[-1] - inky_columns[0] + 1
    cleaned = None
    for start, end in zip(starts, ends):
        if end - start > _RULE_HEIGHT_SHARE * line_height:
            continue
        columns = np.flatnonzero(ink[start:end].any(axis=0))
        if columns[-1] - columns[0] + 1 < _RULE_WIDTH_SHARE * page_span:
            continue
        if cleaned is None:
            cleaned = pixels.copy()
        cleaned[max(0, start - 1):end + 1] = 255  # one row of margin for the anti-aliased edge
    return image if cleaned is None else Image.fromarray(cleaned)


#: a horizontal rule runs at least this many text-line heights (no letter or word does), a vertical one ...
_GRID_HORIZONTAL_LINES = 6.0
#: ... at least this many (no letter is taller than a line; table rules span rows)
_GRID_VERTICAL_LINES = 2.0
#: and a rule is at most this share of a text-line height thick (filled bands and shaded rows are thicker)
_GRID_THICKNESS_SHARE = 0.35
#: how far beyond its ink pixels a rule is whitened
_GRID_EDGE_PIXELS = 3
#: the paper's shade is the median of every this-many-th background pixel (the exact median costs more)
_PAPER_SAMPLE_STEP = 97


def remove_grid_lines(image: Image.Image) -> Image.Image:
    """Whiten table rules: runs of ink far longer than a letter, in either direction, that stay thin.

    Separate from :func:`remove_rule_rows`, which only whitens separators standing apart between
    text lines: a grid's rules touch each other and the cell text, so they are found as long thin
    runs of ink pixels instead. Shaded bands and filled boxes are thick, and are left alone.

    Off by default: on the first 12 generated dev scans (psm 3), together with levelling, the item
    rows found fell from about 53 % to 29.9 %; alone, on a slanted page it cost 2 of 4 rows, because
    slanted rules are long in no one pixel row and what is left of them breaks the text lines apart.
    """
    pixels = np.asarray(image)
    grey = pixels if pixels.ndim == 2 else np.asarray(ImageOps.grayscale(image), dtype=np.uint8)
    line_height = text_line_height(image)
    if not line_height:
        return image
    ink = grey <= _otsu_threshold(grey)
    thickness = max(2, round(_GRID_THICKNESS_SHARE * line_height))
    horizontal = _runs_at_least(ink, round(_GRID_HORIZONTAL_LINES * line_height), axis=1)
    horizontal &= ~_runs_at_least(horizontal, thickness + 1, axis=0)
    vertical = _runs_at_least(ink, round(_GRID_VERTICAL_LINES * line_height), axis=0)
    vertical &= ~_runs_at_least(vertical, thickness + 1, axis=1)
    rules = horizontal | vertical
    if not rules.any():
        return image
    # a margin for the blurred, anti-aliased edge of each rule (left behind, it reads as two faint rules)
    grown = rules.copy()
    for _ in range(_GRID_EDGE_PIXELS):
        edge = grown.copy()
        edge[1:] |= grown[:-1]
        edge[:-1] |= grown[1:]
        edge[:, 1:] |= grown[:, :-1]
        edge[:, :-1] |= grown[:, 1:]
        grown = edge
    cleaned = pixels.copy()
    # the paper's own shade, so no white seams are left where the rules were
    cleaned[grown] = np.median(pixels[~ink][::_PAPER_SAMPLE_STEP], axis=0)
    return Image.fromarray(cleaned)


def _runs_at_least(mask: np.ndarray, length: int, axis: int) -> np.ndarray:
    """The pixels of ``mask`` that lie in an unbroken run of at least ``length`` along ``axis``."""
    data = mask if axis == 1 else mask.T
    if data.shape[1] < length:
        return np.zeros_like(mask)
    counts = np.zeros((data.shape[0], data.shape[1] + 1), dtype=np.int32)
    np.cumsum(data, axis=1, out=counts[:, 1:])
    full = (counts[:, length:] - counts[:, :-length]) == length  # windows [j, j + length) all ink
    starts = np.zeros((data.shape[0], full.shape[1] + 1), dtype=np.int32)
    np.cumsum(full, axis=1, out=starts[:, 1:])
    # pixel j lies in a full window when one starts in [j - length + 1, j]
    j = np.arange(data.shape[1])
    high = np.minimum(j, full.shape[1] - 1) + 1
    low = np.maximum(j - length + 1, 0)
    covered = (starts[:, high] - starts[:, low]) > 0
    return covered if axis == 1 else covered.T


#: never enlarge more than this: beyond it the estimate is more likely wrong than the text that small
MAX_UPSCALE = 4.0
#: a row belongs to a text line when at least this share of its pixels is ink
_INK_ROW_SHARE = 0.01
#: shorter runs of inky rows are rules, specks or underlines, not text lines
_MIN_LINE_ROWS = 4


def text_line_height(image: Image.Image) -> float:
    """Median height in pixels of the image's text lines (0 when none are found).

    Rows are split into ink and background by Otsu's threshold; a run of rows
    with ink is a text line. Cheap (one pass over the pixels) and good enough to
    decide whether text is too small for tesseract, which reads best at ~30 px lines.
    """
    grey = np.asarray(image if image.mode == "L" else ImageOps.grayscale(image), dtype=np.uint8)
    ink = grey <= _otsu_threshold(grey)
    inky_rows = ink.sum(axis=1) > max(2, _INK_ROW_SHARE * grey.shape[1])
    # run lengths of consecutive inky rows
    edges = np.diff(np.concatenate(([0], inky_rows.astype(np.int8), [0])))
    lengths = np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)
    lines = lengths[lengths >= _MIN_LINE_ROWS]
    return float(np.median(lines)) if lines.size else 0.0


#: share of the ink left out at each end when measuring its extent (specks, a scanner's edge shadow)
_INK_EXTENT_TRIM = 0.01


def ink_aspect_ratio(image: Image.Image) -> float:
    """Height over width of the region holding the page's ink (0 on a blank page).

    The extent in each direction spans the middle 98 % of the ink, so that specks and the dark
    border of a scan do not widen it. A till receipt, photographed or on a scanner's page, is
    a narrow tall column; a full-width invoice is about as tall as wide or less.
    """
    grey = np.asarray(image if image.mode == "L" else ImageOps.grayscale(image), dtype=np.uint8)
    ink = grey <= _otsu_threshold(grey)
    total = int(ink.sum())
    if not total:
        return 0.0

    def extent(counts: np.ndarray) -> int:
        cumulative = np.cumsum(counts)
        low = np.searchsorted(cumulative, _INK_EXTENT_TRIM * total)
        high = np.searchsorted(cumulative, (1 - _INK_EXTENT_TRIM) * total)
        return int(high - low) + 1

    return extent(ink.sum(axis=1)) / extent(ink.sum(axis=0))


def _otsu_threshold(grey: np.ndarray) -> int:
    histogram = np.bincount(grey.ravel(), minlength=256).astype(np.float64)
    share = histogram / histogram.sum()
    below = np.cumsum(share)
    below_mean = np.cumsum(share * np.arange(256))
    between = (below_mean[-1] * below - below_mean) ** 2 / (below * (1 - below) + 1e-12)
    return int(np.argmax(between))
