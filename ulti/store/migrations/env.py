"""Alembic environment: migrations run on the connection handed over by ``ulti.store.migrate``."""

from __future__ import annotations

from alembic import context

from ulti.store.models import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - always called through ulti.store.migrate
    raise RuntimeError("run migrations through ulti.store.migrate.upgrade(engine)")

context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
