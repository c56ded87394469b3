import pytest

from quire.extraction.fields import extract_fields
from quire.extraction.templates import TemplateError, load_templates, match_template, parse_template
from quire.model import Classification
from quire.settings import Settings

INVOICE = Classification("invoice", 0.9, "test")
PAGE = """
ACME Corporation                               INVOICE
Your ref. AC/2024/77                    VAT GB 123 4567 89
Date of supply 02/01/2024
Description        Qty    Price     Amount
Widget               1    10.00      10.00
                    Total            10.00 GBP
"""
TEMPLATE_YAML = """
name: acme
version: 3
keywords: ["ACME Corporation", "VAT GB 123 4567 89"]
fields:
  vendor_name: {value: "ACME Corporation Ltd"}
  invoice_number: {regex: 'Your ref\\.\\s*(\\S+)'}
  issue_date: {anchor: "Date of supply"}
"""


@pytest.fixture
def template_dir(tmp_path):
    (tmp_path / "acme.yaml").write_text(TEMPLATE_YAML, encoding="utf-8")
    (tmp_path / "other.yml").write_text("name: other\nversion: 1\nkeywords: [Globex]\n", encoding="utf-8")
    return tmp_path


def test_a_matching_template_overrides_generic_fields_and_is_recorded(make_document, template_dir):
    extraction = extract_fields(make_document(PAGE), INVOICE, settings=Settings(template_dir=template_dir))
    assert extraction.template == "acme@3"
    values = {name: value.value for name, value in extraction.fields.items()}
    assert values["vendor_name"] == "ACME Corporation Ltd"
    assert values["invoice_number"] == "AC/2024/77"
    assert values["issue_date"] == "2024-01-02"  # GBP: day-first
    assert values["total_amount"] == "10.00"  # not in the template: the generic rule still applies


def test_without_a_matching_template_the_generic_path_runs(make_document, template_dir):
    templates = load_templates(template_dir)
    assert [t.reference for t in templates] == ["acme@3", "other@1"]
    document = make_document("Globe Ltd\nInvoice No: 5\nTotal 1.00")
    assert match_template(document, templates) is None
    assert extract_fields(document, INVOICE, templates=templates).template is None


def test_the_template_with_most_keywords_wins(make_document):
    broad = parse_template({"name": "broad", "version": 1, "keywords": ["ACME"]}, "broad")
    narrow = parse_template({"name": "narrow", "version": 2, "keywords": ["ACME", "VAT GB"]}, "narrow")
    assert match_template(make_document(PAGE), [broad, narrow]) is narrow


@pytest.mark.parametrize("data", [
    [],
    {"name": "x", "version": 1},
    {"name": "x", "version": 1, "keywords": []},
    {"name": "x", "version": 1, "keywords": ["a"], "fields": {"colour": {"value": "red"}}},
    {"name": "x", "version": 1, "keywords": ["a"], "fields": {"vendor_name": {"value": "a", "regex": "b"}}},
    {"name": "x", "version": 1, "keywords": ["a"], "fields": {"invoice_number": {"regex": "("}}},
])
def test_malformed_templates_are_rejected_with_their_source(data):
    with pytest.raises(TemplateError, match="bad.yaml"):
        parse_template(data, "bad.yaml")
