"""The pipeline's stages as plain functions: ``verb_document(document_id, ctx, attempt) -> Result``.

Each stage is idempotent and state-driven: it advances the document only from
the state it expects, and when the document is already past that point it
reads its stored results back instead of recomputing them. That is what makes
an Airflow retry, a cleared task instance and a re-claimed lease all resume at
the step that failed.
"""
