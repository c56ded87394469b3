"""Preprocessing steps before tesseract, on generated images (no tesseract needed)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from quire.engines.preprocess import (
    MIN_SKEW_DEGREES,
    PreparedImage,
    Preprocessing,
    estimate_skew,
    flatten_background,
    ink_aspect_ratio,
    prepare_page,
    remove_grid_lines,
    remove_rule_rows,
)
from quire.model import Word


def _page(line_height: int = 16, lines: int = 12, width: int = 500, rule_after: tuple[int, ...] = (),
          dotted: bool = True) -> Image.Image:
    """Text-like lines (short ink blocks); optional thin separator rows after the given line indices."""
    image = Image.new("L", (width, lines * line_height * 2 + 60), 255)
    draw = ImageDraw.Draw(image)
    for n in range(lines):
        top = 30 + n * line_height * 2
        for x in range(30, width - 60, 13):
            if (x // 13 + n) % 7:  # gaps between "words"
                draw.rectangle((x, top, x + 8, top + line_height - 1), fill=0)
        if n in rule_after:
            y = top + line_height + line_height // 2 - 1
            for x in range(30, width - 30, 6 if dotted else 1):
                draw.rectangle((x, y, x + (2 if dotted else 0), y + 2), fill=0)
    return image


def _ink_centre(image: Image.Image) -> tuple[float, float]:
    ys, xs = np.nonzero(np.asarray(image.convert("L")) < 128)
    return float(xs.mean()), float(ys.mean())


@pytest.mark.parametrize("angle", [-3.0, -1.2, 0.8, 2.5])
def test_skew_is_estimated_with_its_sign(angle: float) -> None:
    slanted = _page().rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    # rotate(-angle) turns clockwise for a positive angle: the lines then run down to the right
    assert estimate_skew(slanted) == pytest.approx(angle, abs=0.15)


def test_level_and_empty_pages_have_no_skew() -> None:
    assert abs(estimate_skew(_page())) < MIN_SKEW_DEGREES
    assert estimate_skew(Image.new("L", (300, 300), 255)) == 0.0
    assert estimate_skew(Image.new("RGB", (300, 300), "white")) == 0.0


def test_deskew_levels_the_page_and_leaves_level_pages_alone() -> None:
    options = Preprocessing(deskew=True, min_text_height=0)
    slanted = _page().rotate(-2.0, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    prepared = prepare_page(slanted, 300, options)
    assert prepared.skew == pytest.approx(2.0, abs=0.15)
    assert abs(estimate_skew(prepared.image)) < MIN_SKEW_DEGREES
    assert prepared.image.width > slanted.width  # the canvas grows to keep the corners
    assert prepared.source_size == pytest.approx((slanted.width * 72 / 300, slanted.height * 72 / 300))
    level = _page()
    prepared = prepare_page(level, 300, options)
    assert prepared.skew == 0.0 and prepared.image.size == level.size


def _square_page() -> Image.Image:
    image = Image.new("L", (400, 900), 255)
    ImageDraw.Draw(image).rectangle((300, 120, 329, 149), fill=0)  # centre (314.5, 134.5)
    return image


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_words_on_the_levelled_image_map_back_to_the_source_frame(rotation: int) -> None:
    turn = {0: None, 90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180,
            270: Image.Transpose.ROTATE_90}[rotation]
    source = _square_page()
    dpi, skew = 144.0, 3.0
    levelled = source.rotate(skew, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    prepared = PreparedImage(levelled, dpi, skew, (source.width * 72 / dpi, source.height * 72 / dpi))
    read_on = levelled if turn is None else levelled.transpose(turn)
    expected_on = source if turn is None else source.transpose(turn)
    cx, cy = (v * 72 / dpi for v in _ink_centre(read_on))
    word = Word("X", cx - 5, cy - 5, cx + 5, cy + 5, 0.9)
    (mapped,) = prepared.to_source((word,), rotation)
    ex, ey = (v * 72 / dpi for v in _ink_centre(expected_on))
    assert (mapped.x0 + mapped.x1) / 2 == pytest.approx(ex, abs=1.0)
    assert (mapped.top + mapped.bottom) / 2 == pytest.approx(ey, abs=1.0)
    assert (mapped.text, mapped.confidence) == ("X", 0.9)
    assert mapped.x1 - mapped.x0 == pytest.approx(10)


def test_words_pass_through_when_nothing_was_levelled() -> None:
    words = (Word("a", 1, 2, 3, 4),)
    assert PreparedImage(Image.new("L", (10, 10)), 300).to_source(words, 90) is words


@pytest.mark.parametrize("dotted", [True, False])
def test_separator_rows_are_whitened_and_text_kept(dotted: bool) -> None:
    page = _page(rule_after=(3, 7), dotted=dotted)
    cleaned = np.asarray(remove_rule_rows(page))
    original = np.asarray(page)
    line_height = 16
    for n in (3, 7):
        y = 30 + n * line_height * 2 + line_height + line_height // 2 - 1
        assert (original[y:y + 3] < 128).any() and not (cleaned[y - 1:y + 4] < 128).any()
    text_rows = [30 + n * line_height * 2 + 5 for n in range(12)]
    assert (cleaned[text_rows] == original[text_rows]).all()


def test_pages_without_separators_are_returned_unchanged() -> None:
    page = _page()
    assert remove_rule_rows(page) is page
    assert remove_rule_rows(Image.new("L", (100, 100), 255)).size == (100, 100)


def test_short_thin_marks_are_not_separators() -> None:
    page = _page()
    ImageDraw.Draw(page).rectangle((40, page.height - 25, 120, page.height - 23), fill=0)  # an underline stub
    assert remove_rule_rows(page) is page


def test_rule_removal_keeps_colour_images_in_colour() -> None:
    page = _page(rule_after=(2,)).convert("RGB")
    cleaned = remove_rule_rows(page)
    assert cleaned.mode == "RGB" and cleaned.size == page.size and cleaned.tobytes() != page.tobytes()


def test_sharpening_keeps_size_and_mode() -> None:
    page = _page()
    prepared = prepare_page(page, 300, Preprocessing(sharpen=True, min_text_height=0))
    assert (prepared.image.mode, prepared.image.size, prepared.dpi) == ("L", page.size, 300)


def test_new_steps_change_the_key_and_older_keys_stay_valid() -> None:
    base = Preprocessing(deskew=False, remove_rules=False, sharpen=False)
    assert ";deskew" not in base.key and ";remove_rules" not in base.key and ";sharpen" not in base.key
    keys = {base.key, Preprocessing(deskew=True).key, Preprocessing(remove_rules=True).key,
            Preprocessing(sharpen=True).key, Preprocessing(deskew=True, sharpen=True).key}
    assert len(keys) == 5


def test_flattening_whitens_shaded_paper_and_keeps_ink_dark() -> None:
    page = _page()
    shade = np.linspace(255, 150, page.width, dtype=np.float32)[None, :]  # darker towards the right
    shaded = Image.fromarray((np.asarray(page, dtype=np.float32) * shade / 255).astype(np.uint8))
    flat = np.asarray(flatten_background(shaded))
    paper = np.asarray(page) == 255
    assert np.asarray(shaded)[paper].min() < 160  # the right edge was grey paper ...
    assert np.percentile(flat[paper], 5) > 235  # ... and is white now
    assert flat[~paper].max() < 60  # the ink stays black


def test_flattening_keeps_the_mode_and_is_in_the_key() -> None:
    colour = _page().convert("RGB")
    assert flatten_background(colour).mode == "RGB"
    assert flatten_background(Image.new("L", (40, 40), 200)).size == (40, 40)
    assert Preprocessing(flatten=True).key != Preprocessing(flatten=False).key


def test_ink_aspect_ratio_tells_a_narrow_column_from_a_full_width_page() -> None:
    full_width = _page(lines=12, width=900)
    column = Image.new("L", (900, 1400), 255)  # a receipt on a scanner's page: ink in a narrow strip
    column.paste(_page(lines=20, width=260), (320, 40))
    column.putpixel((5, 5), 0)  # a speck far away does not widen the extent
    assert ink_aspect_ratio(full_width) < 1.0
    assert ink_aspect_ratio(column) > 3.0
    assert ink_aspect_ratio(Image.new("L", (100, 100), 255)) == 0.0


def test_grid_rules_are_whitened_and_cell_text_and_filled_bands_kept() -> None:
    page = _page(lines=8, width=600)
    draw = ImageDraw.Draw(page)
    top, bottom = 20, page.height - 20
    for x in (20, 300, page.width - 20):  # vertical rules crossing the text lines
        draw.rectangle((x, top, x + 1, bottom), fill=0)
    for y in (top, 30 + 4 * 32 - 8, bottom):  # horizontal rules touching them
        draw.rectangle((20, y, page.width - 20, y + 1), fill=0)
    draw.rectangle((20, 10, page.width - 20, 17), fill=0)  # a filled band, too thick for a rule
    cleaned = np.asarray(remove_grid_lines(page))
    original = np.asarray(page)
    assert not (cleaned[top + 5:bottom - 5, 299:303] < 128).any()
    assert not (cleaned[bottom - 1:bottom + 3, 40:500] < 128).any()
    text_row = 30 + 2 * 32 + 5
    letters = slice(40, 280)
    assert (cleaned[text_row, letters] == original[text_row, letters]).all()
    assert (cleaned[12:16, 40:500] < 128).all()


def test_grid_removal_is_keyed_and_off_by_default() -> None:
    assert not Preprocessing().remove_grid
    assert ";remove_grid=1" in Preprocessing(remove_grid=True).key and "remove_grid" not in Preprocessing().key


def test_despeckling_removes_lone_dark_pixels_and_keeps_strokes() -> None:
    page = _page()
    noisy = np.asarray(page).copy()
    paper_rows, paper_columns = np.nonzero(noisy == 255)
    rng = np.random.default_rng(7)
    picked = rng.choice(len(paper_rows), size=len(paper_rows) // 50, replace=False)
    noisy[paper_rows[picked], paper_columns[picked]] = 0  # 2 % of the paper: salt-and-pepper scan noise
    options = Preprocessing(min_text_height=0)
    cleaned = np.asarray(prepare_page(Image.fromarray(noisy), 300, options).image)
    untouched = np.asarray(prepare_page(Image.fromarray(noisy), 300,
                                        Preprocessing(min_text_height=0, despeckle=False)).image)
    ink = np.asarray(page) < 128
    assert (untouched[~ink] < 128).sum() == len(picked)  # without the step the specks stay
    assert (cleaned[~ink] < 128).sum() < len(picked) // 20
    assert (cleaned[ink] < 128).mean() > 0.9  # the text's strokes are kept


def test_despeckling_is_on_by_default_and_in_the_key() -> None:
    assert Preprocessing().despeckle
    assert ";despeckle=1" in Preprocessing().key and "despeckle" not in Preprocessing(despeckle=False).key


def test_median_3x3_is_pils_median_filter_pixel_for_pixel() -> None:
    from PIL import ImageFilter

    from quire.engines.preprocess import median_3x3

    noise = Image.fromarray(np.random.default_rng(3).integers(0, 256, (61, 83), dtype=np.uint8))
    assert np.array_equal(np.asarray(median_3x3(noise)), np.asarray(noise.filter(ImageFilter.MedianFilter(3))))
