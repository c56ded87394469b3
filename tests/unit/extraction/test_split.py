from quire.extraction.split import SPLIT_RULE_VERSION, plan_split


def _parts(plan):
    return [(p.first_page, p.last_page, p.reason) for p in plan.parts]


def _invoice(number, page_note=""):
    return f"ACME Ltd                        INVOICE\nInvoice No: {number}\nTotal 10.00\n{page_note}\n"


def test_a_multi_page_invoice_with_page_n_of_m_stays_one_part(make_document):
    plan = plan_split(make_document(_invoice("A-1", "Page 1 of 3"), "Items\nPage 2 of 3", "Total\nPage 3 of 3"))
    assert _parts(plan) == [(1, 3, "first_page")]
    assert plan.rule_version == SPLIT_RULE_VERSION
    assert plan.rules == ("p1:first_page", "p2:page_k_of_n", "p3:page_k_of_n")


def test_a_new_document_number_starts_a_new_part_even_under_the_same_title(make_document):
    plan = plan_split(make_document(_invoice("A-1"), _invoice("A-1"), _invoice("B-2")))
    assert _parts(plan) == [(1, 2, "first_page"), (3, 3, "new_document_number")]


def test_page_one_of_n_starts_a_part(make_document):
    plan = plan_split(make_document(_invoice("A-1", "Page 1 of 1"), _invoice("B-2", "Page 1 of 2"),
                                    "more items\nPage 2 of 2"))
    assert _parts(plan) == [(1, 1, "first_page"), (2, 3, "page_1_of_n")]


def test_blank_pages_separate_documents_and_belong_to_none(make_document):
    plan = plan_split(make_document("Some letter\nDear Sir", "", "Another page without signals", "  "))
    assert _parts(plan) == [(1, 1, "first_page"), (3, 3, "after_separator")]


def test_a_title_heading_starts_a_part_and_continued_keeps_one(make_document):
    plan = plan_split(make_document("Rechnung\nBetrag 10,00", "Rechnung (Fortsetzung)\nBetrag", "Factuur\nBedrag",
                                    "Dear Madam,\nwe write to ..."))
    assert _parts(plan) == [(1, 2, "first_page"), (3, 3, "title_heading"), (4, 4, "title_heading")]


def test_the_page_count_of_a_part_ends_it(make_document):
    plan = plan_split(make_document("Statement\nPage 1 of 2", "lines", "lines of the next document"))
    assert _parts(plan) == [(1, 2, "first_page"), (3, 3, "page_count_reached")]


def test_an_all_blank_document_is_kept_whole(make_document):
    assert _parts(plan_split(make_document("", ""))) == [(1, 2, "all_pages_blank")]


def test_split_is_deterministic(make_document):
    document = make_document(_invoice("A-1"), "", _invoice("B-2"), _invoice("C-3", "Page 1 of 2"), "x\nPage 2 of 2")
    assert plan_split(document) == plan_split(document)
