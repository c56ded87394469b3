"""Fixtures for the engine unit tests: settings that need no database, small generated inputs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from quire.settings import Settings


@pytest.fixture
def engine_settings(tmp_path: Path) -> Settings:
    """Default limits, with every on-disk path under the test's own folder."""
    return Settings(home=tmp_path / "quire-home")


@pytest.fixture
def awkward_dir(corpus_dir: Path) -> Path:
    return corpus_dir / "awkward"


@pytest.fixture(scope="session")
def qpdf_encrypt(tmp_path_factory: pytest.TempPathFactory):
    """Encrypt a PDF with qpdf: ``qpdf_encrypt(source, user, owner, bits) -> Path``."""
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf is not installed")
    out_dir = tmp_path_factory.mktemp("encrypted")

    def encrypt(source: Path, user: str, owner: str, bits: int) -> Path:
        target = out_dir / f"{source.stem}-{bits}-{user or 'nouser'}-{owner or 'noowner'}.pdf"
        # qpdf 11 refuses an empty owner password on AES-256 unless told it is deliberate
        extra = ["--use-aes=n"] if bits == 128 else ([] if owner else ["--allow-insecure"])
        subprocess.run(["qpdf", "--allow-weak-crypto", "--encrypt", user, owner, str(bits), *extra, "--",
                        str(source), str(target)], check=True, capture_output=True)
        return target

    return encrypt
