"""The content-addressed OCR cache: a hit skips the engine; anything that changes the output misses."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw

from quire.engines.ocr_cache import CachedOcrEngine
from tests.unit.engines.ocr_doubles import CountingOcrEngine


def _page(text: str = "hello") -> Image.Image:
    image = Image.new("L", (200, 80), 255)
    ImageDraw.Draw(image).text((10, 30), text, fill=0)
    return image


def test_second_read_of_the_same_pixels_is_a_hit(tmp_path: Path) -> None:
    inner = CountingOcrEngine()
    cached = CachedOcrEngine(inner, tmp_path / "ocr")
    first = cached.recognize(_page(), 300)
    second = cached.recognize(_page(), 300)
    assert first == second
    assert inner.calls == 1
    assert (cached.hits, cached.misses) == (1, 1)


def test_entry_is_json_under_its_key_prefix(tmp_path: Path) -> None:
    cached = CachedOcrEngine(CountingOcrEngine(), tmp_path / "ocr")
    cached.recognize(_page(), 300)
    key = cached.cache_key(_page(), 300)
    entry = tmp_path / "ocr" / key[:2] / f"{key}.json"
    assert json.loads(entry.read_text())["text"] == "counted call 1"
    assert not list((tmp_path / "ocr").rglob(".tmp-*"))  # written atomically, nothing left behind


def test_different_pixels_dpi_or_options_miss(tmp_path: Path) -> None:
    inner = CountingOcrEngine()
    cached = CachedOcrEngine(inner, tmp_path / "ocr")
    cached.recognize(_page("hello"), 300)
    cached.recognize(_page("world"), 300)
    cached.recognize(_page("hello"), 200)
    inner.settings_key = "other-options"
    cached.recognize(_page("hello"), 300)
    assert inner.calls == 4


def test_cache_survives_a_new_engine_instance(tmp_path: Path) -> None:
    CachedOcrEngine(CountingOcrEngine(), tmp_path / "ocr").recognize(_page(), 300)
    inner = CountingOcrEngine()
    CachedOcrEngine(inner, tmp_path / "ocr").recognize(_page(), 300)
    assert inner.calls == 0


def test_corrupt_entry_is_recomputed(tmp_path: Path) -> None:
    inner = CountingOcrEngine()
    cached = CachedOcrEngine(inner, tmp_path / "ocr")
    entry = cached.entry_path(cached.cache_key(_page(), 300))
    entry.parent.mkdir(parents=True)
    entry.write_text("{not json")
    assert cached.recognize(_page(), 300).text == "counted call 1"
    assert json.loads(entry.read_text())["text"] == "counted call 1"


def test_unwritable_cache_costs_speed_not_results(tmp_path: Path) -> None:
    blocker = tmp_path / "ocr"
    blocker.write_text("a file where the cache folder should be")
    inner = CountingOcrEngine()
    cached = CachedOcrEngine(inner, blocker)
    assert cached.recognize(_page(), 300).text == "counted call 1"
    assert cached.recognize(_page(), 300).text == "counted call 2"
