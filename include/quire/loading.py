"""Resolve ``package.module:attribute`` paths, the way engines and test doubles are chosen by config."""

from __future__ import annotations

import importlib
from typing import Any


def load_object(path: str) -> Any:
    """Import ``package.module:attribute`` (attribute may be dotted) and return it."""
    module_name, sep, attribute = path.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"expected 'package.module:attribute', got {path!r}")
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target
