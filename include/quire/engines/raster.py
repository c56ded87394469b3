"""Rendering PDF pages for OCR: which dpi, a pixel budget checked first, and blank-page detection.

PDFium renders 5-10x faster than pdftoppm (measurements.md), and the page size
in points tells the pixel count before a single pixel is allocated, so the
budget is enforced before rendering: a decompression-bomb page is refused, not
rendered.
"""

from __future__ import annotations

import math

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
from PIL import Image

from quire.engines.inspect import PageSize, check_page_pixels
from quire.errors import DocumentTooLargeError, UnreadableDocumentError

#: a page is "small" when it renders to fewer pixels than a US-letter page would at the OCR dpi
_REFERENCE_PAGE_SQUARE_INCHES = 8.5 * 11
#: images looked at per page when estimating the scan resolution (a page may hold thousands of tiles)
_MAX_IMAGES_EXAMINED = 64
#: a page counts as blank with at most this share of dark pixels (a rendered empty page has none)
_BLANK_INK_SHARE = 1e-5
#: how much darker than the background a pixel must be to count as ink
_INK_CONTRAST = 64
#: a page is a scan when one image covers at least this share of it
SCAN_COVERAGE = 0.9
#: images of lower resolution are thumbnails or placeholders, not scans worth reading as they are
MIN_SCAN_DPI = 100
#: a scan at the OCR dpi or finer is read a second time rendered this coarse. bench/accuracy.py on the dev
#: and tune scanned invoices, the two readings merged (quire.engines.fusion), rows dev / tune: one reading
#: 86.3 / 69.8 %; second at 150 dpi 87.0 / 71.8, at 200 dpi 88.1 / 71.8, at 400 dpi 87.1 / 71.2
SECOND_READING_DPI = 200


def choose_render_dpi(page: pdfium.PdfPage, size: PageSize, ocr_dpi: int, max_pixels: int,
                      page_number: int) -> int:
    """The dpi to render ``page`` at for OCR.

    Normally ``ocr_dpi``. A page smaller than a letter page that carries an image
    of higher resolution (a 120 x 86 pt page holding a 2400 dpi scan) is rendered
    closer to the image's own resolution, up to the pixels a letter page would
    have at ``ocr_dpi``: at ``ocr_dpi`` its text would be a few pixels tall.
    Never more than ``max_pixels``; :class:`DocumentTooLargeError` if even
    ``ocr_dpi`` is over the budget.
    """
    check_page_pixels(size, ocr_dpi, max_pixels, page_number)
    square_inches = size.width * size.height / 72**2
    reference_pixels = _REFERENCE_PAGE_SQUARE_INCHES * ocr_dpi**2
    if square_inches * ocr_dpi**2 >= reference_pixels:
        return ocr_dpi
    image_dpi = embedded_image_dpi(page)
    if image_dpi <= ocr_dpi:
        return ocr_dpi
    dpi = min(image_dpi, math.sqrt(reference_pixels / square_inches))
    while dpi > ocr_dpi and size.pixels_at(dpi) > max_pixels:
        dpi *= 0.95
    return max(ocr_dpi, math.floor(dpi))


def embedded_image_dpi(page: pdfium.PdfPage) -> float:
    """Resolution of the image covering most of the page (0 if there is none).

    Computed from pixel count over displayed area, so an image turned 90 degrees
    by its placement matrix gets the same answer as an upright one.
    """
    return _largest_image(page)[1]


def second_rendering_dpi(page: pdfium.PdfPage, size: PageSize, ocr_dpi: int) -> int | None:
    """The resolution to render a scanned page (one image covering it) at for a second reading: the scan's
    own when it is below ``ocr_dpi``, else ``SECOND_READING_DPI``; None for a page that is no scan.

    Tesseract reads two renderings of a scan differently, and each loses text the other reads: on the
    400 generated scanned invoices (dev and tune) either one loses most of some pages' table to the layout
    analysis that the other reads whole (tune 055 page 1: 260 characters at 300 dpi, 1253 at its own
    150 dpi). Rendering a scan below ``ocr_dpi`` at ``ocr_dpi`` interpolates the scanner's pixels, so the
    other rendering is the scan as it is; one at ``ocr_dpi`` or finer gets a coarser one.
    """
    area, dpi = _largest_image(page)
    scan_dpi = math.floor(dpi + 0.5)  # a 300 dpi scan measures 299.99998 dpi
    page_area = size.width * size.height / 72**2
    if not page_area or area < SCAN_COVERAGE * page_area or scan_dpi < MIN_SCAN_DPI:
        return None
    return scan_dpi if scan_dpi < ocr_dpi else min(SECOND_READING_DPI, ocr_dpi)


def _largest_image(page: pdfium.PdfPage) -> tuple[float, float]:
    """The displayed area (square inches) and resolution of the page's largest image; (0, 0) if none."""
    best_area, best_dpi = 0.0, 0.0
    try:
        objects = page.get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_IMAGE], max_depth=2)
        for examined, image in enumerate(objects):
            if examined >= _MAX_IMAGES_EXAMINED:
                break
            left, bottom, right, top = image.get_bounds()
            area = (right - left) * (top - bottom) / 72**2
            if area <= best_area:
                continue
            pixel_width, pixel_height = image.get_px_size()
            best_area, best_dpi = area, math.sqrt(pixel_width * pixel_height / area)
    except pdfium.PdfiumError:
        pass  # an unreadable image object says nothing about resolution
    return best_area, best_dpi


def render_page(page: pdfium.PdfPage, dpi: int, page_number: int) -> Image.Image:
    """Render in 8-bit grey (a third of RGB's memory; OCR does not need colour)."""
    try:
        bitmap = page.render(scale=dpi / 72, grayscale=True, draw_annots=True)
        try:
            # to_pil() shares the bitmap's buffer; convert() copies it out before the bitmap is freed
            return bitmap.to_pil().convert("L")
        finally:
            bitmap.close()
    except MemoryError as exc:
        raise DocumentTooLargeError(f"page {page_number} does not fit in memory at {dpi} dpi") from exc
    except pdfium.PdfiumError as exc:
        raise UnreadableDocumentError(f"page {page_number} cannot be rendered: {exc}") from exc


def is_blank(image: Image.Image) -> bool:
    """Whether the image has (almost) no pixels clearly darker than its background."""
    histogram = image.convert("L").histogram() if image.mode != "L" else image.histogram()
    background = max(range(256), key=histogram.__getitem__)
    ink = sum(histogram[: max(0, background - _INK_CONTRAST)])
    return ink <= _BLANK_INK_SHARE * image.width * image.height
