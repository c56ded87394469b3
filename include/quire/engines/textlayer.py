"""A page's text layer through PDFium: text plus word boxes in display points.

PDFium gives characters in reading order with boxes in PDF user space (origin
bottom-left, before /Rotate and the crop box offset). Words in Quire are in
points with the origin at the top-left of the page *as displayed*, so every box
goes through the same page-to-display transform PDFium uses when it renders.
pypdfium2 costs ~2-4 ms a page against ~170-250 ms for pdfplumber
(measurements.md), so pdfplumber is not used here.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

from quire.model import Word

PYPDFIUM_ENGINE = f"pypdfium2 {pdfium.PYPDFIUM_INFO}"

_WHITESPACE = frozenset(" \t\r\n\x0b\x0c\xa0\u2000\u2001\u2002\u2003\u2009\u200a\u3000")
#: device units per point when asking PDFium for its transform; integers in, so scale up for precision
_DEVICE_SCALE = 64


@dataclass(frozen=True, slots=True)
class TextLayer:
    text: str
    words: tuple[Word, ...]


@dataclass(frozen=True, slots=True)
class _Affine:
    """x' = a*x + c*y + e ; y' = b*x + d*y + f."""

    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f


def extract_text_layer(page: pdfium.PdfPage) -> TextLayer:
    """The page's text (lines joined by newlines) and its words with display-space boxes.

    A hyphen PDFium joined across a line break is kept as printed (``dan-`` /
    ``gerous``) so text-layer and OCR output of the same page look alike.
    """
    width, height = page.get_size()
    to_display = _display_transform(page, width, height)
    textpage = page.get_textpage()
    try:
        return _read_chars(textpage, to_display)
    finally:
        textpage.close()


def _display_transform(page: pdfium.PdfPage, width: float, height: float) -> _Affine:
    """PDFium's own page-space -> display-space mapping (handles /Rotate and crop box offsets)."""
    device_w, device_h = round(width * _DEVICE_SCALE), round(height * _DEVICE_SCALE)
    x_out, y_out = ctypes.c_int(), ctypes.c_int()

    def to_device(x: float, y: float) -> tuple[float, float]:
        pdfium_raw.FPDF_PageToDevice(page.raw, 0, 0, device_w, device_h, 0, x, y, x_out, y_out)
        return x_out.value / _DEVICE_SCALE, y_out.value / _DEVICE_SCALE

    span = 1000.0  # far-apart points keep the integer rounding of device coordinates negligible
    ox, oy = to_device(0.0, 0.0)
    xx, xy = to_device(span, 0.0)
    yx, yy = to_device(0.0, span)
    return _Affine((xx - ox) / span, (xy - oy) / span, (yx - ox) / span, (yy - oy) / span, ox, oy)


def _read_chars(textpage: pdfium.PdfTextPage, to_display: _Affine) -> TextLayer:
    raw_page = textpage.raw
    box = pdfium_raw.FS_RECTF()
    text_parts: list[str] = []
    words: list[Word] = []
    word_chars: list[str] = []
    word_box: list[float] = []  # x0, top, x1, bottom of the word being collected

    def finish_word() -> None:
        if word_chars:
            words.append(Word("".join(word_chars), *word_box))
            word_chars.clear()

    for index in range(pdfium_raw.FPDFText_CountChars(raw_page)):
        code = pdfium_raw.FPDFText_GetUnicode(raw_page, index)
        if code == 0 or 0xD800 <= code <= 0xDFFF:
            continue  # no character, or half of a pair PDFium could not combine
        char = chr(code)
        if char == "\r":
            continue  # PDFium ends lines with \r\n; \n alone is enough
        if char in _WHITESPACE:
            finish_word()
            text_parts.append("\n" if char == "\n" else " ")
            continue
        # A hyphen that ends a line and joins a word across it: PDFium drops the line break
        # and reports the hyphen as a control character (U+0002 here, U+FFFE in get_text_range).
        line_end_hyphen = bool(pdfium_raw.FPDFText_IsHyphen(raw_page, index))
        if line_end_hyphen:
            char = "-"
        if pdfium_raw.FPDFText_GetLooseCharBox(raw_page, index, box):
            x0, top, x1, bottom = _display_box(to_display, box)
            if word_chars:
                word_box[:] = [min(word_box[0], x0), min(word_box[1], top),
                               max(word_box[2], x1), max(word_box[3], bottom)]
            else:
                word_box[:] = [x0, top, x1, bottom]
            word_chars.append(char)
        text_parts.append(char)
        if line_end_hyphen:
            finish_word()
            text_parts.append("\n")
    finish_word()
    text = "\n".join(line.rstrip() for line in "".join(text_parts).split("\n")).strip()
    return TextLayer(text, tuple(words))


def _display_box(to_display: _Affine, rect: pdfium_raw.FS_RECTF) -> tuple[float, float, float, float]:
    ax, ay = to_display.apply(rect.left, rect.top)
    bx, by = to_display.apply(rect.right, rect.bottom)
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)
