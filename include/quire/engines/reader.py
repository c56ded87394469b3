"""Reading a document one page at a time: text layer first, OCR where the text layer fails.

The parse stage checkpoints every page and resumes at page k after a crash, so
the reader opens the file once, holds only the open document, and loads,
reads and frees one page per :meth:`DocumentReader.read_page` call.

Per PDF page:
1. The text layer (PDFium) is used when it has at least ``min_text_chars``
   letters/digits and a :func:`text_quality` of at least ``min_text_quality``.
   A scanned page that already carries an OCR text layer therefore is not OCRed again.
2. Otherwise the page is rendered (dpi from :func:`choose_render_dpi`, pixel
   budget checked first) and OCRed. Vector-drawn text, scans and garbage text
   layers all end here. A scan is read a second time from another rendering: as
   the scanner made it where that is below ``ocr_dpi``, else coarser (see
   :func:`second_rendering_dpi`), and the two readings are merged word by word
   (see :func:`merge_readings`). Where the merged reading is still unsure in places
   (``UNSURE_SCAN_SHARE``), the scan is read further (``unsure_scan_ocr``) and merged again.
3. A blank rendering, or OCR that finds nothing, gives ``TextMethod.EMPTY``,
   unless the text layer had a little good text (a lone page number), which is kept.
Images (PNG, JPEG, TIFF frames) are always OCRed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType

import pypdfium2 as pdfium
from PIL import Image, ImageOps

from quire.engines.inspect import (
    PDF,
    FileInfo,
    PageSize,
    image_dpi,
    inspect_file,
    open_image,
    open_pdf,
)
from quire.engines.fusion import merge_readings
from quire.engines.ocr import OcrEngine, OcrResult, get_ocr_engine, get_unsure_scan_engines, unsure_character_share
from quire.engines.quality import text_quality, usable_char_count
from quire.engines.raster import choose_render_dpi, is_blank, render_page, second_rendering_dpi
from quire.engines.textlayer import PYPDFIUM_ENGINE, TextLayer, extract_text_layer
from quire.errors import UnreadableDocumentError
from quire.model import PageText, TextMethod
from quire.settings import Settings

log = logging.getLogger(__name__)

#: a scan whose merged reading has at least this share of its characters in unsure words
#: (quire.engines.ocr.UNSURE_WORD_CONFIDENCE) is read further. bench/accuracy.py, 200 dev + 200 tune scanned
#: invoices (464 pages, extractor generic-51): line-item rows 82.9 % with two readings, 87.0 % with the further
#: readings of the 151 pages at 0.03 or more (86.9 % at 0.02, 86.6 % at 0.05). Cleanly read pages are near
#: 0.01; pages whose rows tesseract's layout analysis shreds into noise are at 0.1-0.25.
UNSURE_SCAN_SHARE = 0.03


def open_document(path: Path, settings: Settings, *, ocr: OcrEngine, unsure_scan_ocr: Sequence[OcrEngine] = (),
                  password: str | None = None) -> DocumentReader:
    """Open ``path`` for page-by-page reading; use it as a context manager.

    ``unsure_scan_ocr`` read a scanned PDF page further where ``ocr`` was unsure of it (see the module docstring).
    The intake checks run again first (type, limits, password), so a reader is
    never opened on a file intake would have refused.
    """
    info = inspect_file(path, settings, password)
    if info.media_type == PDF:
        return PdfReader(path, info, settings, ocr, tuple(unsure_scan_ocr), password)
    return ImageReader(path, info, settings, ocr)


def open_with_settings(path: Path, settings: Settings, *, password: str | None = None) -> DocumentReader:
    """:func:`open_document` with the OCR engines ``settings`` name: how the parse stage and ``quire extract``
    read a file."""
    return open_document(path, settings, ocr=get_ocr_engine(settings),
                         unsure_scan_ocr=get_unsure_scan_engines(settings), password=password)


class DocumentReader:
    """Reads pages 1..``page_count``, one at a time, in any order."""

    def __init__(self, info: FileInfo, settings: Settings, ocr: OcrEngine,
                 unsure_scan_ocr: tuple[OcrEngine, ...] = ()) -> None:
        self.info = info
        self.settings = settings
        self.ocr = ocr
        self.unsure_scan_ocr = unsure_scan_ocr
        self._resources = ExitStack()
        self._closed = False

    @property
    def page_count(self) -> int:
        return self.info.page_count

    def read_page(self, number: int) -> PageText:
        """The text of page ``number`` (1-based)."""
        if self._closed:
            raise ValueError("the document reader is closed")  # never touch freed PDFium handles
        if not 1 <= number <= self.page_count:
            raise IndexError(f"page {number} is outside 1..{self.page_count}")
        return self._read_page(number)

    def _read_page(self, number: int) -> PageText:
        raise NotImplementedError

    def close(self) -> None:
        self._closed = True
        self._resources.close()

    def __enter__(self) -> DocumentReader:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def _ocr_page(self, number: int, image: Image.Image, dpi: int, size: PageSize,
                  fallback: TextLayer | None = None, *, scan: bool = False,
                  alternative: tuple[Image.Image, int] | None = None) -> PageText:
        """OCR a rendered page; a blank page or an empty OCR result ends as EMPTY (or the fallback).

        ``alternative`` is another rendering of the same page (image, dpi), read too; the two
        readings are merged word by word (:func:`merge_readings`). A ``scan`` read unsurely is
        read further by ``unsure_scan_ocr``, each reading merged in turn.
        """
        engine = f"{self.ocr.name} {self.ocr.version}"
        if is_blank(image):
            return self._empty_or_fallback(number, size, engine, fallback)
        result = self.ocr.recognize(image, dpi)
        if alternative is not None:
            result = merge_readings(result, self.ocr.recognize(*alternative))
        if scan and unsure_character_share(result.words) >= UNSURE_SCAN_SHARE:
            for further in self.unsure_scan_ocr:
                result = merge_readings(result, further.recognize(image, dpi))
        if not result.text.strip():
            return self._empty_or_fallback(number, size, engine, fallback)
        width, height = _upright_size(size, result)
        return PageText(number, width, height, result.text, result.words, TextMethod.OCR, engine,
                        result.confidence, result.rotation)

    def _empty_or_fallback(self, number: int, size: PageSize, engine: str,
                           fallback: TextLayer | None) -> PageText:
        if fallback is not None and fallback.text and text_quality(fallback.text) >= self.settings.min_text_quality:
            return PageText(number, size.width, size.height, fallback.text, fallback.words,
                            TextMethod.TEXT_LAYER, PYPDFIUM_ENGINE, text_quality(fallback.text))
        return PageText(number, size.width, size.height, "", (), TextMethod.EMPTY, engine, 0.0)


class PdfReader(DocumentReader):
    """Pages of a PDF through PDFium."""

    def __init__(self, path: Path, info: FileInfo, settings: Settings, ocr: OcrEngine,
                 unsure_scan_ocr: tuple[OcrEngine, ...], password: str | None) -> None:
        super().__init__(info, settings, ocr, unsure_scan_ocr)
        self._document: pdfium.PdfDocument = self._resources.enter_context(open_pdf(path, password))

    def _read_page(self, number: int) -> PageText:
        size = self.info.page_sizes[number - 1]
        try:
            page = self._document[number - 1]
        except pdfium.PdfiumError as exc:
            raise UnreadableDocumentError(f"page {number} cannot be loaded: {exc}") from exc
        try:
            layer = self._text_layer(page, number)
            quality = text_quality(layer.text)
            if (usable_char_count(layer.text) >= self.settings.min_text_chars
                    and quality >= self.settings.min_text_quality):
                return PageText(number, size.width, size.height, layer.text, layer.words,
                                TextMethod.TEXT_LAYER, PYPDFIUM_ENGINE, quality)
            dpi = choose_render_dpi(page, size, self.settings.ocr_dpi, self.settings.max_page_pixels, number)
            image = render_page(page, dpi, number)
            # a blank page is not read at all, so it needs no second rendering
            second_dpi = None if is_blank(image) else second_rendering_dpi(page, size, dpi)
            second = (render_page(page, second_dpi, number), second_dpi) \
                if second_dpi is not None and self.settings.ocr_scan_resolution_reread else None
        finally:
            page.close()
        return self._ocr_page(number, image, dpi, size, fallback=layer, scan=second_dpi is not None,
                              alternative=second)

    @staticmethod
    def _text_layer(page: pdfium.PdfPage, number: int) -> TextLayer:
        try:
            return extract_text_layer(page)
        except pdfium.PdfiumError as exc:
            # A broken text layer is no reason to lose the page: OCR can still read it.
            log.warning("page %d: text layer unreadable (%s); falling back to OCR", number, exc)
            return TextLayer("", ())


class ImageReader(DocumentReader):
    """Frames of a PNG, JPEG or (multi-frame) TIFF; always OCRed."""

    def __init__(self, path: Path, info: FileInfo, settings: Settings, ocr: OcrEngine) -> None:
        super().__init__(info, settings, ocr)
        self._image: Image.Image = self._resources.enter_context(open_image(path, settings.max_image_pixels))

    def _read_page(self, number: int) -> PageText:
        try:
            self._image.seek(number - 1)
            dpi = round(image_dpi(self._image))
            # Photos carry their orientation in EXIF; apply it so OCR sees the picture as taken.
            frame = _ocr_mode(ImageOps.exif_transpose(self._image))
        except (OSError, ValueError, EOFError, SyntaxError) as exc:
            raise UnreadableDocumentError(f"image frame {number} cannot be decoded: {exc}") from exc
        width, height = frame.size
        size = PageSize(width * 72 / dpi, height * 72 / dpi)
        return self._ocr_page(number, frame, dpi, size)


def _ocr_mode(image: Image.Image) -> Image.Image:
    """8-bit grey or RGB: the two modes OCR engines are handed (palette, 16-bit, CMYK, alpha are not)."""
    if image.mode in ("L", "RGB"):
        return image
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        # Transparent pixels often hold black; text is drawn over a white page.
        rgba = image.convert("RGBA")
        page = Image.new("RGB", rgba.size, "white")
        page.paste(rgba, mask=rgba.getchannel("A"))
        return page
    return image.convert("L" if image.mode in ("1", "I", "I;16", "F") else "RGB")


def _upright_size(size: PageSize, result: OcrResult) -> tuple[float, float]:
    """The page size in the frame OCR read it in: turned by 90/270 degrees, width and height swap."""
    if result.rotation in (90, 270):
        return size.height, size.width
    return size.width, size.height
