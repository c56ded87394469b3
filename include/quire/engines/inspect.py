"""Input inspection: what a file really is, and whether Quire may work on it.

Intake calls :func:`inspect_file` before any page is rendered or OCRed. It
decides the media type from magic bytes (never the name), opens the file with
the primary engine (PDFium through pypdfium2, Pillow for images) and refuses
anything over the configured limits *from headers alone*: page sizes in points
and image header dimensions, so a decompression bomb is never decoded.

Password rule (PDF). A PDF is readable without a password only when the empty
string is its *user* password. poppler and pdfminer also open a file through an
empty *owner* password although its user password is not empty (e.g.
``qpdf --encrypt secret "" ...``); PDFium does not, for RC4 and AES-256 alike,
and PDFium is the engine Quire reads with, so its refusal is the rule: such a
file is :class:`PasswordRequiredError`. A permissions-only PDF (empty user
password, some owner password) opens without one. A password the caller
supplies is accepted if PDFium opens the file with it (user or owner password).
Tests pin both cases, so an engine upgrade that changes this is noticed.

Every third-party failure is translated into the Quire error hierarchy here;
nothing unclassified escapes.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
from PIL import Image, UnidentifiedImageError

from quire.errors import (
    DocumentTooLargeError,
    InputRejectedError,
    PasswordRequiredError,
    QuarantineError,
    UnreadableDocumentError,
)
from quire.settings import Settings

PDF = "application/pdf"
PNG = "image/png"
JPEG = "image/jpeg"
TIFF = "image/tiff"
SUPPORTED_MEDIA_TYPES = frozenset({PDF, PNG, JPEG, TIFF})

#: image resolution assumed when a file declares none (or JFIF's meaningless 72 dpi default)
ASSUMED_IMAGE_DPI = 300
#: PDF readers accept the header anywhere in the first KiB (ISO 32000-1, Annex H.3)
_PDF_HEADER_WINDOW = 1024

_PDFIUM_OPEN_ERRORS = {
    pdfium_raw.FPDF_ERR_FILE: "the file could not be opened",
    pdfium_raw.FPDF_ERR_FORMAT: "not a readable PDF: its structure is broken "
                                "(no usable cross-reference table, trailer or /Root object)",
    pdfium_raw.FPDF_ERR_SECURITY: "not a readable PDF: it uses an unsupported security handler",
    pdfium_raw.FPDF_ERR_PAGE: "not a readable PDF: its page tree is broken",
}


@dataclass(frozen=True, slots=True)
class PageSize:
    """A page's size in points (1/72 in) as displayed, i.e. after /Rotate."""

    width: float
    height: float

    def pixels_at(self, dpi: float) -> int:
        """How many pixels the page renders to at ``dpi``."""
        return math.ceil(self.width * dpi / 72) * math.ceil(self.height * dpi / 72)


@dataclass(frozen=True, slots=True)
class FileInfo:
    """What :func:`inspect_file` learned about an acceptable file."""

    media_type: str
    page_count: int
    encrypted: bool
    page_sizes: tuple[PageSize, ...]
    #: pixel size of each image frame; empty for a PDF
    image_sizes: tuple[tuple[int, int], ...] = ()


def inspect_file(path: Path, settings: Settings, password: str | None = None) -> FileInfo:
    """Identify ``path`` by its bytes and check it against the intake limits.

    Raises :class:`InputRejectedError` for an unsupported type or a file over
    ``settings.max_file_bytes``; :class:`UnreadableDocumentError`,
    :class:`PasswordRequiredError` or :class:`DocumentTooLargeError` (each a
    :class:`QuarantineError` carrying a ``media_type`` attribute) when the file
    is of a supported type but cannot be worked on.
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputRejectedError(f"cannot read file: {exc.strerror or exc}") from exc
    if size > settings.max_file_bytes:
        raise InputRejectedError(f"file is {size} bytes; the limit is {settings.max_file_bytes}")
    media_type = sniff_media_type(path)
    try:
        if media_type == PDF:
            return _inspect_pdf(path, settings, password)
        return _inspect_image(path, settings, media_type)
    except QuarantineError as exc:
        exc.media_type = media_type  # intake records the type even for a quarantined file
        raise


def sniff_media_type(path: Path) -> str:
    """The media type told by the file's first bytes; :class:`InputRejectedError` if unsupported."""
    try:
        with path.open("rb") as handle:
            head = handle.read(_PDF_HEADER_WINDOW)
    except OSError as exc:
        raise InputRejectedError(f"cannot read file: {exc.strerror or exc}") from exc
    if not head:
        raise InputRejectedError("the file is empty")
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if head.startswith(b"\xff\xd8\xff"):
        return JPEG
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return TIFF
    if b"%PDF-" in head:
        return PDF
    raise InputRejectedError(
        "unsupported file type: expected a PDF, PNG, JPEG or TIFF "
        f"(the file starts with {head[:8]!r})"
    )


# -- PDF ---------------------------------------------------------------------------------------------


@contextmanager
def open_pdf(path: Path, password: str | None = None) -> Iterator[pdfium.PdfDocument]:
    """Open a PDF with PDFium under Quire's password rule, closing it on exit.

    Raises :class:`PasswordRequiredError` or :class:`UnreadableDocumentError`.
    """
    try:
        document = pdfium.PdfDocument(path, password=password or None)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_raw.FPDF_ERR_PASSWORD:
            if password:
                raise PasswordRequiredError("the PDF is encrypted and the supplied password does not open it") \
                    from exc
            raise PasswordRequiredError("the PDF is encrypted and needs a password to open") from exc
        reason = _PDFIUM_OPEN_ERRORS.get(code, f"not a readable PDF: {exc}")
        raise UnreadableDocumentError(reason) from exc
    except (OSError, ValueError, RuntimeError) as exc:
        raise UnreadableDocumentError(f"not a readable PDF: {exc}") from exc
    try:
        yield document
    finally:
        document.close()


def is_encrypted(document: pdfium.PdfDocument) -> bool:
    """Whether PDFium found a security handler on the open document."""
    return pdfium_raw.FPDF_GetSecurityHandlerRevision(document.raw) != -1


def _inspect_pdf(path: Path, settings: Settings, password: str | None) -> FileInfo:
    with open_pdf(path, password) as document:
        page_count = len(document)
        if page_count == 0:
            raise UnreadableDocumentError("the PDF has no pages")
        if page_count > settings.max_pages:
            raise DocumentTooLargeError(f"the PDF has {page_count} pages; the limit is {settings.max_pages}")
        sizes = tuple(pdf_page_size(document, index) for index in range(page_count))
        encrypted = is_encrypted(document)
    for number, size in enumerate(sizes, start=1):
        check_page_pixels(size, settings.ocr_dpi, settings.max_page_pixels, number)
    return FileInfo(PDF, page_count, encrypted, sizes)


def pdf_page_size(document: pdfium.PdfDocument, index: int) -> PageSize:
    """Displayed page size in points, read without loading the page's content."""
    try:
        width, height = document.get_page_size(index)
    except (pdfium.PdfiumError, OSError, ValueError) as exc:
        raise UnreadableDocumentError(f"not a readable PDF: page {index + 1} cannot be read ({exc})") from exc
    if not (math.isfinite(width) and math.isfinite(height)) or width <= 0 or height <= 0:
        raise UnreadableDocumentError(f"not a readable PDF: page {index + 1} has no usable size "
                                      f"({width} x {height} pt)")
    return PageSize(width, height)


def check_page_pixels(size: PageSize, dpi: float, max_pixels: int, page_number: int) -> None:
    """Refuse a page that would render to more than ``max_pixels`` at ``dpi`` (before rendering it)."""
    pixels = size.pixels_at(dpi)
    if pixels > max_pixels:
        raise DocumentTooLargeError(
            f"page {page_number} is {size.width:.0f} x {size.height:.0f} pt, {pixels / 1e6:.0f} megapixels at "
            f"{dpi:g} dpi; the limit is {max_pixels / 1e6:.0f} megapixels"
        )


# -- images ------------------------------------------------------------------------------------------


@contextmanager
def open_image(path: Path, max_pixels: int) -> Iterator[Image.Image]:
    """Open an image lazily (headers only) with Pillow's bomb guard turned into Quire errors."""
    try:
        with warnings.catch_warnings():
            # Quire applies its own pixel limit from the header; Pillow's global one only warns below 2x.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(path)
    except Image.DecompressionBombError as exc:
        raise DocumentTooLargeError(f"the image is too large to open safely: {exc}") from exc
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise UnreadableDocumentError(f"not a readable image: {exc}") from exc
    try:
        check_image_pixels(image.size, max_pixels, frame=1)
        yield image
    finally:
        image.close()


def check_image_pixels(size: tuple[int, int], max_pixels: int, frame: int) -> None:
    """Refuse an image frame whose header promises more than ``max_pixels``."""
    width, height = size
    if width <= 0 or height <= 0:
        raise UnreadableDocumentError(f"not a readable image: frame {frame} is {width} x {height} pixels")
    if width * height > max_pixels:
        raise DocumentTooLargeError(
            f"image frame {frame} is {width} x {height} pixels ({width * height / 1e6:.0f} megapixels); "
            f"the limit is {max_pixels / 1e6:.0f} megapixels"
        )


def image_dpi(image: Image.Image) -> float:
    """The resolution an image declares, or :data:`ASSUMED_IMAGE_DPI` when it declares none usable."""
    declared = image.info.get("dpi")
    try:
        dpi = float(declared[0]) if declared else 0.0
    except (TypeError, ValueError, IndexError):
        dpi = 0.0
    # 72 (JFIF's default) and silly values mean "unknown" in practice.
    return dpi if 72 < dpi <= 4800 else ASSUMED_IMAGE_DPI


def _inspect_image(path: Path, settings: Settings, media_type: str) -> FileInfo:
    frame_sizes: list[tuple[int, int]] = []
    page_sizes: list[PageSize] = []
    with open_image(path, settings.max_image_pixels) as image:
        try:
            for index in range(getattr(image, "n_frames", 1)):
                if index >= settings.max_pages:
                    raise DocumentTooLargeError(f"the image has more than {settings.max_pages} frames; "
                                                f"the limit is {settings.max_pages}")
                image.seek(index)  # reads the frame's header, decodes nothing
                check_image_pixels(image.size, settings.max_image_pixels, frame=index + 1)
                dpi = image_dpi(image)
                frame_sizes.append(image.size)
                page_sizes.append(PageSize(image.size[0] * 72 / dpi, image.size[1] * 72 / dpi))
        except (EOFError, OSError, ValueError, SyntaxError) as exc:
            raise UnreadableDocumentError(f"not a readable image: frame {len(frame_sizes) + 1} "
                                          f"cannot be read ({exc})") from exc
    return FileInfo(media_type, len(frame_sizes), False, tuple(page_sizes), tuple(frame_sizes))
