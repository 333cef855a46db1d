"""The generators are defined bit for bit by this project: PCG32 (XSH-RR), the seeded one,
and BLAKE2b keyed in counter mode, the secure one."""

import hashlib
from collections import Counter

import pytest

from referee import rng as generators
from referee.rng import Blake2bCounter, Pcg32


def test_pcg32_matches_the_reference_implementation():
    # pcg32-demo from the PCG reference C library: pcg32_srandom_r(&rng, 42u, 54u)
    rng = Pcg32.from_seed(42, 54)
    assert [rng.next_u32() for _ in range(6)] == [
        0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_state_round_trips_through_json_and_continues_the_sequence():
    rng = Pcg32.from_seed(7)
    rng.next_u32()
    copy = Pcg32.from_json(rng.to_json())
    assert [copy.next_u32() for _ in range(5)] == [rng.next_u32() for _ in range(5)]


def test_below_is_in_range_and_uses_every_value():
    rng = Pcg32.from_seed(1)
    seen = {rng.below(6) for _ in range(600)}
    assert seen == set(range(6))


def test_weighted_and_shuffle_are_deterministic():
    a, b = Pcg32.from_seed(3), Pcg32.from_seed(3)
    assert [a.weighted([1, 0, 5]) for _ in range(50)] == [b.weighted([1, 0, 5]) for _ in range(50)]
    assert 1 not in {Pcg32.from_seed(s).weighted([1, 0, 5]) for s in range(100)}
    x, y = list(range(20)), list(range(20))
    Pcg32.from_seed(9).shuffle(x)
    Pcg32.from_seed(9).shuffle(y)
    assert x == y and sorted(x) == list(range(20)) and x != list(range(20))


# ------------------------------------------------------------ the secure generator
def test_blake2b_counter_words_are_keyed_blake2b_of_the_counter():
    key = bytes(range(32))
    rng = Blake2bCounter(key, 5)
    expected = [int.from_bytes(hashlib.blake2b(i.to_bytes(16, "little"), digest_size=8,
                                               key=key).digest(), "little")
                for i in range(5, 9)]
    assert [rng.next_word() for _ in range(4)] == expected
    assert rng.counter == 9


def test_blake2b_counter_round_trips_and_continues_the_sequence():
    rng = Blake2bCounter.fresh()
    rng.below(10)
    copy = generators.parse(rng.to_json())
    assert isinstance(copy, Blake2bCounter)
    assert [copy.next_word() for _ in range(5)] == [rng.next_word() for _ in range(5)]


def test_fresh_keys_are_256_bits_and_differ():
    keys = {Blake2bCounter.fresh().to_json()["key"] for _ in range(20)}
    assert len(keys) == 20 and all(len(k) == 64 for k in keys)


class Cycling(generators._Draws):
    """A fake word source (3-bit words 0…7 in turn): only to count what below keeps."""

    WORD_BITS = 3

    def __init__(self):
        self.word = -1

    def next_word(self):
        self.word = (self.word + 1) % 8
        return self.word


@pytest.mark.parametrize("n", [3, 5, 6, 7])
def test_below_rejects_the_biased_words_so_each_outcome_is_equally_often_drawn(n):
    """Over every word once, the words kept map onto [0, n) exactly evenly: no bias."""
    counts = Counter()
    fake = Cycling()
    while fake.word < 7:
        counts[fake.below(n)] += 1
    assert sorted(counts) == list(range(n)) and len(set(counts.values())) == 1


def test_below_refuses_a_bound_out_of_range():
    for rng, bound in ((Pcg32.from_seed(1), 1 << 32), (Blake2bCounter(bytes(32)), 1 << 64),
                       (Pcg32.from_seed(1), 0)):
        with pytest.raises(ValueError):
            rng.below(bound)
    assert 0 <= Blake2bCounter(bytes(32)).below((1 << 64) - 1) < (1 << 64) - 1


@pytest.mark.parametrize("forged", [
    None, [], {}, {"state": "0" * 16}, {"state": "0" * 16, "inc": "0" * 16},  # even inc
    {"state": "0" * 15, "inc": "1" * 16}, {"state": "+" + "0" * 15, "inc": "1" * 16},
    {"state": "0" * 16, "inc": "1" * 16, "key": "0" * 64},
    {"key": "0" * 63, "counter": "0" * 16}, {"key": "0" * 64, "counter": 0},
    {"key": "A" * 64, "counter": "0" * 16}, {"key": "0" * 64, "counter": "0" * 17},
    {"key": "0" * 64}, {"key": "g" * 64, "counter": "0" * 16},
])
def test_parse_refuses_every_state_the_referee_never_writes(forged):
    with pytest.raises(ValueError):
        generators.parse(forged)


def test_seeded_means_the_pcg32_generator():
    assert generators.is_seeded(Pcg32.from_seed(1).to_json())
    assert not generators.is_seeded(Blake2bCounter.fresh().to_json())
    assert not generators.is_seeded(None)
