"""PostgreSQL access: connection resolution, sessions, migrations and repositories."""
