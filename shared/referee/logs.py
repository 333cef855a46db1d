"""Structured logs: one JSON object per line, through python-json-logger.

Every line has ``time`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``;
a line written while a request is served also has its ``request_id``, so a
warning deep in the gateway can be found next to the request that caused it.
The access line of each request (:mod:`referee.observability`) adds method,
route, game, status, duration and session id; it is handed over with :func:`later`,
and its record is made and its line written in a batch, off the request's path. Nothing
here ever writes a token, a state or a view: the access line is built from a fixed list
of fields.

Under gunicorn (``referee/gunicorn_conf.py``) the master calls :func:`configure`
before it forks, and gunicorn's own lines go through :class:`GunicornLogger`,
so every line a process writes is JSON. ``LOG_LEVEL`` turns them down
(``warning`` drops the access lines of answered requests).
"""

import json
import logging
import os
import re
import select
import sys
import time
import traceback
import weakref
from datetime import UTC, datetime

from flask import g, has_request_context
from gunicorn import glogging
from pythonjsonlogger.json import JsonEncoder, JsonFormatter

from .batches import Batches

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
          "error": logging.ERROR, "critical": logging.CRITICAL}


class JsonLines(JsonFormatter):
    """``{"time", "level", "logger", "message", …extra fields}`` on one line."""

    def __init__(self):
        super().__init__("{asctime}{levelname}{name}{message}", style="{",
                         rename_fields={"asctime": "time", "levelname": "level",
                                        "name": "logger"},
                         json_ensure_ascii=False)

    #: one encoder for every line (json.dumps would build one per call); python-json-logger's
    #: own for what JSON cannot say (datetimes, exceptions…)
    encoder = json.JSONEncoder(ensure_ascii=False, default=JsonEncoder().default)

    def jsonify_log_record(self, log_data) -> str:
        return self.encoder.encode(log_data)

    def formatTime(self, record, datefmt=None) -> str:  # logging's name for it
        return datetime.fromtimestamp(record.created, UTC).isoformat(
            timespec="milliseconds")

    def format(self, record) -> str:
        """An access line (``record.fields``, no traceback) is written straight from its
        fields: it is most of the lines, one per request, and the general path (looking
        for fields, exceptions and stack info) costs it a third of its time."""
        if "fields" not in record.__dict__ or record.exc_info or record.stack_info:
            return super().format(record)
        record.message, record.asctime = record.getMessage(), self.formatTime(record)
        line: dict = {}
        self.add_fields(line, record, {})
        return self.jsonify_log_record(line)

    def add_fields(self, log_data, record, message_dict) -> None:
        """An access line brings its fields ready (``record.fields``): they are taken as
        they are, not searched for among the record's attributes (one per request)."""
        fields = record.__dict__.get("fields")
        if fields is None:
            super().add_fields(log_data, record, message_dict)
            return
        log_data.update(time=record.asctime, level=record.levelname, logger=record.name,
                        message=record.message)
        log_data.update(fields)
        log_data.update(message_dict)  # a traceback, if one was logged


class RequestIdFilter(logging.Filter):
    """Adds the request id of the request being served (if any) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if "fields" in record.__dict__:  # an access line: it has its request id
            return True
        if not hasattr(record, "request_id") and has_request_context():
            request_id = g.get("request_id")
            if request_id:
                record.request_id = request_id
        return True


class LineHandler(logging.StreamHandler):
    """Each record as one line; on a file descriptor, lines are written in batches.

    A write is a system call, and on this kind of machine the calls after one run cold:
    a line written on its own cost a request about 35 µs, more than formatting it. So a
    record waits (:mod:`referee.batches`: at most ``interval`` seconds, then a thread of
    the process writes what waits), and lines leave together: as many whole lines per
    ``write`` as fit in ``PIPE_BUF``, which the kernel keeps whole on a pipe or an
    append-mode file, so lines of several processes never mix. Waiting records are
    formatted as they leave, in a row: in a request a line's formatting cost several times
    what it costs in a batch. A record's message is made when it is logged; its ``extra``
    values must not change afterwards. A warning or worse is written at once, with the
    lines waiting before it; so is everything at exit (``logging.shutdown`` flushes) and
    before a fork (the child starts empty). A stream with no file descriptor is written
    at once.
    """

    def __init__(self, stream=None):
        super().__init__(stream)
        self._lines = Batches(self._write, "log-lines")
        LINE_HANDLERS.add(self)

    def write_waiting(self) -> None:
        """Write the lines that wait, if any (to a stream closed meanwhile: none)."""
        if len(self._lines):
            try:
                self._lines.flush()
            except (OSError, ValueError):
                pass

    @property
    def interval(self) -> float:
        """Seconds a line may wait."""
        return self._lines.interval

    @interval.setter
    def interval(self, seconds: float) -> None:
        self._lines.interval = seconds

    def handle(self, record: logging.LogRecord) -> bool:
        if not self.filter(record):
            return False
        self.emit(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.stream.fileno()
        except (AttributeError, OSError, ValueError):  # not a file: write it as text
            with self.lock:
                super().emit(record)
            return
        try:
            # The message is made now, so that later changes to its arguments cannot show.
            record.msg, record.args = record.getMessage(), None
            at_once = record.levelno >= logging.WARNING
            if at_once:  # after the access lines logged before it (their records wait)
                RECORDS.flush()
            self._lines.add(record)
            if at_once:
                self.flush()
        except Exception:  # noqa: BLE001 (as logging's own handlers: never fail the caller)
            self.handleError(record)

    def flush(self) -> None:
        """Write every waiting line, whole lines up to PIPE_BUF per write, in order."""
        if not len(self._lines):
            return super().flush()
        self._lines.flush()

    def _write(self, records: list) -> None:
        fd, batch, size = self.stream.fileno(), [], 0
        for record in records:
            try:
                line = (self.format(record) + "\n").encode()
            except Exception:  # noqa: BLE001 (never fail the caller, nor the thread)
                self.handleError(record)
                continue
            if batch and size + len(line) > select.PIPE_BUF:
                os.write(fd, b"".join(batch))
                batch, size = [], 0
            batch.append(line)
            size += len(line)
        if batch:
            os.write(fd, b"".join(batch))


def later(logger: logging.Logger, level: int, fields: dict, msg: str, *args) -> None:
    """Log ``msg % args`` with ``fields`` (an access line); its record is made in a batch.

    Making a LogRecord in the request (``Logger.log``: the record, the logger's and the
    handler's filters) was the largest piece of operating's cost on a move that py-spy
    showed, about 1 % of the gateway's samples. So the request takes the time and hands
    the rest over (``referee.batches``): at most ``RECORDS.interval`` seconds later a
    thread of the process makes the records, in a row, and passes them to the handlers
    with the time they were logged; their lines are written then. The caller has checked
    the level (``isEnabledFor``); ``fields`` must not change afterwards. A warning or worse
    is logged at once.
    """
    if level >= logging.WARNING:
        logger.log(level, msg, *args, extra={"fields": fields})
    else:
        RECORDS.add((logger, level, msg, args, fields, time.time()))


def _make_records(waiting: list) -> None:
    for logger, level, msg, args, fields, logged in waiting:
        try:
            record = logger.makeRecord(logger.name, level, "(unknown file)", 0, msg, args,
                                       None, extra={"fields": fields})
            # when it was logged, not when its batch came
            record.relativeCreated -= (record.created - logged) * 1000
            record.created, record.msecs = logged, int(logged * 1000) % 1000 + 0.0
            logger.handle(record)
        except Exception:  # noqa: BLE001 (as logging's handlers: one line lost, not the rest)
            if logging.raiseExceptions:
                traceback.print_exc(file=sys.stderr)
    # The lines just made leave now, not a batch later: an access line is at most one
    # interval late, and the handlers' threads need not wake for them.
    for handler in list(LINE_HANDLERS):
        handler.write_waiting()


RECORDS = Batches(_make_records, "log-records")
LINE_HANDLERS: "weakref.WeakSet[LineHandler]" = weakref.WeakSet()


def json_handler(stream=None) -> logging.Handler:
    handler = LineHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines())
    handler.addFilter(RequestIdFilter())
    handler._referee_json = True  # configure() adds it once
    return handler


def configure(level: str = "info", stream=None) -> None:
    """The process's log lines become JSON on stderr (or ``stream``), at ``level`` and above.

    Idempotent; called once per server process before its workers fork.
    """
    root = logging.getLogger()
    if not any(getattr(h, "_referee_json", False) for h in root.handlers):
        root.addHandler(json_handler(stream))
    root.setLevel(LEVELS.get(str(level).lower(), logging.INFO))
    # No line names its thread, process or source line: a record need not look them up
    # (the "Optimization" of Python's logging HOWTO); a request's line costs a third less.
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    logging._srcfile = None


#: a secret that may travel in a query string (a stream ticket: ``?ticket=…``)
SECRET_PARAMETER = re.compile(r"((?:^|[?&])ticket=)[^&\s]*")


def redact_query(text: str) -> str:
    """``text`` (a request line, a query string) with every ticket's value hidden."""
    return SECRET_PARAMETER.sub(r"\1<redacted>", text) if "ticket=" in text else text


class GunicornLogger(glogging.Logger):
    """gunicorn's own lines ("Booting worker…", worker timeouts) as JSON too; its access
    lines (``ACCESS_LOG``) never show a stream ticket, nor any Authorization header."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ("r", "q"):
            if atoms.get(name):
                atoms[name] = redact_query(atoms[name])
        if "{authorization}i" in atoms:
            atoms["{authorization}i"] = "<redacted>"
        return atoms

    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(JsonLines())
