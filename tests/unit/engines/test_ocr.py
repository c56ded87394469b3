"""OCR plumbing that needs no tesseract: TSV/OSD parsing, the turn heuristic, the engine factory."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from quire.engines.contrast_reread import ContrastRereadEngine, IncompleteReceiptEngine
from quire.engines.ocr import (
    OcrEngine,
    OcrResult,
    TesseractEngine,
    _looks_turned,
    get_ocr_engine,
    get_unsure_scan_engines,
    parse_osd,
    parse_tsv,
    unsure_character_share,
)
from quire.engines.language import LanguageRereadEngine
from quire.engines.line_reread import LineRereadEngine
from quire.engines.models import full_network_folder
from quire.engines.ocr_cache import CachedOcrEngine
from quire.engines.second_reading import SecondReadingEngine
from quire.engines.vote import ReceiptVoteEngine
from quire.engines.preprocess import Preprocessing, prepare_image, prepare_page
from quire.errors import EngineError, TerminalError
from quire.model import Word
from quire.settings import Settings
from tests.unit.engines.ocr_doubles import CountingOcrEngine

HEADER = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"


def _tsv(*rows: tuple) -> str:
    return "\n".join([HEADER, *("\t".join(str(v) for v in row) for row in rows)]) + "\n"


def test_parse_tsv_words_in_points_lines_and_paragraphs() -> None:
    tsv = _tsv(
        (1, 1, 0, 0, 0, 0, 0, 0, 2550, 3300, -1, ""),
        (4, 1, 1, 1, 1, 0, 300, 300, 600, 50, -1, ""),
        (5, 1, 1, 1, 1, 1, 300, 300, 200, 50, 96.5, "Total"),
        (5, 1, 1, 1, 1, 2, 600, 300, 300, 50, 80, '"12.50"'),
        (5, 1, 1, 1, 2, 1, 300, 400, 100, 50, 90, "next"),
        (5, 1, 2, 1, 1, 1, 300, 600, 100, 50, 50, "para"),
        (5, 1, 2, 1, 1, 2, 500, 600, 100, 50, 95, "   "),  # whitespace-only rows are dropped
    )
    result = parse_tsv(tsv, dpi=300)
    assert result.text == 'Total "12.50"\nnext\n\npara'
    assert result.words[0] == Word("Total", 72.0, 72.0, 120.0, 84.0, 0.965)
    weighted = (0.965 * 5 + 0.8 * 7 + 0.9 * 4 + 0.5 * 4) / 20
    assert result.confidence == pytest.approx(weighted)


def test_parse_tsv_of_an_empty_page() -> None:
    result = parse_tsv(_tsv((1, 1, 0, 0, 0, 0, 0, 0, 100, 100, -1, "")), dpi=300)
    assert (result.text, result.words, result.confidence) == ("", (), 0.0)


@pytest.mark.parametrize(("report", "rotation"), [
    ("Page number: 0\nOrientation in degrees: 90\nRotate: 270\nOrientation confidence: 34.73\n", 270),
    ("Page number: 0\nOrientation in degrees: 0\nRotate: 0\nOrientation confidence: 33.25\n", 0),
    ("Rotate: 180\nOrientation confidence: 0.3\n", 0),  # a guess is not acted on
    ("Too few characters. Skipping this page\n", 0),
])
def test_parse_osd(report: str, rotation: int) -> None:
    assert parse_osd(report) == rotation


def _result(confidence: float, vertical: bool) -> OcrResult:
    box = (0, 0, 10, 40) if vertical else (0, 0, 40, 10)
    return OcrResult("x", tuple(Word("word", *box, confidence) for _ in range(5)), confidence)


def test_turn_heuristic() -> None:
    assert not _looks_turned(_result(0.95, vertical=False))
    assert _looks_turned(_result(0.30, vertical=False))  # upside-down text reads as garbage
    assert _looks_turned(_result(0.95, vertical=True))  # sideways text read with vertical boxes
    assert not _looks_turned(OcrResult("", (), 0.0))


def test_ocr_result_round_trips_through_json() -> None:
    result = OcrResult("a b", (Word("a", 1, 2, 3, 4, 0.5), Word("b", 5, 6, 7, 8, 0.25)), 0.375, 90)
    assert OcrResult.from_json(result.to_json()) == result


def _without_vote(settings: Settings, changes: dict) -> OcrEngine:
    """The engine built from ``settings`` with ``changes``, receipts read without the vote: the reading each
    of the vote's witnesses repeats."""
    return get_ocr_engine(settings.model_copy(update={"ocr_receipt_vote": False, **changes}))


def test_factory_wraps_tesseract_in_the_cache(engine_settings) -> None:
    engine = _without_vote(engine_settings, {"ocr_reread_languages": "", "ocr_line_reread": False,
                                             "ocr_receipt_contrast_reread": "off"})
    assert isinstance(engine, CachedOcrEngine)
    assert isinstance(engine.inner, TesseractEngine)
    assert engine.cache_dir == engine_settings.cache_root / "ocr"
    assert isinstance(engine, OcrEngine)


def test_factory_rereads_other_languages_each_with_its_own_cache(engine_settings) -> None:
    engine = _without_vote(engine_settings, {"ocr_reread_languages": "deu+fra",
                                             "ocr_line_reread": False,
                                             "ocr_receipt_contrast_reread": "off"})
    assert isinstance(engine, LanguageRereadEngine) and isinstance(engine, OcrEngine)
    assert engine.first.inner.languages == "eng"
    assert {k: e.inner.languages for k, e in engine.by_language.items()} == {"deu": "deu+eng", "fra": "fra+eng"}
    assert all(e.cache_dir == engine_settings.cache_root / "ocr" for e in engine.by_language.values())
    assert engine.by_language["deu"].inner.psm == engine.first.inner.psm
    assert engine.otherwise is None


def test_factory_gives_the_line_reread_the_languages_pages_are_read_again_in(engine_settings) -> None:
    engine = _without_vote(engine_settings, {"ocr_reread_languages": "deu+msa",
                                             "ocr_receipt_contrast_reread": "off"})
    assert isinstance(engine, LineRereadEngine) and engine.languages == {"deu", "msa"}
    assert isinstance(engine.inner, LanguageRereadEngine) and set(engine.inner.by_language) == {"deu", "msa"}


def test_factory_reads_weak_pages_again_with_sauvola(engine_settings) -> None:
    engine = _without_vote(engine_settings, {"ocr_second_reading_below": 0.75,
                                             "ocr_line_reread": False,
                                             "ocr_receipt_contrast_reread": "off"})
    assert isinstance(engine, LanguageRereadEngine) and isinstance(engine.otherwise, SecondReadingEngine)
    assert engine.otherwise.second.inner.preprocessing.thresholding == "sauvola"
    assert engine.otherwise.first.inner.settings_key == engine.first.inner.settings_key
    german = engine.by_language["deu"]
    assert isinstance(german, SecondReadingEngine) and german.second.inner.languages == "deu+eng"


def test_factory_merges_a_stretched_reading_of_receipts_in_their_language(engine_settings) -> None:
    engine = _without_vote(engine_settings, {"ocr_receipt_contrast_reread": "always",
                                             "ocr_line_reread": False})
    assert isinstance(engine, ContrastRereadEngine)
    assert isinstance(engine.inner, LanguageRereadEngine) and isinstance(engine.stretched, LanguageRereadEngine)
    assert not engine.inner.first.inner.preprocessing.autocontrast
    stretched = engine.stretched.first.inner
    assert stretched.preprocessing.autocontrast and stretched.settings_key != engine.inner.first.inner.settings_key
    assert engine.stretched.by_language["deu"].inner.preprocessing.autocontrast
    assert engine.settings_key == f"{engine.inner.settings_key};receipt_contrast=[{engine.stretched.settings_key}]"
    with_lines = _without_vote(engine_settings, {"ocr_receipt_contrast_reread": "always"})
    assert isinstance(with_lines, LineRereadEngine) and isinstance(with_lines.inner, ContrastRereadEngine)


def test_factory_reads_receipt_lines_again_with_a_cached_sheet_reading(engine_settings) -> None:
    engine = _without_vote(engine_settings, {"ocr_receipt_contrast_reread": "off"})
    assert isinstance(engine, LineRereadEngine) and isinstance(engine.inner, LanguageRereadEngine)
    assert engine.settings_key.startswith(engine.inner.settings_key + ";line_reread=")
    assert engine.reader.languages == "eng" and engine.cache_dir == engine_settings.cache_root / "ocr"


def test_by_default_an_incomplete_receipt_falls_back_to_the_merged_reading_each_line_read_again(
        engine_settings) -> None:
    engine = get_ocr_engine(engine_settings).inner
    assert isinstance(engine, IncompleteReceiptEngine)
    assert isinstance(engine.first, LineRereadEngine) and isinstance(engine.first.inner, LanguageRereadEngine)
    assert isinstance(engine.fallback, LineRereadEngine) and isinstance(engine.fallback.inner, ContrastRereadEngine)
    assert engine.fallback.inner.inner.settings_key == engine.first.inner.settings_key
    assert engine.fallback.inner.stretched.first.inner.preprocessing.autocontrast


def test_by_default_receipts_are_outvoted_by_the_full_size_english_network_the_malay_model_and_both(
        engine_settings) -> None:
    engine = get_ocr_engine(engine_settings)
    assert isinstance(engine, ReceiptVoteEngine)
    full_network, malay, both = engine.witnesses
    # each witness is read as the first reading is: with other English models, with Malay too, or both
    folder = full_network_folder(engine_settings)
    assert folder.parent == engine_settings.cache_root / "tessdata"
    expected = engine.inner.first.reader.with_models(folder)
    assert full_network.first.reader.settings_key == both.first.reader.settings_key == expected.settings_key
    assert engine.inner.first.reader.tessdata_dir is None and malay.first.reader.tessdata_dir is None
    for witness in (malay, both):
        assert isinstance(witness.first, LineRereadEngine)
        assert witness.first.languages == {"deu", "fra", "nld", "msa"}
    assert engine.inner.first.languages == full_network.first.languages == {"deu", "fra", "nld"}
    # a tie over numbers is broken by both networks reading the tied stretches again
    small, full = (breaker.inner.reader for breaker in engine.tie_breakers)
    assert small.settings_key == engine.inner.first.reader.settings_key
    assert full.settings_key == expected.settings_key
    assert not isinstance(_without_vote(engine_settings, {}), ReceiptVoteEngine)


def test_unsure_scans_are_read_as_one_block_and_levelled_without_rules(engine_settings) -> None:
    settings = engine_settings.model_copy(update={"ocr_receipt_contrast_reread": "off",
                                                  "ocr_receipt_vote": False})
    block, levelled = get_unsure_scan_engines(settings)
    assert isinstance(block, LineRereadEngine) and isinstance(levelled, LineRereadEngine)
    first = get_ocr_engine(settings).reader
    assert (block.reader.psm, block.reader.preprocessing) == (6, first.preprocessing)
    assert (levelled.reader.psm, levelled.reader.languages) == (first.psm, first.languages)
    assert levelled.reader.preprocessing == Preprocessing(deskew=True, remove_grid=True, thresholding="sauvola")
    # each reading has its own cache entries, in the one cache folder
    keys = {first.settings_key, block.reader.settings_key, levelled.reader.settings_key}
    assert len(keys) == 3 and levelled.cache_dir == block.cache_dir == engine_settings.cache_root / "ocr"


@pytest.mark.parametrize("update", [{"ocr_unsure_scan_reread": False},
                                    {"ocr_engine": "tests.unit.engines.ocr_doubles:CountingOcrEngine"}])
def test_no_further_readings_when_switched_off_or_for_another_engine(update, engine_settings) -> None:
    assert get_unsure_scan_engines(engine_settings.model_copy(update=update)) == ()


def test_unsure_share_counts_characters_of_words_below_half_confidence() -> None:
    words = [Word("Total", 0, 0, 1, 1, 0.96), Word("12.50", 0, 0, 1, 1, 0.49), Word("ee", 0, 0, 1, 1, None)]
    assert unsure_character_share(words) == 7 / 12
    assert unsure_character_share([]) == 0.0


def test_factory_loads_a_double_by_dotted_path(engine_settings) -> None:
    settings = engine_settings.model_copy(update={"ocr_engine": "tests.unit.engines.ocr_doubles:CountingOcrEngine"})
    assert isinstance(get_ocr_engine(settings), CountingOcrEngine)


@pytest.mark.parametrize("name", ["no_such_module:Engine", "tests.unit.engines.ocr_doubles:Missing", "nocolon"])
def test_factory_refuses_an_unknown_engine(name: str, engine_settings) -> None:
    with pytest.raises(TerminalError, match="cannot load OCR engine"):
        get_ocr_engine(engine_settings.model_copy(update={"ocr_engine": name}))


def test_missing_tesseract_binary_is_an_engine_error() -> None:
    engine = TesseractEngine(binary="/nonexistent/tesseract")
    with pytest.raises(EngineError, match="not installed"):
        engine.recognize(Image.new("L", (50, 50), 255), 300)


def test_settings_key_names_every_option_that_changes_output() -> None:
    base = TesseractEngine("eng", Preprocessing())
    assert TesseractEngine("deu", Preprocessing()).settings_key != base.settings_key
    assert TesseractEngine("eng", Preprocessing(thresholding="sauvola")).settings_key != base.settings_key
    assert TesseractEngine("eng", Preprocessing(min_text_height=0)).settings_key != base.settings_key
    assert TesseractEngine("eng", Preprocessing(autocontrast=True)).settings_key != base.settings_key
    keys = {base.settings_key}
    for other in (TesseractEngine("eng", Preprocessing(), psm=4 if base.psm != 4 else 6),
                  TesseractEngine("eng", Preprocessing(), config=("load_system_dawg=0",)),
                  TesseractEngine("eng", Preprocessing(), tessdata_dir=Path("/models")),
                  TesseractEngine("eng", Preprocessing(), column_psm=None if base.column_psm else 6),
                  TesseractEngine("eng", Preprocessing(deskew=not Preprocessing().deskew)),
                  TesseractEngine("eng", Preprocessing(flatten=not Preprocessing().flatten)),
                  TesseractEngine("eng", Preprocessing(remove_rules=not Preprocessing().remove_rules))):
        assert other.settings_key not in keys
        keys.add(other.settings_key)


def test_unsupported_segmentation_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="segmentation mode"):
        TesseractEngine("eng", psm=0)
    with pytest.raises(ValueError, match="segmentation mode"):
        TesseractEngine("eng", column_psm=1)


def test_preprocessing_upscales_low_dpi_and_greys() -> None:
    image, dpi = prepare_image(Image.new("RGB", (150, 300), "white"), 150, Preprocessing(min_dpi=300))
    assert (image.mode, image.size, dpi) == ("L", (300, 600), 300)
    image, dpi = prepare_image(Image.new("L", (100, 100), 255), 400, Preprocessing(min_dpi=300))
    assert (image.size, dpi) == ((100, 100), 400)


def test_unknown_thresholding_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown thresholding"):
        Preprocessing(thresholding="magic")


def _lines_image(line_height: int, lines: int = 6) -> Image.Image:
    from PIL import ImageDraw

    image = Image.new("L", (600, lines * line_height * 2 + 40), 255)
    draw = ImageDraw.Draw(image)
    for n in range(lines):
        top = 20 + n * line_height * 2
        for x in range(20, 560, 14):  # "letters": short ink blocks along the line
            draw.rectangle((x, top, x + 9, top + line_height - 1), fill=0)
    return image


@pytest.mark.parametrize("height", [10, 15, 30])
def test_text_line_height_is_measured_on_the_image(height: int) -> None:
    from quire.engines.preprocess import text_line_height

    assert text_line_height(_lines_image(height)) == pytest.approx(height, abs=1)
    assert text_line_height(Image.new("L", (100, 100), 255)) == 0


def test_small_text_is_upscaled_to_the_minimum_line_height() -> None:
    options = Preprocessing(min_dpi=0, min_text_height=30)
    image, dpi = prepare_image(_lines_image(15), 300, options)
    assert dpi == pytest.approx(600) and image.width == 1200
    image, dpi = prepare_image(_lines_image(40), 300, options)
    assert dpi == 300 and image.width == 600


def test_upscaling_respects_the_pixel_cap() -> None:
    small = _lines_image(15)
    cap = 4 * small.width * small.height
    image, _ = prepare_image(small, 300, Preprocessing(min_text_height=60, max_upscaled_pixels=cap))
    assert image.width * image.height <= cap * 1.01
    assert image.width == pytest.approx(2 * small.width, abs=2)  # 2x, not the 4x the text height asked for


def _ink_block(page: tuple[int, int], box: tuple[int, int, int, int]) -> Image.Image:
    from PIL import ImageDraw

    image = Image.new("L", page, 255)
    draw = ImageDraw.Draw(image)
    x0, top, x1, bottom = box
    for y in range(top, bottom, 30):  # lines of "text"
        draw.rectangle((x0, y, x1, y + 14), fill=0)
    return image


def test_narrow_columns_are_read_with_the_column_mode_and_other_pages_with_psm() -> None:
    engine = TesseractEngine("eng", Preprocessing(), psm=3, column_psm=6)
    receipt = _ink_block((1200, 1700), (450, 50, 750, 1650))
    invoice = _ink_block((1200, 1700), (60, 50, 1140, 1650))
    assert engine._psm_for(receipt) == 6
    assert engine._psm_for(invoice) == 3
    assert TesseractEngine("eng", Preprocessing(), psm=3, column_psm=None)._psm_for(receipt) == 3


def test_despeckling_is_left_out_on_narrow_columns(monkeypatch) -> None:
    import quire.engines.ocr as ocr

    used: list[bool] = []

    def recording_prepare(image, dpi, options):
        used.append(options.despeckle)
        return prepare_page(image, dpi, options)

    monkeypatch.setattr(ocr, "prepare_page", recording_prepare)
    engine = TesseractEngine("eng", Preprocessing(), psm=3, column_psm=6)
    monkeypatch.setattr(engine, "_read", lambda image, dpi, path, psm: OcrResult("", (), 0.0))
    engine.recognize(_ink_block((1200, 1700), (450, 50, 750, 1650)), 300)  # a till receipt's column
    engine.recognize(_ink_block((1200, 1700), (60, 50, 1140, 1650)), 300)  # a full-width page
    assert used == [False, True]


def test_an_engine_for_other_models_or_preprocessing_keeps_every_other_option(tmp_path):
    engine = TesseractEngine("eng", psm=4, config=("textord_heavy_nr=1",), tessdata_dir=tmp_path, column_psm=None,
                             timeout_seconds=30)
    german = engine.with_languages("deu+eng")
    assert (german.languages, german.psm, german.config, german.tessdata_dir, german.column_psm,
            german.timeout_seconds) == ("deu+eng", 4, ("textord_heavy_nr=1",), tmp_path, None, 30)
    assert german.settings_key == engine.settings_key.replace("lang=eng", "lang=deu+eng")
    sauvola = engine.with_preprocessing(Preprocessing(thresholding="sauvola"))
    assert (sauvola.languages, sauvola.psm, sauvola.column_psm) == ("eng", 4, None)
    assert sauvola.preprocessing.thresholding == "sauvola"
