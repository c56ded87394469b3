"""The reader with real tesseract on corpus files (no mocks). Low dpi keeps the run short."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageFilter

from quire.engines.contrast_reread import IncompleteReceiptEngine
from quire.engines.language import LanguageRereadEngine
from quire.engines.line_reread import LineRereadEngine
from quire.engines.ocr import TesseractEngine, get_ocr_engine
from quire.engines.vote import TIE_BREAK_HEIGHTS, ReceiptVoteEngine
from quire.engines.ocr_cache import CachedOcrEngine
from quire.engines.reader import open_document
from quire.model import TextMethod
from quire.settings import Settings

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")


@pytest.fixture
def ocr_settings(tmp_path: Path) -> Settings:
    # 200 dpi reads these clean pages as well as 300 (measurements.md) at under half the time
    return Settings(home=tmp_path / "quire-home", ocr_dpi=200)


def test_cardinal_pages_are_read_upright_whatever_their_turn(corpus_dir, ocr_settings) -> None:
    with open_document(corpus_dir / "awkward" / "ocrmypdf__cardinal.pdf", ocr_settings,
                       ocr=TesseractEngine()) as reader:
        pages = [reader.read_page(n) for n in range(1, 5)]
    assert [p.rotation for p in pages] == [0, 270, 180, 90]
    for page in pages:
        assert page.method is TextMethod.OCR and page.engine.startswith("tesseract 5")
        assert page.text.startswith("The LinnSequencer"), page.text[:80]
        assert page.confidence > 0.85
        assert (page.width, page.height) == (612, 792)  # the upright frame the words are in
        title = page.words[0]
        assert title.text == "The" and title.top < 100 and title.x1 - title.x0 > title.bottom - title.top


def test_vector_text_is_read_by_ocr(corpus_dir, ocr_settings) -> None:
    with open_document(corpus_dir / "awkward" / "ocrmypdf__vector.pdf", ocr_settings,
                       ocr=TesseractEngine()) as reader:
        page = reader.read_page(1)
    assert page.method is TextMethod.OCR
    assert "Sample Vector PDF" in page.text and "OCR processing" in page.text


def test_tiny_high_resolution_page_is_legible(corpus_dir, ocr_settings) -> None:
    with open_document(corpus_dir / "awkward" / "ocrmypdf__2400dpi.pdf", ocr_settings,
                       ocr=TesseractEngine()) as reader:
        page = reader.read_page(1)
    assert "Waterman" in page.text and "water" in page.text
    assert all(0 <= w.x0 and w.x1 <= 121 for w in page.words)  # points on a 120 pt page


def test_garbage_text_layer_is_replaced_by_ocr(corpus_dir, ocr_settings) -> None:
    with open_document(corpus_dir / "awkward" / "ocrmypdf__truetype_font_nomapping.pdf", ocr_settings,
                       ocr=TesseractEngine()) as reader:
        page = reader.read_page(1)
    assert page.method is TextMethod.OCR and '"7+%-' not in page.text


def test_receipt_image_and_the_cache(corpus_dir, tmp_path, ocr_settings) -> None:
    receipt = corpus_dir / "sroie" / "img" / "000.jpg"
    voting = get_ocr_engine(ocr_settings)
    # receipt pages are read by three more models, which outvote the first reading where more of them agree
    assert isinstance(voting, ReceiptVoteEngine)
    full_network = voting.witnesses[0].first.inner.first
    full_network_with_malay = voting.witnesses[2].first.inner.first
    engine = voting.inner
    # receipt pages get their lines read again (LineRereadEngine) over the cached page reading; a receipt whose
    # reading lacks a date or a total would be read again stretched (IncompleteReceiptEngine.fallback)
    assert isinstance(engine, IncompleteReceiptEngine) and isinstance(engine.first, LineRereadEngine)
    page_engine = engine.first.inner
    assert isinstance(page_engine, LanguageRereadEngine) and isinstance(page_engine.first, CachedOcrEngine)
    stretched = engine.fallback.inner.stretched.first
    with open_document(receipt, ocr_settings, ocr=voting) as reader:
        first = reader.read_page(1)
    assert first.method is TextMethod.OCR and first.confidence > 0.6
    assert "TOTAL" in first.text.upper()
    with open_document(receipt, ocr_settings, ocr=voting) as reader:
        second = reader.read_page(1)
    # an English receipt is read once by the first engine and once with the full-size network; the second time
    # from their caches
    assert second == first and (page_engine.first.hits, page_engine.first.misses) == (1, 1)
    assert (full_network.hits, full_network.misses) == (1, 1)
    # the witness that adds Malay to the full-size network reads the page as the full-network witness did
    assert (full_network_with_malay.hits, full_network_with_malay.misses) == (2, 0)
    assert all(reread.misses == 0 for reread in page_engine.by_language.values())
    # it prints its date and its total: never read stretched
    assert (stretched.hits, stretched.misses) == (0, 0)


def test_a_tie_over_a_receipt_date_is_broken_by_both_networks_reading_it_enlarged(corpus_dir, tmp_path,
                                                                                   ocr_settings) -> None:
    # SROIE 472 blurred, as receipts-degraded's 472b: the small network reads "Date: 13/04/2017", the full-size
    # one "18/04/2017", each alone and with the Malay model beside it: two readings against two
    blurred = tmp_path / "472b.jpg"
    with Image.open(corpus_dir / "sroie" / "img" / "472.jpg") as scan:
        scan.convert("L").filter(ImageFilter.GaussianBlur(1.2)).save(blurred, "JPEG", quality=45)
    voting = get_ocr_engine(ocr_settings)
    with open_document(blurred, ocr_settings, ocr=voting) as reader:
        page = reader.read_page(1)
    assert "Date: 18/04/2017" in page.text
    assert all(breaker.misses == len(TIE_BREAK_HEIGHTS) for breaker in voting.tie_breakers)


def test_a_scan_read_unsurely_is_read_further_and_its_table_recovered(tmp_path) -> None:
    from quire.offline import extract_file_records
    from tests.factories import generate_invoice, render_scan

    # dev corpus document 125: a blurred, noisy 150 dpi scan whose rows the first two readings garble
    spec = generate_invoice(1000125, split="dev")
    [scan] = render_scan(spec, tmp_path / "invoice.scan.pdf", 1000125)
    wanted = Counter(item["amount"] for item in spec.ground_truth()["line_items"])

    def amounts_found(reread: bool) -> int:
        settings = Settings(home=tmp_path / "quire-home", template_dir=None, ocr_unsure_scan_reread=reread)
        [document] = extract_file_records(scan, settings)["documents"]
        return (wanted & Counter(item["amount"] for item in document["line_items"])).total()

    assert wanted.total() == 17
    assert amounts_found(reread=False) <= 11 < 14 <= amounts_found(reread=True)
