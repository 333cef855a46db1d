"""referee.batches: work handed over by a request, done by a thread of the process."""

import threading
import time

from referee.batches import Batches


class Recorded(Batches):
    """Batches that note what they did and how often their thread looked for work."""

    interval = 0.01

    def __init__(self):
        self.done, self.looked = [], 0
        self.arrived = threading.Event()
        super().__init__(self._do, "test-batches")

    def _do(self, items):
        self.done.extend(items)
        self.arrived.set()

    def flush(self):
        if threading.current_thread() is self._thread:
            self.looked += 1
        super().flush()


def wait_for(batches, count):
    deadline = time.monotonic() + 10  # a bound on a busy machine, not a measurement
    while len(batches.done) < count and time.monotonic() < deadline:
        batches.arrived.wait(0.05)
        batches.arrived.clear()
    return batches.done


def test_the_thread_does_what_was_added_in_order_without_a_flush():
    batches = Recorded()
    for n in range(5):
        batches.add(n)
    assert wait_for(batches, 5) == [0, 1, 2, 3, 4]
    assert len(batches) == 0


def test_an_idle_thread_sleeps_till_work_comes():
    """Nothing to do, nothing done: the thread is not woken every interval (on a virtual
    machine each wake-up of an idle process costs CPU), and work added later is done."""
    batches = Recorded()
    batches.add("first")
    wait_for(batches, 1)
    looked = batches.looked
    time.sleep(50 * batches.interval)  # fifty intervals with nothing to do
    assert batches.looked - looked <= 1  # the one that found nothing, at most
    batches.add("later")
    assert wait_for(batches, 2) == ["first", "later"]


def test_work_added_from_many_threads_is_done_once_each():
    batches = Recorded()

    def add_some(start):
        for n in range(start, start + 200):
            batches.add(n)
            if n % 50 == 0:
                time.sleep(batches.interval)  # some arrive while the thread sleeps

    adders = [threading.Thread(target=add_some, args=(k * 1000,)) for k in range(4)]
    for adder in adders:
        adder.start()
    for adder in adders:
        adder.join()
    assert sorted(wait_for(batches, 800)) == sorted(
        n for k in range(4) for n in range(k * 1000, k * 1000 + 200))


def test_a_flush_asked_while_a_batch_is_done_waits_for_after_it():
    """A batch's work may ask for a flush (a warning logged while log records are made):
    the thread doing the batch is not blocked on itself, and what was added meanwhile is
    done by the next flush."""
    done = []

    def do(items):
        done.append(list(items))
        if items == ["first"]:
            batches.add("meanwhile")
            batches.flush()  # from within do: returns at once

    batches = Batches(do, "test-reentrant")
    batches.interval = 3600
    batches.add("first")
    batches.flush()
    assert done == [["first"]] and len(batches) == 1
    batches.flush()
    assert done == [["first"], ["meanwhile"]]


# Made at import, patched after: as in a gevent worker of gunicorn (the master imports the
# module, the worker patches after its fork). Two greenlets start two batches' threads at
# once; each thread's start switches greenlets.
UNDER_GEVENT = """
import os, sys
from referee.batches import Batches
done = []
first, second = Batches(done.extend, "first"), Batches(done.extend, "second")
if os.fork() == 0:
    from gevent import monkey
    monkey.patch_all()
    import gevent
    gevent.joinall([gevent.spawn(first.add, 1), gevent.spawn(second.add, 2)])
    gevent.sleep(first.interval * 5)
    first.flush(); second.flush()
    os._exit(0 if sorted(done) == [1, 2] else 3)
_, status = os.wait()
sys.exit(os.waitstatus_to_exitcode(status))
"""


def test_threads_start_under_gevent_patched_after_the_import_without_a_hang():
    """Issue 28: a lock made before gevent's patching, held across a thread's start (a
    greenlet switch), blocked the next greenlet and with it the whole worker."""
    import contextlib
    import os
    import signal
    import subprocess
    import sys
    process = subprocess.Popen([sys.executable, "-c", UNDER_GEVENT], start_new_session=True)
    try:
        assert process.wait(30) == 0
    except subprocess.TimeoutExpired:
        raise AssertionError("the patched process hung starting two batches' threads")
    finally:
        with contextlib.suppress(ProcessLookupError):  # the forked child too, if it hung
            os.killpg(process.pid, signal.SIGKILL)
