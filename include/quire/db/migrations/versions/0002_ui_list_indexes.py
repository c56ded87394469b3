"""indexes for the UI's documents list

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

The Documents list filters by state or type and pages newest first by
(received_at, id); each filter gets a (filter, received_at, id) index so a page
is an index range scan at any depth (keyset pagination). Name search is a
substring match served by a pg_trgm GIN index; hash-prefix search is a LIKE
prefix served by a text_pattern_ops index (whatever the database collation).
The source filter looks up document_sources by (source, document_id).
"""
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    op.create_index('ix_documents_state_received', 'documents', ['state', 'received_at', 'id'])
    op.create_index('ix_documents_type_received', 'documents', ['doc_type', 'received_at', 'id'])
    op.create_index('ix_documents_sha256_prefix', 'documents', ['sha256'],
                    postgresql_ops={'sha256': 'text_pattern_ops'})
    op.create_index('ix_documents_name_trgm', 'documents', ['original_name'], postgresql_using='gin',
                    postgresql_ops={'original_name': 'gin_trgm_ops'})
    op.create_index('ix_document_sources_source', 'document_sources', ['source', 'document_id'])


def downgrade() -> None:
    op.drop_index('ix_document_sources_source', table_name='document_sources')
    op.drop_index('ix_documents_name_trgm', table_name='documents')
    op.drop_index('ix_documents_sha256_prefix', table_name='documents')
    op.drop_index('ix_documents_type_received', table_name='documents')
    op.drop_index('ix_documents_state_received', table_name='documents')
    # the extension stays: other objects may use it, and dropping it needs more privilege than creating it
