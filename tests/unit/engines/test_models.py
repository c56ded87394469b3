"""The models folder of the receipt vote's full-size English network."""

from __future__ import annotations

from pathlib import Path

from quire.engines.models import assemble_folder, full_network_folder, installed_models_folder, wheel_models


def _model(folder: Path, name: str, content: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.traineddata"
    path.write_bytes(content)
    return path


def test_the_folder_links_every_installed_model_with_the_replacement_in_its_place(tmp_path: Path) -> None:
    installed = tmp_path / "installed"
    for name in ("eng", "deu", "osd"):
        _model(installed, name, name.encode())
    better = _model(tmp_path / "wheel", "eng", b"full-size")
    folder = assemble_folder(tmp_path / "cache", installed, {"eng": better})
    assert sorted(p.name for p in folder.iterdir()) == ["deu.traineddata", "eng.traineddata",
                                                        "osd.traineddata"]
    assert (folder / "eng.traineddata").read_bytes() == b"full-size"
    assert (folder / "deu.traineddata").read_bytes() == b"deu"
    # made once: asked again, the same folder; a changed model, a new one (and so new OCR cache keys)
    assert assemble_folder(tmp_path / "cache", installed, {"eng": better}) == folder
    _model(tmp_path / "wheel", "eng", b"full-size, retrained")
    assert assemble_folder(tmp_path / "cache", installed, {"eng": better}) != folder
    assert [p.name for p in (tmp_path / "cache").iterdir() if p.name.startswith(".")] == []


def test_the_folder_of_this_installation_reads_english_with_the_wheels_model(engine_settings) -> None:
    folder = full_network_folder(engine_settings)
    assert (folder / "eng.traineddata").resolve() == wheel_models()["eng"].resolve()
    assert (folder / "osd.traineddata").resolve() == (installed_models_folder() / "osd.traineddata").resolve()


def test_without_tesseract_there_is_no_folder(engine_settings) -> None:
    assert full_network_folder(engine_settings, binary="no-such-tesseract") is None


def test_a_cache_that_cannot_be_written_leaves_the_installed_models(engine_settings, tmp_path) -> None:
    engine_settings.cache_root.parent.mkdir(parents=True)
    engine_settings.cache_root.write_text("a file where the cache folder should be")
    assert full_network_folder(engine_settings) is None
