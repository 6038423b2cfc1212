"""presets belong to the table and phone that saved them, shared on purpose by a link

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23

Saved Apocalypse tracks were offered to every table on the server, so one table could fill the
list for everyone. A preset now records the table (`table_id`) and phone (`owner`) that saved it
and gets a share token (`share`); names are unique per table, not server-wide. Presets saved
before this have no table or phone: they stay in the database, offered to nobody.
"""
import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('preset') as batch:
        batch.drop_constraint('uq_preset_game_kind_name', type_='unique')
        batch.add_column(sa.Column('table_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('owner', sa.String(length=32), nullable=True))
        batch.add_column(sa.Column('share', sa.String(length=43), nullable=True))
        batch.create_foreign_key('fk_preset_table', 'game_table', ['table_id'], ['id'], ondelete='SET NULL')
        batch.create_unique_constraint('uq_preset_table_kind_name', ['table_id', 'kind', 'name'])
        batch.create_unique_constraint('uq_preset_share', ['share'])
        batch.create_index('ix_preset_table_id', ['table_id'])
        batch.create_index('ix_preset_owner', ['owner'])


def downgrade():
    with op.batch_alter_table('preset') as batch:
        batch.drop_index('ix_preset_owner')
        batch.drop_index('ix_preset_table_id')
        batch.drop_constraint('uq_preset_share', type_='unique')
        batch.drop_constraint('uq_preset_table_kind_name', type_='unique')
        batch.drop_constraint('fk_preset_table', type_='foreignkey')
        batch.drop_column('share')
        batch.drop_column('owner')
        batch.drop_column('table_id')
        batch.create_unique_constraint('uq_preset_game_kind_name', ['game', 'kind', 'name'])
