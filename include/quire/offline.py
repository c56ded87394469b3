"""``quire extract``: parse, split, classify and extract a file in-process, with no database or Airflow.

It calls the very functions the DAG's stages call (the engines chosen by
settings), so what an operator sees here is what the pipeline would decide.
The output is deterministic: the same input gives byte-identical JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quire.blobs import sha256_file
from quire.engines.inspect import inspect_file
from quire.engines.reader import open_with_settings
from quire.errors import QuarantineError, QuireError
from quire.ids import child_id_for, document_id_for
from quire.loading import load_object
from quire.model import Classification, Extraction, ParsedDocument, SplitPlan, TextMethod
from quire.settings import Settings


def extract_file_records(path: Path, settings: Settings, *, password: str | None = None) -> dict[str, Any]:
    """One JSON-able object describing what Quire makes of ``path``."""
    record: dict[str, Any] = {"source": str(path), "sha256": None, "status": "ok", "reason": None, "pages": 0,
                              "ocr_pages": 0, "documents": []}
    try:
        record["sha256"] = sha256 = sha256_file(path)
        inspect_file(path, settings, password)
        with open_with_settings(path, settings, password=password) as reader:
            pages = tuple(reader.read_page(n) for n in range(1, reader.page_count + 1))
    except QuarantineError as exc:
        return record | {"status": "quarantined", "reason": str(exc)}
    except (QuireError, OSError) as exc:
        return record | {"status": "failed", "reason": str(exc) or type(exc).__name__}
    record["pages"] = len(pages)
    record["ocr_pages"] = sum(1 for p in pages if p.method is TextMethod.OCR)

    plan: SplitPlan = load_object(settings.splitter)(ParsedDocument(pages))
    classify = load_object(settings.classifier)
    extract = load_object(settings.extractor)
    for part in plan.parts:
        parsed = ParsedDocument(pages[part.first_page - 1:part.last_page])
        classification: Classification = classify(parsed)
        extraction: Extraction = extract(parsed, classification, settings=settings)
        document_id = (document_id_for(sha256) if len(plan.parts) == 1
                       else child_id_for(sha256, part.index, part.first_page, part.last_page))
        record["documents"].append({
            "id": str(document_id), "page_range": [part.first_page, part.last_page],
            "doc_type": classification.doc_type, "doc_type_confidence": round(classification.confidence, 3),
            "fields": {name: value.to_json() for name, value in sorted(extraction.fields.items())},
            "line_items": [item.to_json() for item in extraction.line_items],
            "validation": [v.to_json() for v in extraction.validation],
            "routing": extraction.routing.value,
        })
    return record
