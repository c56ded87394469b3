"""Classification, field extraction, validation and packet splitting (pure functions).

Public entry points: :func:`classify_document`, :func:`extract_fields`, :func:`plan_split`.
"""
