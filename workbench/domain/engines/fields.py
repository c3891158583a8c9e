"""Copying a state's fields to another object of its class, for the engines' ``clone``.

The engines keep their states' fields in ``__slots__`` (a slot reads faster than an instance
dict, and an instance dict of more than 30 names loses CPython's shared-keys layout), so a clone
cannot copy them with one ``__dict__.update``: ``field_copier`` writes that copy out instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def field_copier(names: Sequence[str]) -> Any:
    """A function ``copy(old, new)`` doing ``new.<name> = old.<name>`` for each of ``names``.

    Written out as one compiled function (as dataclasses writes its ``__init__``): a loop of
    getattr/setattr over dozens of slots costs several times the straight-line copy, and a clone
    is made for every look-ahead position. Tested against that loop (tests/domain/engines/test_fields.py).

    Raises ValueError when a name is not a Python identifier (the names become source code).
    """
    for name in names:
        if not name.isidentifier():
            raise ValueError(f"not a field name: {name!r}")
    body = "\n".join(f"    new.{name} = old.{name}" for name in names) or "    pass"
    namespace: dict[str, Any] = {}
    exec(f"def copy_fields(old, new):\n{body}\n", namespace)  # noqa: S102 - names checked above
    return namespace["copy_fields"]
