"""Table links are the only key to a table, so they must be unguessable."""
import re
import secrets

TOKEN_BYTES = 18  # 144 random bits; more than the 128 asked for, and a whole number of base64 characters
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{24}$")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def looks_like_token(value: str) -> bool:
    return bool(TOKEN_RE.match(value or ""))


def token_from_link(text: str) -> str | None:
    """Find a table token in whatever a player pasted: a full link, a path, or the bare token."""
    text = (text or "").strip()
    for piece in reversed(re.split(r"[/?#\s]+", text)):
        if looks_like_token(piece):
            return piece
    return None
