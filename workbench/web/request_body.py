"""The app's request class: a JSON body nested too deeply for Python's parser is a 400.

Python's ``json`` module reads nesting by recursion, so ``[[[[…]]]]`` a hundred thousand levels
deep (a few hundred kilobytes, well under the body cap) raises RecursionError, which Flask's
``get_json(silent=True)`` does not catch: every JSON route answered 500. Payloads the app
accepts nest at most ``MAX_PAYLOAD_DEPTH`` levels (checked again on what parses, api.py).
"""

from __future__ import annotations

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
            return super().get_json(force=force, silent=silent, cache=cache)
        except RecursionError:
            raise BadRequest(f"the request body nests too deeply: JSON may nest at most "
                             f"{MAX_PAYLOAD_DEPTH} levels") from None
