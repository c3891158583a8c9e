"""Structured logs for the server: one JSON object per line (to stderr and optionally a file).

Every saved change is logged by ``workbench.storage.audit`` on the ``workbench.changes`` logger
with its details in ``extra={"change": …}``; this formatter writes those details as fields, so
a log shipper (or ``jq``) can follow who changed what without parsing sentences.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import sys
from pathlib import Path

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", …extra fields}`` as one JSON line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": _dt.datetime.fromtimestamp(record.created, _dt.timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure_logging(fmt: str = "json", log_file: str | Path | None = None, level: int = logging.INFO) -> None:
    """Send the workbench's and waitress's logs to stderr (and ``log_file``) as JSON or text lines."""
    formatter: logging.Formatter = JsonFormatter() if fmt == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file:
        Path(log_file).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        handler.setFormatter(formatter)
        root.addHandler(handler)
    root.setLevel(level)
