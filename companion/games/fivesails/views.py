"""7th Sea: City of Five Sails: the table's pages and actions."""
from flask import Blueprint

bp = Blueprint("fivesails", __name__)
