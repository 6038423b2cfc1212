"""actions as patches: undo_patch, reverts_to and submission replace the whole document copy and keys;
tables remember the submission that created them

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

Each action used to keep the whole document as it was before (`before`) and a hand-declared
scope (`keys`). It now keeps the JSON Patch that takes the document after it back to the one
before (`undo_patch`); the paths of that patch are what the action wrote. Existing logs are
converted table by table: the document after action k is the `before` of action k+1, or the
table's current document for the newest action, so every table keeps its history and its Undo.
"""
import jsonpatch
import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

DOC_FIELDS = ("name", "status", "state", "result")


def _convert(conn, actions, tables):
    """Fill undo_patch (and reverts_to for undos) from the old whole-document copies."""
    table_ids = [r[0] for r in conn.execute(sa.select(actions.c.table_id).distinct())]
    for table_id in table_ids:
        current = conn.execute(sa.select(*[tables.c[f] for f in DOC_FIELDS]).where(tables.c.id == table_id)).one()
        after = {f: current[i] for i, f in enumerate(DOC_FIELDS)}
        rows = conn.execute(sa.select(actions.c.id, actions.c.version, actions.c.before, actions.c.undoes)
                            .where(actions.c.table_id == table_id).order_by(actions.c.version.desc())).all()
        versions = {r.id: r.version for r in rows}
        for row in rows:  # newest first: each action's "after" is the next one's "before"
            before = row.before
            values = {"undo_patch": jsonpatch.make_patch(after, before).patch}
            if row.undoes is not None and row.undoes in versions:
                values["reverts_to"] = versions[row.undoes] - 1
            conn.execute(actions.update().where(actions.c.id == row.id).values(**values))
            after = before


def upgrade():
    with op.batch_alter_table('game_table') as batch:
        batch.add_column(sa.Column('submission', sa.String(length=18), nullable=True))
        batch.create_unique_constraint('uq_game_table_submission', ['submission'])
    with op.batch_alter_table('table_action') as batch:
        batch.add_column(sa.Column('undo_patch', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('reverts_to', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('submission', sa.String(length=18), nullable=True))
    meta = sa.MetaData()
    actions = sa.Table('table_action', meta, autoload_with=op.get_bind())
    tables = sa.Table('game_table', meta, autoload_with=op.get_bind())
    _convert(op.get_bind(), actions, tables)
    with op.batch_alter_table('table_action') as batch:
        batch.alter_column('undo_patch', existing_type=sa.JSON(), nullable=False)
        batch.drop_column('before')
        batch.drop_column('keys')
        batch.create_index('uq_action_table_submission', ['table_id', 'submission'], unique=True)


def downgrade():
    raise NotImplementedError("the whole-document copies can't be rebuilt without replaying every patch; "
                              "restore a backup to go back to 0001")
