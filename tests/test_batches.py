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
