"""Quire: a document pipeline keyed by content hash.

This package is the domain: it never imports Airflow, so every stage can be
called and tested as a plain function.
"""

__version__ = "0.1.0"
