"""The referee's generators, defined here bit for bit.

Python's :mod:`random` may change its algorithms between versions; a session
stored today must replay identically tomorrow, so the project owns its
generators. Each one's whole state is kept in the game state as JSON (hex
strings: JSON numbers above 2**53 are not safe in every client):

* :class:`Blake2bCounter`, a cryptographically secure generator: BLAKE2b keyed
  with a 256-bit secret from :mod:`secrets`, in counter mode. A digital game
  created without a seed draws from it: nobody who lacks the key can predict a
  draw, however many outcomes they have seen.
* :class:`Pcg32`, the seeded generator: whoever knows the seed (or a few outputs)
  knows every draw. A game created with a client's ``seed`` (tests, replays,
  examples) draws from it, and its views say ``"seeded": true``; bots use it for
  their own playouts.
"""

import hashlib
import re
import secrets

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005
_HEX16 = re.compile(r"[0-9a-f]{16}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


class _Draws:
    """Unbiased draws from a generator's uniform words of ``WORD_BITS`` bits."""

    __slots__ = ()
    WORD_BITS = 32

    def next_word(self) -> int:
        raise NotImplementedError

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        span = 1 << self.WORD_BITS
        if not 0 < n < span:
            raise ValueError(f"bound out of range: {n}")
        threshold = (span - n) % n
        while True:
            r = self.next_word()
            if r >= threshold:
                return r % n

    def weighted(self, weights: list[int]) -> int:
        """The index of one outcome, drawn with integer weights."""
        r = self.below(sum(weights))
        for index, weight in enumerate(weights):
            if r < weight:
                return index
            r -= weight
        raise AssertionError("unreachable")

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Pcg32(_Draws):
    """PCG32 (XSH-RR): two 64-bit integers of state, predictable from its seed."""

    __slots__ = ("state", "inc")

    def __init__(self, state: int, inc: int):
        self.state = state & _MASK64
        self.inc = (inc | 1) & _MASK64

    @classmethod
    def from_seed(cls, seed: int, stream: int = 54) -> "Pcg32":
        """The reference seeding procedure of PCG (pcg32_srandom_r)."""
        rng = cls(0, (stream << 1) | 1)
        rng.next_u32()
        rng.state = (rng.state + (seed & _MASK64)) & _MASK64
        rng.next_u32()
        return rng

    @classmethod
    def from_json(cls, data: dict) -> "Pcg32":
        return cls(int(data["state"], 16), int(data["inc"], 16))

    def to_json(self) -> dict:
        return {"state": f"{self.state:016x}", "inc": f"{self.inc:016x}"}

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    next_word = next_u32


class Blake2bCounter(_Draws):
    """BLAKE2b keyed with a 256-bit secret, in counter mode: word ``i`` is the first 8
    bytes of ``BLAKE2b(key, i)``. A keyed BLAKE2b is a pseudorandom function, so the
    words cannot be told from random (nor the key recovered) by anyone without the key;
    the counter makes the state small and the stream replayable by the key's holder."""

    __slots__ = ("key", "counter")
    WORD_BITS = 64

    def __init__(self, key: bytes, counter: int = 0):
        if len(key) != 32:
            raise ValueError("the key is 32 bytes")
        self.key, self.counter = key, counter

    @classmethod
    def fresh(cls) -> "Blake2bCounter":
        """A generator with a new secret key from the operating system's CSPRNG."""
        return cls(secrets.token_bytes(32))

    @classmethod
    def from_json(cls, data: dict) -> "Blake2bCounter":
        return cls(bytes.fromhex(data["key"]), int(data["counter"], 16))

    def to_json(self) -> dict:
        return {"key": self.key.hex(), "counter": f"{self.counter:016x}"}

    def next_word(self) -> int:
        word = hashlib.blake2b(self.counter.to_bytes(16, "little"), digest_size=8,
                               key=self.key).digest()
        self.counter += 1
        return int.from_bytes(word, "little")


Generator = Pcg32 | Blake2bCounter


def load(data: dict) -> Generator:
    """The generator of a state the referee made itself (no checks: see :func:`parse`)."""
    return Pcg32.from_json(data) if "inc" in data else Blake2bCounter.from_json(data)


def parse(data) -> Generator:
    """The generator of a state from outside, refused (ValueError) unless it is exactly
    what :meth:`to_json` writes: lower-case hex of the right lengths, nothing else."""
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError("not a generator state")
    if set(data) == {"state", "inc"} and all(map(_HEX16.fullmatch, data.values())) and \
            int(data["inc"], 16) & 1:
        return Pcg32.from_json(data)
    if set(data) == {"key", "counter"} and _HEX64.fullmatch(data["key"]) and \
            _HEX16.fullmatch(data["counter"]):
        return Blake2bCounter.from_json(data)
    raise ValueError("not a generator state")


def is_seeded(data: dict | None) -> bool:
    """Whether a state's generator is the seeded one: its draws are known to whoever
    knows the seed (``None``, a tabletop game's, has no draws at all)."""
    return data is not None and "inc" in data
