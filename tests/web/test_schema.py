"""The migrations build exactly the schema the models describe, on each database."""
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from companion import models  # noqa: F401

pytestmark = pytest.mark.both_databases  # the migrations on each database


def test_migrations_match_the_models(app):
    engine = app.extensions["companion.engine"]
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(ctx, SQLModel.metadata) == []
