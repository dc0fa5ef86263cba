"""SQL statements of the review GeoPackage: values bound as parameters, names checked before they enter.

SQLite binds values (``?``) but not names: a table or column name is written into the statement.
Every statement of :mod:`.schema` and :mod:`.store` whose names are not spelled out goes through
:func:`sql`, which takes the names as arguments and refuses any that is not a plain SQL name
(letters, digits, ``_``; a column definition may add its type). Most come from the schema's
constants; the geometry column and extra fields come from the file, so a crafted GeoPackage is
refused instead of rewriting the statement.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import InputError

_ITEM = r"[A-Za-z_][A-Za-z0-9_]*(?: (?:INTEGER|REAL|TEXT|BLOB)(?: PRIMARY KEY)?)?"
_NAMES = re.compile(rf"{_ITEM}(?:, {_ITEM})*")


def sql_name_ok(name: str) -> bool:
    """True when ``name`` can enter a statement through :func:`sql` (names or column definitions)."""
    return _NAMES.fullmatch(name) is not None


def sql(template: str, marks: int = 0, /, **names: str | Sequence[str]) -> str:
    """``template`` with its ``{slot}`` names filled in, each checked.

    Args:
        template: the statement, ``{slot}`` where a name goes, ``?`` where a value is bound, and
            ``{marks}`` for a row of ``marks`` placeholders.
        marks: how many ``?`` fill ``{marks}``.
        names: slot -> a name, or a sequence of names (joined with ", "), or column definitions
            (``"item_id INTEGER PRIMARY KEY, note TEXT"``).

    Raises:
        InputError: a name that is not a plain SQL name.
    """
    filled = {}
    for slot, value in names.items():
        text = value if isinstance(value, str) else ", ".join(value)
        if not sql_name_ok(text):
            raise InputError.of("review_sql_name", name=text)
        filled[slot] = text
    return template.format(marks=", ".join("?" * marks), **filled)
