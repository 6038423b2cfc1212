"""plays, groups and player merges (issue 19)

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23

A play is derived from a finished table (one per table); a group is a link like a table's.
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('play_group',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=43), nullable=False),
    sa.Column('view_token', sa.String(length=43), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token'),
    sa.UniqueConstraint('view_token')
    )
    op.create_table('group_table',
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['group_id'], ['play_group.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id')
    )
    op.create_index('ix_group_table_group_id', 'group_table', ['group_id'])
    op.create_table('play',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=True),
    sa.Column('game', sa.String(length=16), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('table_version', sa.Integer(), nullable=False),
    sa.Column('rematch_table_id', sa.Integer(), nullable=True),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['group_id'], ['play_group.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['rematch_table_id'], ['game_table.id'], ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id')
    )
    op.create_index('ix_play_group_id', 'play', ['group_id'])
    op.create_index('ix_play_finished_at', 'play', ['finished_at'])
    op.create_table('player_merge',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('alias', sa.String(length=60), nullable=False),
    sa.Column('into', sa.String(length=60), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['play_group.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('group_id', 'alias', name='uq_merge_group_alias')
    )


def downgrade():
    op.drop_table('player_merge')
    op.drop_index('ix_play_finished_at', table_name='play')
    op.drop_index('ix_play_group_id', table_name='play')
    op.drop_table('play')
    op.drop_index('ix_group_table_group_id', table_name='group_table')
    op.drop_table('group_table')
    op.drop_table('play_group')
