"""Command line: `python -m companion migrate` (also `flask --app companion migrate`)."""
from __future__ import annotations

import os
import sys

import click

from .db import migrate


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
        from . import create_app

        url = create_app().config["DATABASE_URL"]
    migrate(url)
    click.echo("database schema is up to date")


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["migrate"]:
        return migrate_command.main(args[1:], standalone_mode=True)
    click.echo("usage: python -m companion migrate [--release]")
    return 2
