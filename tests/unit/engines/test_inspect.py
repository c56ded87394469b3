"""inspect_file: type by magic bytes, intake limits from headers, one clear outcome per awkward PDF."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from quire.engines.inspect import JPEG, PDF, PNG, TIFF, FileInfo, inspect_file
from quire.errors import (
    DocumentTooLargeError,
    InputRejectedError,
    PasswordRequiredError,
    QuarantineError,
    UnreadableDocumentError,
)

# file -> page count when it is accepted without a password, or the error it ends in
AWKWARD_OUTCOMES: dict[str, int | type[Exception]] = {
    "ocrmypdf__2400dpi.pdf": 1,
    "ocrmypdf__cardinal.pdf": 4,
    "ocrmypdf__invalid.pdf": UnreadableDocumentError,
    "ocrmypdf__multipage.pdf": 6,
    "ocrmypdf__no_contents.pdf": 1,
    "ocrmypdf__poster.pdf": 1,  # 112.5 MP at 300 dpi: just inside the default 120 MP budget
    "ocrmypdf__truetype_font_nomapping.pdf": 1,
    "ocrmypdf__vector.pdf": 1,
    "pdfplumber__issue-140-example.pdf": 1,
    "pdfplumber__issue-297-example.pdf": 1,  # PDFium (primary) and poppler: 1 page; pdfplumber: 0
    "pdfplumber__malformed-from-issue-932.pdf": 1,
    "pdfplumber__nics-background-checks-2015-11-rotated.pdf": 1,
    "pdfplumber__password-example.pdf": PasswordRequiredError,
    "pypdf__Seige_of_Vicksburg_Sample_OCR.pdf": 6,
    "pypdf__r6-user-password.pdf": PasswordRequiredError,  # empty owner password does not count
    "samplefiles__GeoTopo-komprimiert.pdf": 117,
}


def test_the_table_covers_every_awkward_file(awkward_dir: Path) -> None:
    assert sorted(p.name for p in awkward_dir.glob("*.pdf")) == sorted(AWKWARD_OUTCOMES)


@pytest.mark.parametrize("name", sorted(AWKWARD_OUTCOMES))
def test_awkward_file_outcome(name: str, awkward_dir: Path, engine_settings) -> None:
    expected = AWKWARD_OUTCOMES[name]
    if isinstance(expected, int):
        info = inspect_file(awkward_dir / name, engine_settings)
        assert info.media_type == PDF
        assert info.page_count == expected == len(info.page_sizes)
        assert not info.encrypted
    else:
        with pytest.raises(expected) as caught:
            inspect_file(awkward_dir / name, engine_settings)
        assert caught.value.media_type == PDF
        assert str(caught.value)


def test_invalid_pdf_reason_is_readable(awkward_dir: Path, engine_settings) -> None:
    with pytest.raises(UnreadableDocumentError, match="not a readable PDF: .*trailer or /Root"):
        inspect_file(awkward_dir / "ocrmypdf__invalid.pdf", engine_settings)


def test_password_example_opens_with_its_password(awkward_dir: Path, engine_settings) -> None:
    info = inspect_file(awkward_dir / "pdfplumber__password-example.pdf", engine_settings, password="test")
    assert (info.page_count, info.encrypted) == (4, True)


def test_wrong_password_is_reported_as_such(awkward_dir: Path, engine_settings) -> None:
    with pytest.raises(PasswordRequiredError, match="supplied password does not open it"):
        inspect_file(awkward_dir / "pdfplumber__password-example.pdf", engine_settings, password="nope")


def test_r6_opens_with_its_user_password(awkward_dir: Path, engine_settings) -> None:
    info = inspect_file(awkward_dir / "pypdf__r6-user-password.pdf", engine_settings, password="asdfzxcv")
    assert (info.page_count, info.encrypted) == (1, True)


@pytest.mark.parametrize("bits", [128, 256])
def test_empty_owner_password_does_not_open_a_user_password_pdf(bits, awkward_dir, qpdf_encrypt,
                                                                 engine_settings) -> None:
    encrypted = qpdf_encrypt(awkward_dir / "ocrmypdf__no_contents.pdf", "secret", "", bits)
    with pytest.raises(PasswordRequiredError):
        inspect_file(encrypted, engine_settings)
    assert inspect_file(encrypted, engine_settings, password="secret").page_count == 1


def test_permissions_only_pdf_opens_without_a_password(awkward_dir, qpdf_encrypt, engine_settings) -> None:
    encrypted = qpdf_encrypt(awkward_dir / "ocrmypdf__no_contents.pdf", "", "owner-secret", 256)
    info = inspect_file(encrypted, engine_settings)
    assert (info.page_count, info.encrypted) == (1, True)


def test_type_comes_from_bytes_not_the_name(awkward_dir: Path, tmp_path: Path, engine_settings) -> None:
    disguised_pdf = tmp_path / "photo.png"
    disguised_pdf.write_bytes((awkward_dir / "ocrmypdf__no_contents.pdf").read_bytes())
    assert inspect_file(disguised_pdf, engine_settings).media_type == PDF

    disguised_png = tmp_path / "scan.pdf"
    Image.new("L", (40, 30), 255).save(disguised_png, format="PNG")
    assert inspect_file(disguised_png, engine_settings).media_type == PNG


@pytest.mark.parametrize("content", [b"", b"hello, this is plain text\n", b"PK\x03\x04zip"])
def test_unsupported_or_empty_input_is_rejected(content: bytes, tmp_path: Path, engine_settings) -> None:
    path = tmp_path / "input.pdf"
    path.write_bytes(content)
    with pytest.raises(InputRejectedError):
        inspect_file(path, engine_settings)


def test_file_over_the_byte_limit_is_rejected(awkward_dir: Path, engine_settings) -> None:
    settings = engine_settings.model_copy(update={"max_file_bytes": 100})
    with pytest.raises(InputRejectedError, match="limit is 100"):
        inspect_file(awkward_dir / "ocrmypdf__multipage.pdf", settings)


def test_too_many_pages(awkward_dir: Path, engine_settings) -> None:
    settings = engine_settings.model_copy(update={"max_pages": 100})
    with pytest.raises(DocumentTooLargeError, match="117 pages"):
        inspect_file(awkward_dir / "samplefiles__GeoTopo-komprimiert.pdf", settings)


def test_page_pixel_budget_is_checked_from_the_page_size(awkward_dir: Path, engine_settings) -> None:
    settings = engine_settings.model_copy(update={"ocr_dpi": 400})  # poster: 200 MP at 400 dpi
    with pytest.raises(DocumentTooLargeError, match="page 1 is 1800 x 3600 pt"):
        inspect_file(awkward_dir / "ocrmypdf__poster.pdf", settings)


def test_missing_file_is_rejected(tmp_path: Path, engine_settings) -> None:
    with pytest.raises(InputRejectedError, match="cannot read file"):
        inspect_file(tmp_path / "absent.pdf", engine_settings)


# -- images


@pytest.mark.parametrize(("fmt", "media_type"), [("PNG", PNG), ("JPEG", JPEG), ("TIFF", TIFF)])
def test_single_images(fmt: str, media_type: str, tmp_path: Path, engine_settings) -> None:
    path = tmp_path / "image.bin"
    Image.new("RGB", (300, 150), "white").save(path, format=fmt, dpi=(150, 150))
    info = inspect_file(path, engine_settings)
    assert (info.media_type, info.page_count, info.image_sizes) == (media_type, 1, ((300, 150),))
    assert info.page_sizes[0].width == pytest.approx(144.0, rel=1e-3)  # 300 px at 150 dpi = 2 in (PNG rounds dpi)


def test_multi_frame_tiff_frames_are_pages(tmp_path: Path, engine_settings) -> None:
    path = tmp_path / "fax.tif"
    frames = [Image.new("L", (100 + i, 80), 255) for i in range(3)]
    frames[0].save(path, save_all=True, append_images=frames[1:])
    info = inspect_file(path, engine_settings)
    assert info.page_count == 3
    assert info.image_sizes == ((100, 80), (101, 80), (102, 80))


def _png_header_only(path: Path, width: int, height: int) -> Path:
    """A PNG whose header promises ``width`` x ``height`` pixels, with almost no data behind it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                     + chunk(b"IEND", b""))
    return path


@pytest.mark.parametrize("side", [12_000, 100_000])  # over Quire's 120 MP; over Pillow's own bomb limit
def test_image_bomb_is_refused_from_its_header(side: int, tmp_path: Path, engine_settings) -> None:
    bomb = _png_header_only(tmp_path / "bomb.png", side, side)
    with pytest.raises(DocumentTooLargeError) as caught:
        inspect_file(bomb, engine_settings)
    assert caught.value.media_type == PNG


def test_truncated_image_is_unreadable(tmp_path: Path, engine_settings) -> None:
    path = tmp_path / "broken.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 20)
    with pytest.raises(UnreadableDocumentError, match="not a readable image"):
        inspect_file(path, engine_settings)


def test_quarantine_errors_are_terminal_quarantine(awkward_dir: Path, engine_settings) -> None:
    with pytest.raises(QuarantineError) as caught:
        inspect_file(awkward_dir / "ocrmypdf__invalid.pdf", engine_settings)
    assert not caught.value.retryable


def test_file_info_is_frozen(awkward_dir: Path, engine_settings) -> None:
    info = inspect_file(awkward_dir / "ocrmypdf__no_contents.pdf", engine_settings)
    assert isinstance(info, FileInfo)
    with pytest.raises(AttributeError):
        info.page_count = 2  # type: ignore[misc]
