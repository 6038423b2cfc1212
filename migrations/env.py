"""Alembic environment: the URL comes from the caller (companion.db.migrate) or DATABASE_URL."""
import os

from alembic import context
from sqlalchemy import engine_from_config, pool

from companion import models  # noqa: F401  (registers the tables on the metadata)
from companion.db import normalize_url
from sqlmodel import SQLModel

config = context.config
target_metadata = SQLModel.metadata

url = config.get_main_option("sqlalchemy.url") or normalize_url(os.environ["DATABASE_URL"])


def run_migrations_offline():
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    section = config.get_section(config.config_ini_section, {})
    section["sqlalchemy.url"] = url
    connectable = engine_from_config(section, prefix="sqlalchemy.", poolclass=pool.NullPool)
    with connectable.connect() as connection:
        # render_as_batch: SQLite cannot ALTER most things; batch mode copies the table instead.
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True,
                          compare_type=True)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
