"""The app's request class: a JSON body nested too deeply for Python's parser is a 400.

Python's ``json`` module reads nesting by recursion, so ``[[[[…]]]]`` a hundred thousand levels
deep (a few hundred kilobytes, well under the body cap) raises RecursionError, which Flask's
``get_json(silent=True)`` does not catch: every JSON route answered 500. Payloads the app
accepts nest at most ``MAX_PAYLOAD_DEPTH`` levels (checked again on what parses, api.py).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Request
from werkzeug.exceptions import BadRequest

MAX_PAYLOAD_DEPTH = 12


class WorkbenchRequest(Request):
    """Flask's request, with a too-deep JSON body refused as 400 (also with ``silent=True``)."""

    def get_json(self, force: bool = False, silent: bool = False, cache: bool = True) -> Any:
        """The parsed JSON body, as Flask's. Raises BadRequest when it nests too deeply to
        parse (the message names the limit), and as Flask's does otherwise."""
        try:
            value = super().get_json(force=force, silent=silent, cache=cache)
        except RecursionError:
            raise BadRequest(f"the request body nests too deeply: JSON may nest at most "
                             f"{MAX_PAYLOAD_DEPTH} levels") from None
        # A lone surrogate escape (\ud800) parses to a string no file can hold: refused here by
        # name, not later as "not valid YAML". Only bodies with such an escape are walked.
        if value is not None and _SURROGATE_ESCAPE.search(self.get_data(cache=True)) and _has_lone_surrogate(value):
            raise BadRequest("the request body holds a lone UTF-16 surrogate (a \\ud800-\\udfff escape "
                             "without its pair), which is not text")
        return value


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a parsed JSON value holds a string (or key) that is not encodable text."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
