"""The Others: 7 Sins: the table's pages and actions."""
from flask import Blueprint

bp = Blueprint("others", __name__)
