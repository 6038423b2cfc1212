"""The City of Five Sails blueprint: its table actions, pages and tools hang on it (views.py imports
every module that does, so the routes are all there once the blueprint is)."""
from flask import Blueprint

bp = Blueprint("fivesails", __name__)
