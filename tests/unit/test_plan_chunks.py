from quire.pipeline import MAX_CHUNK_SIZE, plan_chunks
from quire.runs import ClaimedDocument


def _claimed(n):
    return [ClaimedDocument(f"id-{i}", f"{i:064x}", f"doc-{i}.pdf", "IN_PROGRESS") for i in range(n)]


def test_one_document_is_one_instance_labelled_with_its_name():
    [chunk] = plan_chunks(_claimed(1))
    assert chunk == {"label": f"doc-0.pdf [{0:08x}]", "document_ids": ["id-0"]}


def test_few_documents_each_get_their_own_instance():
    assert [len(c["document_ids"]) for c in plan_chunks(_claimed(8), slots=2)] == [1] * 8


def test_a_backlog_is_cut_into_one_chunk_per_slot():
    chunks = plan_chunks(_claimed(500), slots=2)
    assert [len(c["document_ids"]) for c in chunks] == [250] * 2
    assert chunks[0]["label"].endswith("+249 more")
    assert [i for c in chunks for i in c["document_ids"]] == [f"id-{i}" for i in range(500)]


def test_chunks_never_exceed_the_cap_and_an_explicit_size_wins():
    assert max(len(c["document_ids"]) for c in plan_chunks(_claimed(5000), slots=2)) == MAX_CHUNK_SIZE
    assert [len(c["document_ids"]) for c in plan_chunks(_claimed(7), 3)] == [3, 3, 1]


def test_nothing_claimed_means_no_chunks():
    assert plan_chunks([]) == []
