import sys

from . import create_app
from .cli import main

sys.exit(main(factory=create_app))
