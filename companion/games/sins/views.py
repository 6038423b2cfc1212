"""7 - The Sins: the table's pages and actions."""
from flask import Blueprint

bp = Blueprint("sins", __name__)
