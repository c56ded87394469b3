"""Optional per-vendor templates (YAML) that override the generic rules for the fields they define.

A template file looks like::

    name: acme
    version: 3
    keywords: ["ACME Corporation", "VAT GB 123 4567 89"]   # all must appear (case-insensitive)
    fields:
      vendor_name: {value: "ACME Corporation Ltd"}           # a constant
      invoice_number: {regex: 'Ref\\.\\s*(\\w+-\\d+)'}        # group 1 (or the whole match)
      issue_date: {anchor: "Date of supply"}                 # the text right of / below this label

Values are normalised exactly like generic ones (ISO dates, decimal strings, ISO 4217).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from quire.errors import TerminalError
from quire.extraction.layout import DocumentContext, text_below
from quire.extraction.normalise import detect_currency, find_dates, fold, format_amount, parse_amount
from quire.model import FieldValue, ParsedDocument

#: a value a template defines is trusted more than a generic guess, less than a person
TEMPLATE_CONFIDENCE = 0.97
_DATE_FIELDS = frozenset({"issue_date", "due_date"})
_AMOUNT_FIELDS = frozenset({"subtotal_amount", "tax_amount", "total_amount"})
_KNOWN_FIELDS = frozenset({"vendor_name", "vendor_address", "invoice_number", "currency"}) | _DATE_FIELDS \
    | _AMOUNT_FIELDS


class TemplateError(TerminalError):
    """A template file is malformed; fixing the file, not retrying, helps."""


@dataclass(frozen=True, slots=True)
class FieldRule:
    """How a template finds one field: exactly one of a constant, a regex or an anchor label."""

    value: str | None = None
    regex: re.Pattern[str] | None = None
    anchor: str | None = None


@dataclass(frozen=True, slots=True)
class Template:
    name: str
    version: str
    keywords: tuple[str, ...]
    fields: tuple[tuple[str, FieldRule], ...]

    @property
    def reference(self) -> str:
        """``name@version``, recorded on every extraction the template took part in."""
        return f"{self.name}@{self.version}"


def parse_template(data: Any, source: str) -> Template:
    """Build a template from parsed YAML, raising TemplateError with ``source`` named when malformed."""
    if not isinstance(data, Mapping):
        raise TemplateError(f"{source}: a template is a mapping")
    try:
        name, version = str(data["name"]), str(data["version"])
        keywords = tuple(str(k) for k in data["keywords"])
        raw_fields = data.get("fields") or {}
    except (KeyError, TypeError) as exc:
        raise TemplateError(f"{source}: needs name, version and keywords ({exc})") from exc
    if not keywords:
        raise TemplateError(f"{source}: at least one keyword is needed to match a template")
    rules = []
    for field_name in sorted(raw_fields):
        spec = raw_fields[field_name]
        if field_name not in _KNOWN_FIELDS:
            raise TemplateError(f"{source}: unknown field {field_name!r}")
        if not isinstance(spec, Mapping) or len(spec.keys() & {"value", "regex", "anchor"}) != 1:
            raise TemplateError(f"{source}: field {field_name!r} needs exactly one of value, regex, anchor")
        try:
            regex = re.compile(spec["regex"], re.IGNORECASE | re.MULTILINE) if "regex" in spec else None
        except re.error as exc:
            raise TemplateError(f"{source}: field {field_name!r}: bad regex: {exc}") from exc
        rules.append((field_name, FieldRule(value=spec.get("value"), regex=regex, anchor=spec.get("anchor"))))
    return Template(name, version, keywords, tuple(rules))


def load_templates(directory: Path) -> tuple[Template, ...]:
    """Every ``*.yaml``/``*.yml`` template in ``directory``, in file-name order."""
    paths = sorted([*directory.glob("*.yaml"), *directory.glob("*.yml")])
    templates = []
    for path in paths:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise TemplateError(f"{path}: not valid YAML: {exc}") from exc
        templates.append(parse_template(data, str(path)))
    return tuple(templates)


def match_template(parsed: ParsedDocument, templates: Sequence[Template]) -> Template | None:
    """The template all of whose keywords occur in the document; the most specific (most keywords) wins."""
    text = fold(parsed.text)
    matching = [t for t in templates if all(fold(k) in text for k in t.keywords)]
    if not matching:
        return None
    return min(matching, key=lambda t: (-len(t.keywords), t.name, t.version))


def apply_template(template: Template, context: DocumentContext) -> dict[str, FieldValue]:
    """The fields a template defines, normalised; a rule that finds nothing yields a missing value."""
    found: dict[str, FieldValue] = {}
    for field_name, rule in template.fields:
        raw = _raw_value(rule, context)
        value = _normalise(field_name, raw, context) if raw is not None else None
        found[field_name] = FieldValue(value, TEMPLATE_CONFIDENCE if value is not None else 0.0)
    return found


def _raw_value(rule: FieldRule, context: DocumentContext) -> str | None:
    if rule.value is not None:
        return rule.value
    if rule.regex is not None:
        match = rule.regex.search("\n".join(line.text for line in context.lines))
        if match is None:
            return None
        return match.group(1) if match.re.groups else match.group(0)
    anchor = re.compile(r"\s+".join(map(re.escape, (rule.anchor or "").split())), re.IGNORECASE)
    for position, line in enumerate(context.lines):
        match = anchor.search(line.text)
        if match is None:
            continue
        after = line.text[match.end():].strip(" :#")
        if after:
            return after
        below = text_below(context.lines, position, match.start(), match.end())
        return below[0][0] if below else None
    return None


def _normalise(field_name: str, raw: str, context: DocumentContext) -> str | None:
    if field_name in _DATE_FIELDS:
        dates = find_dates(raw)
        resolved = dates[0].resolve(context.date_order) if dates else None
        return resolved.isoformat() if resolved is not None else None
    if field_name in _AMOUNT_FIELDS:
        amount = parse_amount(raw.strip(), context.decimal_separator)
        return format_amount(amount) if amount is not None else None
    if field_name == "currency":
        code = raw.strip().upper()
        return code if re.fullmatch(r"[A-Z]{3}", code) else detect_currency(raw)
    return " ".join(raw.split()) or None
