"""Command line: `python -m companion migrate` (also `flask --app companion migrate`)."""
from __future__ import annotations

import os
import sys

import click

from .db import migrate


def _app():
    """The app these commands work on: Flask's (`flask --app companion ...`), or one made by the
    factory `python -m companion` passes in (the commands never import the package they serve)."""
    from flask import current_app

    if current_app:
        return current_app._get_current_object()
    obj = click.get_current_context().obj
    return obj.load_app() if hasattr(obj, "load_app") else obj()


@click.command("migrate")
@click.option("--release", is_flag=True,
              help="Fly release command: migrate a PostgreSQL DATABASE_URL; with SQLite the server migrates at start.")
def migrate_command(release: bool):
    """Bring the database schema to the newest migration."""
    url = os.environ.get("DATABASE_URL")
    if release and not url:
        click.echo("No DATABASE_URL: SQLite lives on the app's volume and is migrated when the server starts.")
        return
    if url is None:
        url = _app().config["DATABASE_URL"]
    problem = migrate(url)  # a read-only SQLite file is left as it is (db.migrate)
    if problem:
        click.echo(f"ERROR: {problem}", err=True)
    else:
        click.echo("database schema is up to date")


@click.command("retention")
@click.option("--dry-run", is_flag=True, help="Only list what would be archived and deleted.")
def retention_command(dry_run: bool):
    """Archive tables idle for RETENTION_ARCHIVE_DAYS; delete archived ones idle RETENTION_DELETE_DAYS more."""
    from .tables import retention
    from .db import get_session

    app = _app()
    with app.app_context():
        out = retention.apply(get_session(), archive_days=app.config["RETENTION_ARCHIVE_DAYS"],
                              delete_days=app.config["RETENTION_DELETE_DAYS"], dry_run=dry_run)
    verb = "would be" if dry_run else "were"
    click.echo(f"{len(out.archived)} idle tables {verb} archived, {len(out.deleted)} archived tables {verb} deleted")


def main(argv=None, *, factory):
    """`python -m companion ...`: `factory` makes the app when a command needs one."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["migrate"]:
        return migrate_command.main(args[1:], standalone_mode=True, obj=factory)
    if args[:1] == ["retention"]:
        return retention_command.main(args[1:], standalone_mode=True, obj=factory)
    click.echo("usage: python -m companion migrate [--release] | retention [--dry-run]")
    return 2
