"""Image clean-up before tesseract, and the options that say which steps run.

Every option that changes OCR output is part of :attr:`Preprocessing.key`, which
goes into the OCR engine's ``settings_key`` and so into the OCR cache key.

The defaults are what bench/ocr_quality.py measured best on the 36 SROIE receipts
(mean CER): grey + Otsu + upscaling small text to 28 px lines 0.152, against 0.177
for grey alone and 0.170 for the untouched colour scan. Upscaling by declared dpi
barely helped (0.176): most scans declare none. Sauvola (0.220) and autocontrast
(0.187) wiped out a few faint or dark scans entirely, so they are options, off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps

#: tesseract's ``thresholding_method`` values
THRESHOLDING_METHODS = {"otsu": 0, "leptonica-otsu": 1, "sauvola": 2}


@dataclass(frozen=True, slots=True)
class Preprocessing:
    """Which clean-up steps run before OCR."""

    #: convert to 8-bit grey first (tesseract thresholds colour channels separately otherwise)
    grayscale: bool = True
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

    def __post_init__(self) -> None:
        if self.thresholding not in THRESHOLDING_METHODS:
            raise ValueError(f"unknown thresholding {self.thresholding!r}; "
                             f"expected one of {sorted(THRESHOLDING_METHODS)}")

    @property
    def key(self) -> str:
        """A stable description of the options, for cache keys."""
        return (f"gray={int(self.grayscale)};min_dpi={self.min_dpi};threshold={self.thresholding};"
                f"min_text_height={self.min_text_height};autocontrast={int(self.autocontrast)};"
                f"max_px={self.max_upscaled_pixels}")

    @property
    def tesseract_config(self) -> list[str]:
        """``-c`` arguments for the tesseract CLI."""
        return ["-c", f"thresholding_method={THRESHOLDING_METHODS[self.thresholding]}"]


def prepare_image(image: Image.Image, dpi: float, options: Preprocessing) -> tuple[Image.Image, float]:
    """Apply the enabled steps; returns the image to OCR and its resolution (changed by upscaling)."""
    if options.grayscale and image.mode != "L":
        image = ImageOps.grayscale(image)
    elif image.mode not in ("L", "RGB"):
        image = image.convert("RGB")
    if options.autocontrast:
        # clip 1% at each end: a few black specks or white glare must not set the range
        image = ImageOps.autocontrast(image, cutoff=1)
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
    return image, dpi


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


def _otsu_threshold(grey: np.ndarray) -> int:
    histogram = np.bincount(grey.ravel(), minlength=256).astype(np.float64)
    share = histogram / histogram.sum()
    below = np.cumsum(share)
    below_mean = np.cumsum(share * np.arange(256))
    between = (below_mean[-1] * below - below_mean) ** 2 / (below * (1 - below) + 1e-12)
    return int(np.argmax(between))
