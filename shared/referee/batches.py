"""Work a request hands over, done in batches by a thread of the process.

On this kind of machine, code that runs between a request's other work runs cold: in a
request, formatting a log line cost several times what it costs in a batch, and a move's
metric writes (a dozen, each a few µs in a tight loop) cost the servers 2-3 % of their CPU
per move, against under 1 % when done in a row. So the request path only appends what is
to be done (``add``, a deque append), and a thread of the process does what waits, in a
row, at most ``interval`` seconds later. ``flush`` does it at once.

The thread sleeps while there is nothing to do: an idle server is not woken ten times a
second for nothing.

Nothing is lost to a fork or an exit: waiting work is done before a fork (the child
starts empty) and at exit. Under gevent the thread is a greenlet (both are patched).

Safe under gevent (issue 28): gunicorn's gevent worker patches ``threading`` after its fork,
so a lock made at import or at the fork is a real one, and a real lock held by one greenlet
while it switches (``Thread.start`` waits for the new greenlet) blocks every other greenlet
that asks for it — the whole worker, until gunicorn kills it (WORKER TIMEOUT). So a batch's
lock and event are made at first use in the process (after the patching), and the one lock
made earlier (``_MAKING``) is held only where nothing can switch: never across a start.
"""

import atexit
import collections
import os
import threading
import time
import weakref
from collections.abc import Callable


class Batches:
    """Items handed over by ``add``, given to ``do`` in a list, in order, from one thread
    at a time (each item once)."""

    interval = 0.1  # seconds an item may wait

    def __init__(self, do: Callable[[list], None], name: str):
        self.do, self.name = do, name
        self._reset()
        _EVERY.add(self)

    def _reset(self) -> None:
        self._waiting: collections.deque = collections.deque()
        # made by _made at first use: one batch at a time (items keep their order), and
        # the event add sets when the thread sleeps till there is work
        self._doing: threading.Lock | None = None
        self._work: threading.Event | None = None
        self._doer: int | None = None  # the thread doing a batch
        self._thread: threading.Thread | None = None
        self._idle = False

    def _made(self) -> tuple:
        """This process's lock and event, made at first use: after a gevent worker's
        patching, so they are greenlets' own (see the module's docstring)."""
        if self._doing is None:
            with _MAKING:  # nothing in here switches
                if self._doing is None:
                    self._work = threading.Event()
                    self._doing = threading.Lock()
        return self._doing, self._work

    def __len__(self) -> int:
        return len(self._waiting)

    def add(self, item) -> None:
        self._waiting.append(item)
        if self._idle:  # the thread waits for work: this is it
            self._idle = False
            self._work.set()
        elif self._thread is None:
            self._start()

    def flush(self) -> None:
        """Do every waiting item now, after any batch the thread is doing (asked from within
        ``do``: the rest waits for after)."""
        if self._doer == threading.get_ident() or (self._doing is None and not self._waiting):
            return  # nothing ever done here, or asked from the batch itself
        # even with nothing waiting the lock is taken: the thread may have just taken the
        # items and not yet written them, and a flush promises they are written on return
        doing, _ = self._made()
        with doing:
            items, waiting = [], self._waiting
            while waiting:
                items.append(waiting.popleft())
            if items:
                self._doer = threading.get_ident()
                try:
                    self.do(items)
                finally:
                    self._doer = None

    def _start(self) -> None:
        with _MAKING:  # claimed under the lock, started outside it: a start may switch
            if self._thread is not None:
                return
            self._thread = thread = threading.Thread(target=self._often, daemon=True,
                                                     name=self.name)
        thread.start()

    def _often(self) -> None:
        _, work = self._made()
        while True:
            time.sleep(self.interval)
            try:
                self.flush()
            except (OSError, ValueError):  # where the work goes is gone (a closed stream)
                return
            # Nothing came meanwhile: sleep till add brings some. (The order matters: an
            # item added after the flag is raised sets the event; one added before it is
            # seen here.)
            work.clear()
            self._idle = True
            if not self._waiting:
                work.wait()
            self._idle = False


_EVERY: "weakref.WeakSet[Batches]" = weakref.WeakSet()
_MAKING = threading.Lock()  # held only where nothing switches (see the docstring)


def flush_all() -> None:
    for batches in list(_EVERY):
        try:
            batches.flush()
        except (OSError, ValueError):
            pass


def _in_child() -> None:
    global _MAKING
    _MAKING = threading.Lock()  # another thread may have held it at the fork
    for batches in list(_EVERY):
        batches._reset()  # the parent's thread is not in the child, nor is its work


os.register_at_fork(before=flush_all, after_in_child=_in_child)
atexit.register(flush_all)
