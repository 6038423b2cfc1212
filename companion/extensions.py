"""Flask extensions, created once and bound to each app in create_app."""
from flask_babel import Babel
from flask_compress import Compress
from flask_htmx import HTMX
from flask_wtf import CSRFProtect

babel = Babel()
csrf = CSRFProtect()
htmx = HTMX()
compress = Compress()
