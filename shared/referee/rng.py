"""The referee's seeded generator: PCG32 (XSH-RR), defined here bit for bit.

Python's :mod:`random` may change its algorithms between versions; a session
stored today must replay identically tomorrow, so the project owns its
generator. The whole state is two 64-bit integers, kept in the game state as
hex strings (JSON numbers above 2**53 are not safe in every client).
"""

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005


class Pcg32:
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

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        if not 0 < n <= 0xFFFFFFFF:
            raise ValueError(f"bound out of range: {n}")
        threshold = (0x100000000 - n) % n
        while True:
            r = self.next_u32()
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
