"""Image clean-up before tesseract, and the options that say which steps run.

Every option that changes OCR output is part of :attr:`Preprocessing.key`, which
goes into the OCR engine's ``settings_key`` and so into the OCR cache key.
The defaults are what bench/ocr_quality.py measured best on the SROIE receipts.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageOps

#: tesseract's ``thresholding_method`` values
THRESHOLDING_METHODS = {"otsu": 0, "leptonica-otsu": 1, "sauvola": 2}


@dataclass(frozen=True, slots=True)
class Preprocessing:
    """Which clean-up steps run before OCR."""

    #: convert to 8-bit grey first (tesseract thresholds colour channels separately otherwise)
    grayscale: bool = True
    #: images scanned below this resolution are upscaled to it (0: never); thin strokes at
    #: ~150 dpi break up in binarisation, and tesseract's models were trained on ~300 dpi text
    min_dpi: int = 300
    #: tesseract's binarisation: "otsu" (global) or "sauvola" (local, survives faded and shaded areas)
    thresholding: str = "sauvola"

    def __post_init__(self) -> None:
        if self.thresholding not in THRESHOLDING_METHODS:
            raise ValueError(f"unknown thresholding {self.thresholding!r}; "
                             f"expected one of {sorted(THRESHOLDING_METHODS)}")

    @property
    def key(self) -> str:
        """A stable description of the options, for cache keys."""
        return f"gray={int(self.grayscale)};min_dpi={self.min_dpi};threshold={self.thresholding}"

    @property
    def tesseract_config(self) -> list[str]:
        """``-c`` arguments for the tesseract CLI."""
        return ["-c", f"thresholding_method={THRESHOLDING_METHODS[self.thresholding]}"]


def prepare_image(image: Image.Image, dpi: float, options: Preprocessing) -> tuple[Image.Image, float]:
    """Apply the enabled steps; returns the image to OCR and its resolution (changed by upscaling)."""
    if options.grayscale and image.mode != "L":
        image = ImageOps.grayscale(image)
    elif image.mode not in ("L", "RGB"):
        image = image.convert("RGB")
    if options.min_dpi and dpi < options.min_dpi:
        factor = options.min_dpi / dpi
        image = image.resize((round(image.width * factor), round(image.height * factor)),
                             Image.Resampling.LANCZOS)
        dpi = options.min_dpi
    return image, dpi
