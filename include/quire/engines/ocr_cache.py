"""OCR results cached by content, so a retried or re-run page never pays for tesseract twice.

The key is the SHA-256 of the rendered pixels together with the engine's name,
version and ``settings_key`` and the dpi (word boxes in points depend on it):
the same page rendered the same way by the same engine with the same options
gives the same answer. Entries are JSON files under ``<cache_dir>/ab/<key>.json``,
written to a temporary file and renamed into place, so a reader never sees half
an entry and concurrent writers of one key simply race to the same content.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path

from PIL import Image

from quire.engines.ocr import OcrEngine, OcrResult

log = logging.getLogger(__name__)


class CachedOcrEngine:
    """An :class:`OcrEngine` that answers from disk when it has seen the image before."""

    def __init__(self, inner: OcrEngine, cache_dir: Path) -> None:
        self.inner = inner
        self.cache_dir = cache_dir
        self.hits = 0
        self.misses = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def version(self) -> str:
        return self.inner.version

    @property
    def settings_key(self) -> str:
        return self.inner.settings_key

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        """The cached result for these pixels, or the inner engine's (then stored)."""
        path = self.entry_path(self.cache_key(image, dpi))
        cached = self._load(path)
        if cached is not None:
            self.hits += 1
            return cached
        self.misses += 1
        # Hand back the stored form (JSON rounds coordinates), so a miss and a later hit are identical.
        result = OcrResult.from_json(self.inner.recognize(image, dpi).to_json())
        self._store(path, result)
        return result

    def cache_key(self, image: Image.Image, dpi: int) -> str:
        digest = hashlib.sha256()
        header = f"{self.inner.name}\0{self.inner.version}\0{self.inner.settings_key}\0{dpi}\0" \
                 f"{image.mode}\0{image.width}x{image.height}\0"
        digest.update(header.encode())
        digest.update(image.tobytes())
        return digest.hexdigest()

    def entry_path(self, key: str) -> Path:
        return self.cache_dir / key[:2] / f"{key}.json"

    def _load(self, path: Path) -> OcrResult | None:
        try:
            return OcrResult.from_json(json.loads(path.read_text(encoding="utf-8")))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            log.warning("ignoring unreadable OCR cache entry %s: %s", path, exc)
            return None

    def _store(self, path: Path, result: OcrResult) -> None:
        # A cache that cannot be written costs speed, never correctness: log and carry on.
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        except OSError as exc:
            log.warning("cannot write OCR cache entry %s: %s", path, exc)
            return
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(result.to_json(), stream, ensure_ascii=False)
            os.replace(temp_name, path)
        except OSError as exc:
            log.warning("cannot write OCR cache entry %s: %s", path, exc)
            Path(temp_name).unlink(missing_ok=True)
