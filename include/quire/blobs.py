"""An immutable, content-addressed blob store: ``<root>/ab/cd/<sha256>``.

A blob is written to a temporary file, fsynced, hashed again from disk and only
then renamed into place, so a reader never sees a partial or corrupt blob, and
the same bytes are stored once however often they arrive.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from quire.errors import InputRejectedError, TransientError

CHUNK_BYTES = 1024 * 1024


class BlobIntegrityError(TransientError):
    """The bytes on disk do not hash to what was read: a disk or copy fault, worth one more try."""


@dataclass(frozen=True, slots=True)
class StagedBlob:
    """Bytes copied into the store's scratch area, hashed, not yet published under their hash."""

    sha256: str
    size: int
    temp_path: Path


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


class BlobStore:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._scratch = root / ".incoming"

    def path_for(self, sha256: str) -> Path:
        return self.root / sha256[:2] / sha256[2:4] / sha256

    def uri_for(self, sha256: str) -> str:
        return f"blob://sha256/{sha256}"

    def path_from_uri(self, uri: str) -> Path:
        prefix = "blob://sha256/"
        if not uri.startswith(prefix):
            raise ValueError(f"not a Quire blob URI: {uri}")
        return self.path_for(uri[len(prefix):])

    def stage(self, source: BinaryIO, max_bytes: int) -> StagedBlob:
        """Stream ``source`` into a scratch file while hashing it; refuse more than ``max_bytes``."""
        self._scratch.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        size = 0
        fd, name = tempfile.mkstemp(dir=self._scratch, prefix="blob-")
        temp_path = Path(name)
        try:
            with os.fdopen(fd, "wb") as out:
                while chunk := source.read(CHUNK_BYTES):
                    size += len(chunk)
                    if size > max_bytes:
                        raise InputRejectedError(
                            f"file is larger than the {max_bytes // (1024 * 1024)} MiB limit")
                    digest.update(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
        except BaseException:
            temp_path.unlink(missing_ok=True)
            raise
        return StagedBlob(digest.hexdigest(), size, temp_path)

    def commit(self, staged: StagedBlob) -> Path:
        """Verify the staged bytes from disk and publish them under their hash (idempotent)."""
        target = self.path_for(staged.sha256)
        try:
            if target.exists():
                return target  # same hash, same bytes: the store already has them
            on_disk = sha256_file(staged.temp_path)
            if on_disk != staged.sha256:
                raise BlobIntegrityError(
                    f"copy of blob {staged.sha256[:12]} hashed to {on_disk[:12]} on disk")
            target.parent.mkdir(parents=True, exist_ok=True)
            os.chmod(staged.temp_path, 0o444)
            os.replace(staged.temp_path, target)
            _fsync_dir(target.parent)
            return target
        finally:
            staged.temp_path.unlink(missing_ok=True)

    def discard(self, staged: StagedBlob) -> None:
        staged.temp_path.unlink(missing_ok=True)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
