"""Pure building blocks shared by every game's rules: validation problems and message markers.

Nothing here imports Flask, so the rules modules that use it stay pure and testable on their own.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .digits import parse_int


def N_(message: str) -> str:
    """Mark a message for translation without translating it now.

    Rules modules have no request and no locale; they return message ids marked with this,
    and the web layer translates them when it shows them (babel extracts `N_` calls).
    """
    return message


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input: the field path it belongs to and a message id with its values."""

    field: str
    message: str
    params: dict = field(default_factory=dict)

    def text(self, translate=None) -> str:
        msg = translate(self.message) if translate else self.message
        return msg % self.params if self.params else msg


class Invalid(ValueError):
    """Input the rules cannot accept. Carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(f"{p.field}: {p.text()}" for p in self.problems))

    def as_dict(self, translate=None) -> dict[str, list[str]]:
        """The API's `{"errors": {...}}` shape: field path to its messages."""
        out: dict[str, list[str]] = {}
        for p in self.problems:
            out.setdefault(p.field, []).append(p.text(translate))
        return out


class Problems:
    """Collects problems while checking an input, then raises them all at once."""

    def __init__(self):
        self.items: list[Problem] = []

    def add(self, field: str, message: str, **params) -> None:
        self.items.append(Problem(field, message, params))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise Invalid(self.items)


def count(value, path: str, problems: Problems, *, maximum: int = 999, minimum: int = 0) -> int:
    """Read a whole-number count from untrusted input (JSON or a form), recording a problem if it isn't one."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        elif isinstance(value, str) and parse_int(value, signed=True) is not None:
            value = parse_int(value, signed=True)
        else:
            problems.add(path, N_("Enter a whole number."))
            return minimum
    if value < minimum:
        problems.add(path, N_("Must be at least %(min)d."), min=minimum)
        return minimum
    if value > maximum:
        problems.add(path, N_("Must be at most %(max)d."), max=maximum)
        return maximum
    return value
