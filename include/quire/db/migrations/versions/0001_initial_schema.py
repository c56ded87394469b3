"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-12-02

The whole pipeline's tables, plus a trigger that keeps split manifests immutable.
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('documents',
    sa.Column('id', sa.UUID(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=True),
    sa.Column('parent_id', sa.UUID(), nullable=True),
    sa.Column('split_index', sa.Integer(), nullable=True),
    sa.Column('page_first', sa.Integer(), nullable=True),
    sa.Column('page_last', sa.Integer(), nullable=True),
    sa.Column('size_bytes', sa.BigInteger(), nullable=False),
    sa.Column('media_type', sa.String(length=64), nullable=False),
    sa.Column('page_count', sa.Integer(), nullable=True),
    sa.Column('blob_uri', sa.Text(), nullable=False),
    sa.Column('original_name', sa.Text(), nullable=False),
    sa.Column('state', sa.String(length=20), nullable=False),
    sa.Column('state_reason', sa.Text(), nullable=True),
    sa.Column('current_stage', sa.String(length=20), nullable=True),
    sa.Column('resume_state', sa.String(length=20), nullable=True),
    sa.Column('doc_type', sa.String(length=32), nullable=True),
    sa.Column('attempts', sa.Integer(), server_default='0', nullable=False),
    sa.Column('total_attempts', sa.Integer(), server_default='0', nullable=False),
    sa.Column('max_attempts', sa.Integer(), server_default='3', nullable=False),
    sa.Column('lease_owner', sa.Text(), nullable=True),
    sa.Column('lease_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('request_id', sa.String(length=64), nullable=True),
    sa.Column('received_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint("state IN ('PENDING', 'IN_PROGRESS', 'PARSED', 'SPLIT', 'CLASSIFIED', 'EXTRACTED', 'REVIEW_REQUIRED', 'PUBLISHED', 'COMPLETE', 'FAILED', 'BLOCKED', 'QUARANTINED')", name='ck_documents_state'),
    sa.CheckConstraint('(parent_id IS NULL) = (sha256 IS NOT NULL)', name='ck_documents_root_or_child'),
    sa.CheckConstraint('page_first IS NULL OR page_last >= page_first', name='ck_documents_page_range'),
    sa.ForeignKeyConstraint(['parent_id'], ['documents.id'], ondelete='RESTRICT'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('parent_id', 'split_index', name='uq_documents_parent_split'),
    sa.UniqueConstraint('sha256')
    )
    op.create_index('ix_documents_lease', 'documents', ['lease_expires_at'], unique=False, postgresql_where=sa.text('lease_owner IS NOT NULL'))
    op.create_index('ix_documents_parent', 'documents', ['parent_id'], unique=False)
    op.create_index('ix_documents_pending', 'documents', ['received_at'], unique=False, postgresql_where=sa.text("state = 'PENDING'"))
    op.create_index('ix_documents_received', 'documents', ['received_at', 'id'], unique=False)
    op.create_index('ix_documents_state_updated', 'documents', ['state', 'updated_at'], unique=False)
    op.create_table('published_documents',
    sa.Column('idempotency_key', sa.Text(), nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('payload', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('first_delivered_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('last_delivered_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('delivery_count', sa.Integer(), server_default='1', nullable=False),
    sa.PrimaryKeyConstraint('idempotency_key')
    )
    op.create_index(op.f('ix_published_documents_document_id'), 'published_documents', ['document_id'], unique=False)
    op.create_table('audit_events',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=True),
    sa.Column('actor', sa.Text(), nullable=False),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('detail', postgresql.JSONB(astext_type=sa.Text()), server_default=sa.text("'{}'::jsonb"), nullable=False),
    sa.Column('request_id', sa.String(length=128), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('request_id', name='uq_audit_events_request')
    )
    op.create_index('ix_audit_events_document', 'audit_events', ['document_id', 'created_at'], unique=False)
    op.create_table('document_secrets',
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('password', sa.Text(), nullable=False),
    sa.Column('supplied_by', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('document_id')
    )
    op.create_table('document_sources',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('original_name', sa.Text(), nullable=False),
    sa.Column('source', sa.String(length=64), nullable=False),
    sa.Column('source_ref', sa.Text(), nullable=True),
    sa.Column('disposition', sa.String(length=16), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_document_sources_document', 'document_sources', ['document_id', 'received_at'], unique=False)
    op.create_index('ix_document_sources_name', 'document_sources', ['original_name'], unique=False)
    op.create_table('outbox_events',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('idempotency_key', sa.Text(), nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('stage', sa.String(length=20), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('event_type', sa.String(length=64), nullable=False),
    sa.Column('payload', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('status', sa.String(length=16), server_default='PENDING', nullable=False),
    sa.Column('attempts', sa.Integer(), server_default='0', nullable=False),
    sa.Column('claimed_by', sa.Text(), nullable=True),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('published_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint("status IN ('PENDING', 'PUBLISHING', 'PUBLISHED', 'DEAD')", name='ck_outbox_status'),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('idempotency_key')
    )
    op.create_index('ix_outbox_document', 'outbox_events', ['document_id'], unique=False)
    op.create_index('ix_outbox_pending', 'outbox_events', ['created_at'], unique=False, postgresql_where=sa.text("status IN ('PENDING', 'PUBLISHING')"))
    op.create_table('page_results',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('stage', sa.String(length=20), nullable=False),
    sa.Column('page_number', sa.Integer(), nullable=False),
    sa.Column('method', sa.String(length=16), nullable=False),
    sa.Column('engine', sa.String(length=100), nullable=False),
    sa.Column('width', sa.Float(), nullable=False),
    sa.Column('height', sa.Float(), nullable=False),
    sa.Column('rotation', sa.Integer(), server_default='0', nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('words', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('confidence', sa.Float(), nullable=False),
    sa.Column('checksum', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('document_id', 'stage', 'page_number', name='uq_page_results_page')
    )
    op.create_table('pipeline_runs',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('dag_id', sa.String(length=250), nullable=False),
    sa.Column('run_id', sa.String(length=250), nullable=False),
    sa.Column('task_id', sa.String(length=250), nullable=False),
    sa.Column('map_index', sa.Integer(), server_default='-1', nullable=False),
    sa.Column('try_number', sa.Integer(), nullable=False),
    sa.Column('stage', sa.String(length=20), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('outcome', sa.String(length=16), server_default='running', nullable=False),
    sa.Column('error_class', sa.String(length=200), nullable=True),
    sa.Column('error_message', sa.Text(), nullable=True),
    sa.Column('traceback_excerpt', sa.Text(), nullable=True),
    sa.Column('detail', postgresql.JSONB(astext_type=sa.Text()), nullable=True),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('document_id', 'dag_id', 'run_id', 'task_id', 'map_index', 'try_number', name='uq_pipeline_runs_attempt')
    )
    op.create_index('ix_pipeline_runs_document', 'pipeline_runs', ['document_id', 'started_at'], unique=False)
    op.create_index('ix_pipeline_runs_outcome_started', 'pipeline_runs', ['outcome', 'started_at'], unique=False)
    op.create_table('split_manifests',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('rule_version', sa.String(length=64), nullable=False),
    sa.Column('parts', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('manifest_sha256', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('document_id')
    )
    op.create_table('classifications',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('pipeline_run_id', sa.BigInteger(), nullable=True),
    sa.Column('doc_type', sa.String(length=32), nullable=False),
    sa.Column('confidence', sa.Float(), nullable=False),
    sa.Column('classifier_version', sa.String(length=64), nullable=False),
    sa.Column('decision_sha256', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['pipeline_run_id'], ['pipeline_runs.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('document_id', 'decision_sha256', name='uq_classifications_decision')
    )
    op.create_index('ix_classifications_document', 'classifications', ['document_id', 'created_at'], unique=False)
    op.create_table('extractions',
    sa.Column('id', sa.BigInteger(), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.UUID(), nullable=False),
    sa.Column('pipeline_run_id', sa.BigInteger(), nullable=True),
    sa.Column('classification_id', sa.BigInteger(), nullable=True),
    sa.Column('extractor_version', sa.String(length=64), nullable=False),
    sa.Column('template', sa.String(length=200), nullable=True),
    sa.Column('fields', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('line_items', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('validation', postgresql.JSONB(astext_type=sa.Text()), nullable=False),
    sa.Column('routing', sa.String(length=16), nullable=False),
    sa.Column('origin', sa.String(length=16), server_default='machine', nullable=False),
    sa.Column('decided_by', sa.Text(), nullable=True),
    sa.Column('decision_sha256', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), server_default=sa.text('now()'), nullable=False),
    sa.CheckConstraint("routing IN ('auto', 'review', 'blocked')", name='ck_extractions_routing'),
    sa.ForeignKeyConstraint(['classification_id'], ['classifications.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['document_id'], ['documents.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['pipeline_run_id'], ['pipeline_runs.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('document_id', 'decision_sha256', name='uq_extractions_decision')
    )
    op.create_index('ix_extractions_document', 'extractions', ['document_id', 'created_at'], unique=False)

    # A manifest is the contract children were cut by: once written it may never change.
    op.execute("""
        CREATE FUNCTION quire_reject_manifest_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'split manifests are immutable (document %)', OLD.document_id
                USING ERRCODE = 'integrity_constraint_violation';
        END $$;
    """)
    op.execute("""
        CREATE TRIGGER split_manifests_immutable BEFORE UPDATE OR DELETE ON split_manifests
        FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION quire_reject_manifest_change();
    """)

def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS split_manifests_immutable ON split_manifests")
    op.execute("DROP FUNCTION IF EXISTS quire_reject_manifest_change()")
    op.drop_index('ix_extractions_document', table_name='extractions')
    op.drop_table('extractions')
    op.drop_index('ix_classifications_document', table_name='classifications')
    op.drop_table('classifications')
    op.drop_table('split_manifests')
    op.drop_index('ix_pipeline_runs_outcome_started', table_name='pipeline_runs')
    op.drop_index('ix_pipeline_runs_document', table_name='pipeline_runs')
    op.drop_table('pipeline_runs')
    op.drop_table('page_results')
    op.drop_index('ix_outbox_pending', table_name='outbox_events', postgresql_where=sa.text("status IN ('PENDING', 'PUBLISHING')"))
    op.drop_index('ix_outbox_document', table_name='outbox_events')
    op.drop_table('outbox_events')
    op.drop_index('ix_document_sources_name', table_name='document_sources')
    op.drop_index('ix_document_sources_document', table_name='document_sources')
    op.drop_table('document_sources')
    op.drop_table('document_secrets')
    op.drop_index('ix_audit_events_document', table_name='audit_events')
    op.drop_table('audit_events')
    op.drop_index(op.f('ix_published_documents_document_id'), table_name='published_documents')
    op.drop_table('published_documents')
    op.drop_index('ix_documents_state_updated', table_name='documents')
    op.drop_index('ix_documents_received', table_name='documents')
    op.drop_index('ix_documents_pending', table_name='documents', postgresql_where=sa.text("state = 'PENDING'"))
    op.drop_index('ix_documents_parent', table_name='documents')
    op.drop_index('ix_documents_lease', table_name='documents', postgresql_where=sa.text('lease_owner IS NOT NULL'))
    op.drop_table('documents')
