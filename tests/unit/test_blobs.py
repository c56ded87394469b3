import io
import stat

import pytest

from quire.blobs import BlobStore, sha256_file
from quire.errors import InputRejectedError


def test_blob_is_stored_under_its_hash_and_read_only(tmp_path):
    store = BlobStore(tmp_path / "blobs")
    staged = store.stage(io.BytesIO(b"%PDF-1.7 hello"), max_bytes=1024)
    path = store.commit(staged)
    assert path == tmp_path / "blobs" / staged.sha256[:2] / staged.sha256[2:4] / staged.sha256
    assert path.read_bytes() == b"%PDF-1.7 hello"
    assert sha256_file(path) == staged.sha256
    assert not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    assert not staged.temp_path.exists()
    assert store.path_from_uri(store.uri_for(staged.sha256)) == path


def test_same_bytes_are_stored_once(tmp_path):
    store = BlobStore(tmp_path)
    first = store.commit(store.stage(io.BytesIO(b"same"), max_bytes=10))
    second_staged = store.stage(io.BytesIO(b"same"), max_bytes=10)
    assert store.commit(second_staged) == first
    assert not second_staged.temp_path.exists()
    assert sum(1 for p in tmp_path.rglob("*") if p.is_file()) == 1


def test_oversized_input_is_refused_while_streaming_and_leaves_no_scratch(tmp_path):
    store = BlobStore(tmp_path)
    with pytest.raises(InputRejectedError, match="larger than"):
        store.stage(io.BytesIO(b"x" * 5000), max_bytes=4096)
    assert list((tmp_path / ".incoming").iterdir()) == []


def test_a_corrupted_copy_is_detected_before_publishing(tmp_path):
    from quire.blobs import BlobIntegrityError

    store = BlobStore(tmp_path)
    staged = store.stage(io.BytesIO(b"original"), max_bytes=100)
    staged.temp_path.write_bytes(b"tampered")  # a disk fault between copy and publish
    with pytest.raises(BlobIntegrityError):
        store.commit(staged)
    assert not store.path_for(staged.sha256).exists()
