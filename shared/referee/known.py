"""States a process already knows to be valid, by fingerprint: the checked path's cache.

A stateless client plays by sending back the state the referee answered it. Checking that
state whole again (the trust boundary, :meth:`Engine.check`) was most of what such a step
cost, though the referee had checked its parent and made it by a legal move. The engine
remembers the fingerprint — BLAKE2b of the state's exact bytes — of every state it checked
or made from a checked one, and a state arriving with a remembered fingerprint is that very
state: the check is skipped, never weakened. A state changed in any byte (a forged hand,
another key order) has another fingerprint and is checked whole as before.

The memory is bounded (least recently used first out) and belongs to one process: a state
answered by one worker and sent to another is simply checked again.
"""

import hashlib
import marshal
import threading
from collections import OrderedDict

#: states remembered per game and process (each 16 bytes and a dict slot)
SIZE = 8192


def serialize(state) -> bytes:
    """The state's exact bytes: marshal, dicts in their order, each type its own tag (``1``,
    ``1.0`` and ``true`` differ). Version 2, which never writes back-references: the bytes
    depend on the content alone, not on which equal strings happen to be one object (a
    state parsed from a client's JSON and the one the referee made must match). Raises
    ValueError for what marshal cannot hold."""
    return marshal.dumps(state, 2)


class KnownValid:
    """A bounded set of fingerprints of valid states; safe across threads."""

    def __init__(self, size: int = SIZE):
        self.size = size
        self._seen: OrderedDict[bytes, None] = OrderedDict()
        self._last_listing: tuple[bytes, dict[int, list]] | None = None
        self._lock = threading.Lock()

    @staticmethod
    def fingerprint(data: bytes) -> bytes:
        return hashlib.blake2b(data, digest_size=16).digest()

    def knows(self, print_: bytes) -> bool:
        with self._lock:
            if print_ in self._seen:
                self._seen.move_to_end(print_)
                return True
            return False

    def remember(self, print_: bytes) -> None:
        with self._lock:
            self._seen[print_] = None
            self._seen.move_to_end(print_)
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)

    def keep_listing(self, print_: bytes, listed: dict[int, list]) -> None:
        """Remember the moves just listed for the valid state ``print_``, per seat (one
        listing, the last: a client's next request plays one of them). The lists
        themselves, uncopied: a listing is the engine's, and whoever changes a move copies
        it first (the service adds texts to copies)."""
        self._last_listing = (print_, listed)  # one assignment: safe across threads

    def listing(self, print_: bytes, seat) -> list | tuple:
        """The seat's moves last listed for the valid state ``print_``, or nothing."""
        last = self._last_listing
        return last[1].get(seat, ()) if last is not None and last[0] == print_ else ()

    def __len__(self) -> int:
        return len(self._seen)
