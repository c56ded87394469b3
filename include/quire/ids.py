"""Deterministic identifiers: the same content always gets the same id.

Deriving ids from content (rather than drawing random ones) is what lets every
retried write converge: a re-run computes the same id and its upsert finds the row.
"""

from __future__ import annotations

import uuid

# A fixed namespace for Quire's uuid5 ids; changing it would re-key every document.
QUIRE_NAMESPACE = uuid.UUID("6b1d0c52-8f1e-5c1e-9a56-71756972652e")


def document_id_for(sha256: str) -> uuid.UUID:
    """The id of the root document holding exactly these bytes."""
    return uuid.uuid5(QUIRE_NAMESPACE, f"sha256:{sha256}")


def child_id_for(parent_sha256: str, split_index: int, first_page: int, last_page: int) -> uuid.UUID:
    """The id of a packet's part, derived from (parent hash, split index, page range)."""
    return uuid.uuid5(QUIRE_NAMESPACE, f"split:{parent_sha256}:{split_index}:{first_page}-{last_page}")
