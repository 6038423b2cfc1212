"""QR codes of table links, as inline SVG made on the server (segno)."""
from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup


@lru_cache(maxsize=512)
def svg(link: str, title: str) -> Markup:
    """An SVG QR code for `link`; cached because a table's link never changes."""
    code = segno.make(link, error="m")
    # Dark modules on a white quiet zone in both themes: scanners need the contrast.
    markup = code.svg_inline(scale=4, border=4, dark="#000", light="#fff", title=title,
                             svgclass="qr", lineclass=None, omitsize=True)
    return Markup(markup.replace("<svg ", '<svg role="img" ', 1))
