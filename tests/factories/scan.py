"""Scanned-looking renderings: rasterise the digital PDF and degrade it like a desk scanner.

Each page is rendered with pypdfium2, put on a grey, unevenly lit paper tone, turned by a
slight skew, blurred, given sensor noise and dust, and compressed as JPEG. The result has
no text layer, so it exercises OCR; its ground truth is the one of the digital document.
All randomness comes from ``numpy.random.default_rng(seed)``, so a seed gives the same bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter

from .render import render_pdf_bytes

if TYPE_CHECKING:
    from .invoices import InvoiceSpec

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
MULTIPAGE_SUFFIXES = (".pdf", ".tif", ".tiff")


@dataclass(frozen=True, slots=True)
class ScanSettings:
    """One scanner's character, drawn once per document so all its pages look alike."""

    dpi: int
    grayscale: bool
    paper_level: float  # 0..1 brightness of the blank paper
    skew_degrees: float
    blur_radius: float
    noise_sigma: float
    jpeg_quality: int

    @classmethod
    def draw(cls, rng: np.random.Generator) -> ScanSettings:
        return cls(dpi=int(rng.choice((150, 200, 200, 300))), grayscale=bool(rng.random() < 0.8),
                   paper_level=float(rng.uniform(0.82, 0.97)),
                   skew_degrees=float(rng.uniform(0, 3) * rng.choice((-1, 1))),
                   blur_radius=float(rng.uniform(0.3, 1.1)), noise_sigma=float(rng.uniform(3, 12)),
                   jpeg_quality=int(rng.integers(35, 80)))


def scan_pages(pdf: bytes | str | Path, seed: int) -> tuple[list[Image.Image], ScanSettings]:
    """Degraded page images of ``pdf`` (bytes or a path) and the settings that made them."""
    rng = np.random.default_rng(seed)
    settings = ScanSettings.draw(rng)
    document = pdfium.PdfDocument(pdf)
    try:
        images = [_degrade(page.render(scale=settings.dpi / 72, grayscale=settings.grayscale).to_pil(), settings, rng)
                  for page in document]
    finally:
        document.close()
    return images, settings


def _degrade(image: Image.Image, settings: ScanSettings, rng: np.random.Generator) -> Image.Image:
    image = image.convert("L" if settings.grayscale else "RGB")
    pixels = np.asarray(image, dtype=np.float32) / 255.0
    height, width = pixels.shape[:2]
    # the lid lets in light unevenly: a gentle gradient across the page on top of the paper tone
    gradient = np.linspace(0, float(rng.uniform(-0.06, 0.06)), width, dtype=np.float32)[None, :]
    tone = settings.paper_level + gradient
    if pixels.ndim == 3:
        tone = tone[..., None] * np.array([1.0, 0.99, 0.95], dtype=np.float32)  # yellowish paper
    pixels = pixels * tone
    image = Image.fromarray(np.clip(pixels * 255, 0, 255).astype(np.uint8))
    fill = int(settings.paper_level * 255)
    image = image.rotate(settings.skew_degrees, resample=Image.Resampling.BILINEAR, expand=False,
                         fillcolor=fill if settings.grayscale else (fill, fill, int(fill * 0.95)))
    image = image.filter(ImageFilter.GaussianBlur(settings.blur_radius))
    pixels = np.asarray(image, dtype=np.float32)
    pixels += rng.standard_normal(pixels.shape, dtype=np.float32) * np.float32(settings.noise_sigma)
    specks = int(rng.poisson(height * width * 0.0004))  # dust on the glass
    rows, columns = rng.integers(0, height, specks), rng.integers(0, width, specks)
    pixels[rows, columns] = rng.uniform(0, 90, specks)[:, None] if pixels.ndim == 3 else rng.uniform(0, 90, specks)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))


def scan_pdf(pdf: bytes | str | Path, path: str | Path, seed: int) -> list[Path]:
    """Write a scanned-looking copy of ``pdf`` to ``path``; the suffix chooses the kind.

    ``.pdf`` and ``.tif`` hold every page in one image-only file; ``.png`` and ``.jpg`` hold
    one page each, page 1 at ``path`` and page N at ``<stem>-pN<suffix>``. Returns the files
    written, in page order.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in IMAGE_SUFFIXES + MULTIPAGE_SUFFIXES:
        raise ValueError(f"unsupported scan format {suffix!r}")
    images, settings = scan_pages(pdf, seed)
    # every kind goes through JPEG once, as scanners' firmware does, so all show its artefacts
    images = [_jpeg_round_trip(image, settings.jpeg_quality) for image in images]
    if suffix == ".pdf":
        # Pillow stamps the file name and the current time unless told otherwise
        images[0].save(path, "PDF", save_all=True, append_images=images[1:], resolution=settings.dpi,
                       quality=settings.jpeg_quality, title="scan", creationDate=None, modDate=None)
        return [path]
    if suffix in (".tif", ".tiff"):
        images[0].save(path, "TIFF", save_all=True, append_images=images[1:], dpi=(settings.dpi, settings.dpi),
                       compression="tiff_deflate")
        return [path]
    written = []
    for number, image in enumerate(images, start=1):
        target = path if number == 1 else path.with_name(f"{path.stem}-p{number}{path.suffix}")
        if suffix == ".png":
            image.save(target, "PNG", dpi=(settings.dpi, settings.dpi))
        else:
            image.save(target, "JPEG", quality=settings.jpeg_quality, dpi=(settings.dpi, settings.dpi))
        written.append(target)
    return written


def render_scan(spec: InvoiceSpec, path: str | Path, seed: int) -> list[Path]:
    """A scanned-looking rendering of ``spec`` (see :func:`scan_pdf` for the formats)."""
    return scan_pdf(render_pdf_bytes(spec), path, seed)


def _jpeg_round_trip(image: Image.Image, quality: int) -> Image.Image:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    buffer.seek(0)
    return Image.open(buffer).copy()
