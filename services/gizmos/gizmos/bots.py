"""Gizmos' bot hooks (see ``referee.bots``): worlds dealt from the cards a seat cannot see.

A seat sees every display, ring, built gizmo and Archive, the Energy Row, and
of the decks only their sizes; another seat's Research draw is hidden unless
the option shows it, and the cards going back to the bottom always are
(Z-12). A view keeps no memory of what a seat once saw, so a world is any
position with that view: each deck's cards are all unseen (drawn at random
from the cards of its level nobody can place, as the engine draws them), a
hidden Research draw is dealt from the same cards, and a digital world gets a
fresh generator (the cards turned up, the spheres drawn).
"""

from referee.bots import blank_world, fresh_generator

from .cards import LEVELS
from .table import unseen_pool

PLAYOUT_DEPTH = 40
EVAL_SCALE = 4.0


def sample_world(view: dict, seat: int, rnd) -> dict:
    state = blank_world(view)
    state["decks"] = {str(lv): {"unseen": deck["count"], "bottom": []}
                      for lv, deck in ((lv, view["decks"][str(lv)]) for lv in LEVELS)}
    research = view["research"]
    if research is not None and "count" in research:
        state["research"] = {"level": research["level"], "cards": []}
        pool = unseen_pool(state, research["level"])
        state["research"]["cards"] = rnd.sample(pool, research["count"])
    state["rng"] = fresh_generator(view, rnd)
    return state
