"""Sinful Gibbon: the table's pages and actions."""
from flask import Blueprint

bp = Blueprint("gibbon", __name__)
