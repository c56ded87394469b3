"""The page reader with a counting OCR double: which pages reach OCR, at what dpi, and what comes back."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from quire.engines.raster import choose_render_dpi, embedded_image_dpi, second_rendering_dpi
from quire.engines.inspect import PageSize
from quire.engines.ocr import OcrResult
from quire.engines import reader as reader_module
from quire.engines.reader import open_document
from quire.errors import DocumentTooLargeError, EngineError, PasswordRequiredError, UnreadableDocumentError
from quire.model import TextMethod, Word
from tests.unit.engines.ocr_doubles import CountingOcrEngine, CrashingOcrEngine


def _read_all(path: Path, settings, engine, password: str | None = None):
    with open_document(path, settings, ocr=engine, password=password) as reader:
        return [reader.read_page(n) for n in range(1, reader.page_count + 1)]


def _ocr_pages(pages) -> list[int]:
    return [p.page_number for p in pages if p.method is TextMethod.OCR]


def test_mixed_document_ocrs_only_pages_without_text(awkward_dir, engine_settings) -> None:
    engine = CountingOcrEngine()
    pages = _read_all(awkward_dir / "ocrmypdf__multipage.pdf", engine_settings, engine)
    assert _ocr_pages(pages) == [1, 2, 3, 5, 6]
    # page 1 is a 150 dpi scan: read at 300 dpi and as scanned; page 2 a 300 dpi scan: at 300 and 200 dpi
    assert engine.calls == 7
    assert pages[3].method is TextMethod.TEXT_LAYER and "Percentage" in pages[3].text


def test_scan_with_an_ocr_text_layer_is_not_ocred_again(awkward_dir, engine_settings) -> None:
    engine = CountingOcrEngine()
    pages = _read_all(awkward_dir / "pypdf__Seige_of_Vicksburg_Sample_OCR.pdf", engine_settings, engine)
    assert engine.calls == 0
    assert all(p.method is TextMethod.TEXT_LAYER and p.engine.startswith("pypdfium2") for p in pages)
    assert pages[0].text.startswith("THE SIEGE OF VICKSBURG. 49")


@pytest.mark.parametrize("name", ["ocrmypdf__vector.pdf", "ocrmypdf__truetype_font_nomapping.pdf",
                                  "pdfplumber__malformed-from-issue-932.pdf", "ocrmypdf__cardinal.pdf"])
def test_pages_without_usable_text_go_to_ocr(name: str, awkward_dir, engine_settings) -> None:
    pages = _read_all(awkward_dir / name, engine_settings, CountingOcrEngine())
    assert all(p.method is TextMethod.OCR and p.engine == "counting 1" for p in pages)


@pytest.mark.parametrize("name", ["ocrmypdf__no_contents.pdf", "pdfplumber__issue-297-example.pdf"])
def test_blank_page_is_empty_without_calling_ocr(name: str, awkward_dir, engine_settings) -> None:
    engine = CountingOcrEngine()
    [page] = _read_all(awkward_dir / name, engine_settings, engine)
    assert (page.method, page.text, page.words, engine.calls) == (TextMethod.EMPTY, "", (), 0)


def test_a_blank_scan_is_rendered_once_and_never_read(tmp_path, engine_settings, monkeypatch) -> None:
    path = tmp_path / "blank-scan.pdf"
    Image.new("L", (1275, 1650), 255).save(path, "PDF", resolution=150)  # a blank letter page scanned at 150 dpi
    rendered: list[float] = []
    real_render = reader_module.render_page
    monkeypatch.setattr(reader_module, "render_page", lambda page, dpi, number: (
        rendered.append(dpi), real_render(page, dpi, number))[1])
    engine = CountingOcrEngine()
    [page] = _read_all(path, engine_settings, engine)
    assert (page.method, engine.calls, rendered) == (TextMethod.EMPTY, 0, [300])


def test_rotated_text_layer_words_are_in_display_space(awkward_dir, engine_settings) -> None:
    [page] = _read_all(awkward_dir / "pdfplumber__issue-140-example.pdf", engine_settings, CountingOcrEngine())
    assert (page.width, page.height) == (842, 595)  # /Rotate 90 applied
    first = page.words[0]
    assert first.text == "Line" and first.x0 < 50 and first.top < 50
    assert all(0 <= w.x0 <= w.x1 <= page.width and 0 <= w.top <= w.bottom <= page.height for w in page.words)


def test_line_end_hyphen_is_kept_as_printed(awkward_dir, engine_settings) -> None:
    with open_document(awkward_dir / "pypdf__Seige_of_Vicksburg_Sample_OCR.pdf", engine_settings,
                       ocr=CountingOcrEngine()) as reader:
        page = reader.read_page(1)
    assert "conspicuous and dan-\ngerous for use." in page.text
    assert "\x02" not in page.text and "\ufffe" not in page.text
    texts = [w.text for w in page.words]
    assert texts[texts.index("dan-") + 1] == "gerous"


def test_tiny_page_with_a_high_resolution_scan_is_rendered_near_its_resolution(awkward_dir,
                                                                               engine_settings) -> None:
    engine = CountingOcrEngine()
    _read_all(awkward_dir / "ocrmypdf__2400dpi.pdf", engine_settings, engine)
    assert 1500 < engine.dpis[0] <= 2400  # 300 dpi would give 500 x 358 px: text a few pixels tall


def test_ordinary_pages_render_at_the_ocr_dpi_and_their_second_rendering_coarser(awkward_dir,
                                                                                 engine_settings) -> None:
    engine = CountingOcrEngine()
    _read_all(awkward_dir / "ocrmypdf__cardinal.pdf", engine_settings, engine)
    assert engine.dpis == [300, 200] * 4


def test_embedded_image_dpi_ignores_the_placement_turn(awkward_dir) -> None:
    document = pdfium.PdfDocument(awkward_dir / "ocrmypdf__cardinal.pdf")
    try:
        assert [round(embedded_image_dpi(document[i])) for i in range(4)] == [300] * 4
    finally:
        document.close()


def test_a_second_rendering_of_scans_only_as_scanned_below_the_ocr_dpi_else_coarser(awkward_dir) -> None:
    with pdfium.PdfDocument(awkward_dir / "ocrmypdf__multipage.pdf") as multipage, \
            pdfium.PdfDocument(awkward_dir / "ocrmypdf__cardinal.pdf") as cardinal:
        found = [second_rendering_dpi(page, PageSize(*page.get_size()), 300) for page in (*multipage, cardinal[0])]
    # page 1: a 150 dpi scan; 2: 300 dpi; 3-4: 96 dpi strips covering a sliver; 5: a small 72 dpi image;
    # 6: a 147 dpi image covering a tenth of the page; the cardinal: 300 dpi (299.99998 measured)
    assert found == [150, 200, None, None, None, None, 200]


class _SharpAtScanResolution(CountingOcrEngine):
    """Reads a 300 dpi rendering as one faint word, the scan as printed as two sure ones."""

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        super().recognize(image, dpi)
        if dpi == 300:
            return OcrResult("Tot", (Word("Tot", 10, 10, 40, 20, 0.6),), 0.6)
        return OcrResult("Total 12.50", (Word("Total", 10, 10, 40, 20, 0.8), Word("12.50", 50, 10, 80, 20, 0.7)), 0.75)


def test_a_low_resolution_scan_keeps_the_reading_with_more_confident_characters(awkward_dir,
                                                                                engine_settings) -> None:
    engine = _SharpAtScanResolution()
    with open_document(awkward_dir / "ocrmypdf__multipage.pdf", engine_settings, ocr=engine) as reader:
        page = reader.read_page(1)
    assert engine.dpis == [300, 150]
    assert page.text == "Total 12.50"  # 5 x 0.8 + 5 x 0.7 = 7.5 confident characters against 3 x 0.6


def test_reading_scans_as_scanned_can_be_switched_off(awkward_dir, engine_settings) -> None:
    engine = _SharpAtScanResolution()
    settings = engine_settings.model_copy(update={"ocr_scan_resolution_reread": False})
    with open_document(awkward_dir / "ocrmypdf__multipage.pdf", settings, ocr=engine) as reader:
        page = reader.read_page(1)
    assert engine.dpis == [300] and page.text == "Tot"


class _Reading(CountingOcrEngine):
    """Reads every image as the same words."""

    def __init__(self, *words: Word) -> None:
        super().__init__()
        self.words = words
        self.sizes: list[tuple[int, int]] = []

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        super().recognize(image, dpi)
        self.sizes.append(image.size)
        return OcrResult(" ".join(w.text for w in self.words), self.words, 0.0)


_SHREDDED_ROW = (Word("Total", 10, 10, 40, 20, 0.95), Word("Te", 50, 10, 80, 20, 0.2))


def _read_page_one(path: Path, settings, engine, further) -> str:
    with open_document(path, settings, ocr=engine, unsure_scan_ocr=further) as reader:
        return reader.read_page(1).text


def test_a_scan_read_unsurely_is_read_further_at_the_ocr_dpi_and_merged(awkward_dir, engine_settings) -> None:
    block, levelled = _Reading(Word("12.50", 50, 10, 80, 20, 0.9)), _Reading(Word("Total", 10, 10, 40, 20, 0.9))
    engine = _Reading(*_SHREDDED_ROW)
    text = _read_page_one(awkward_dir / "ocrmypdf__multipage.pdf", engine_settings, engine, (block, levelled))
    # page 1 is scanned at 150 dpi: read further from its 300 dpi rendering, not from the scan as scanned
    assert engine.dpis == [300, 150] and block.dpis == levelled.dpis == [300]
    assert block.sizes == levelled.sizes == engine.sizes[:1]
    assert text == "Total 12.50"  # "Te" replaced by the sure reading of its ink; "Total" stays the base's


def test_a_scan_read_surely_is_not_read_further(awkward_dir, engine_settings) -> None:
    further = _Reading(Word("12.50", 50, 10, 80, 20, 0.9))
    sure = _Reading(Word("Total", 10, 10, 40, 20, 0.95), Word("Tax", 50, 10, 80, 20, 0.49),
                    *(Word("word", 100 + 50 * n, 10, 140 + 50 * n, 20, 0.9) for n in range(25)))
    text = _read_page_one(awkward_dir / "ocrmypdf__multipage.pdf", engine_settings, sure, (further,))
    assert further.calls == 0 and text.startswith("Total Tax")  # 3 unsure characters of 108


def test_a_scan_is_read_further_without_its_second_rendering_too(awkward_dir, engine_settings) -> None:
    further = _Reading(Word("12.50", 50, 10, 80, 20, 0.9))
    settings = engine_settings.model_copy(update={"ocr_scan_resolution_reread": False})
    engine = _Reading(*_SHREDDED_ROW)
    text = _read_page_one(awkward_dir / "ocrmypdf__multipage.pdf", settings, engine, (further,))
    assert (engine.dpis, further.dpis, text) == ([300], [300], "Total 12.50")


def test_pages_that_are_no_scans_are_never_read_further(awkward_dir, engine_settings) -> None:
    further = _Reading(Word("12.50", 50, 10, 80, 20, 0.9))
    text = _read_page_one(awkward_dir / "ocrmypdf__vector.pdf", engine_settings, _Reading(*_SHREDDED_ROW),
                          (further,))
    assert further.calls == 0 and text == "Total Te"


def test_render_dpi_never_exceeds_the_pixel_budget(awkward_dir) -> None:
    document = pdfium.PdfDocument(awkward_dir / "ocrmypdf__2400dpi.pdf")
    try:
        page = document[0]
        size = PageSize(*page.get_size())
        budget = 2_000_000
        dpi = choose_render_dpi(page, size, ocr_dpi=300, max_pixels=budget, page_number=1)
        assert 300 < dpi and size.pixels_at(dpi) <= budget
        with pytest.raises(DocumentTooLargeError):
            choose_render_dpi(page, size, ocr_dpi=300, max_pixels=100_000, page_number=1)
    finally:
        document.close()


def test_password_is_passed_through(awkward_dir, engine_settings) -> None:
    pages = _read_all(awkward_dir / "pdfplumber__password-example.pdf", engine_settings, CountingOcrEngine(),
                      password="test")
    assert len(pages) == 4 and all(p.method is TextMethod.TEXT_LAYER for p in pages)
    with pytest.raises(PasswordRequiredError):
        open_document(awkward_dir / "pypdf__r6-user-password.pdf", engine_settings, ocr=CountingOcrEngine())


def test_unreadable_file_never_opens(awkward_dir, engine_settings) -> None:
    with pytest.raises(UnreadableDocumentError):
        open_document(awkward_dir / "ocrmypdf__invalid.pdf", engine_settings, ocr=CountingOcrEngine())


def test_pages_read_in_any_order_and_out_of_range_is_an_error(awkward_dir, engine_settings) -> None:
    with open_document(awkward_dir / "samplefiles__GeoTopo-komprimiert.pdf", engine_settings,
                       ocr=CountingOcrEngine()) as reader:
        assert reader.page_count == 117
        assert reader.read_page(117).page_number == 117
        assert reader.read_page(2).text.startswith("Vorwort")
        with pytest.raises(IndexError):
            reader.read_page(0)
        with pytest.raises(IndexError):
            reader.read_page(118)


def test_crashing_engine_fails_at_its_page_and_earlier_pages_are_intact(awkward_dir, engine_settings,
                                                                       monkeypatch) -> None:
    monkeypatch.setenv("QUIRE_TEST_OCR_CRASH_AT", "2")
    settings = engine_settings.model_copy(update={"ocr_scan_resolution_reread": False})  # one call a page
    with open_document(awkward_dir / "ocrmypdf__cardinal.pdf", settings, ocr=CrashingOcrEngine()) as reader:
        assert reader.read_page(1).text == "counted call 1"
        with pytest.raises(EngineError, match="injected fault"):
            reader.read_page(2)
        assert reader.read_page(3).text == "counted call 3"  # the reader stays usable


def test_crash_counter_on_disk_crashes_only_once_across_readers(awkward_dir, engine_settings, monkeypatch,
                                                               tmp_path) -> None:
    monkeypatch.setenv("QUIRE_TEST_FAULT_DIR", str(tmp_path / "faults"))
    monkeypatch.setenv("QUIRE_TEST_OCR_CRASH_AT", "2")
    path = awkward_dir / "ocrmypdf__cardinal.pdf"
    settings = engine_settings.model_copy(update={"ocr_scan_resolution_reread": False})  # one call a page
    with open_document(path, settings, ocr=CrashingOcrEngine()) as reader:
        reader.read_page(1)
        with pytest.raises(EngineError):
            reader.read_page(2)
    with open_document(path, settings, ocr=CrashingOcrEngine()) as reader:  # "the retry"
        assert [reader.read_page(n).text for n in (2, 3, 4)] == [f"counted call {n}" for n in (3, 4, 5)]


# -- images


def _drawn(mode: str = "L", size=(400, 200)) -> Image.Image:
    image = Image.new(mode, size, "white")
    ImageDraw.Draw(image).rectangle((50, 50, 300, 120), fill="black")
    return image


def test_image_is_ocred_at_its_declared_dpi(tmp_path, engine_settings) -> None:
    path = tmp_path / "scan.png"
    _drawn().save(path, dpi=(150, 150))
    engine = CountingOcrEngine()
    [page] = _read_all(path, engine_settings, engine)
    assert page.method is TextMethod.OCR and engine.dpis == [150]
    assert page.width == pytest.approx(400 * 72 / 150, rel=1e-3)


def test_multi_frame_tiff_pages(tmp_path, engine_settings) -> None:
    path = tmp_path / "fax.tif"
    frames = [_drawn(), Image.new("L", (400, 200), 255), _drawn("RGB")]
    frames[0].save(path, save_all=True, append_images=frames[1:])
    engine = CountingOcrEngine()
    pages = _read_all(path, engine_settings, engine)
    assert [p.method for p in pages] == [TextMethod.OCR, TextMethod.EMPTY, TextMethod.OCR]
    assert engine.calls == 2


def test_transparent_image_is_read_on_white(tmp_path, engine_settings) -> None:
    image = Image.new("RGBA", (400, 200), (0, 0, 0, 0))  # transparent black: must not become a black page
    ImageDraw.Draw(image).rectangle((50, 50, 300, 120), fill=(0, 0, 0, 255))
    path = tmp_path / "logo.png"
    image.save(path)
    engine = CountingOcrEngine()
    [page] = _read_all(path, engine_settings, engine)
    assert page.method is TextMethod.OCR


def test_reader_closes_the_document(awkward_dir, engine_settings) -> None:
    reader = open_document(awkward_dir / "ocrmypdf__cardinal.pdf", engine_settings, ocr=CountingOcrEngine())
    with reader:
        reader.read_page(1)
    with pytest.raises(ValueError, match="closed"):
        reader.read_page(1)
