"""The generator is defined bit for bit by this project (PCG32, XSH-RR)."""

from referee.rng import Pcg32


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
