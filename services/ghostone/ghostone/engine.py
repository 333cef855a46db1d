"""Ghostone: escape your pieces across a 4×4 board of plates, pushing rocks.

Rules: ``services/ghostone/RULES.md`` (rule ids G-…, referee decisions marked).
The state, beyond the envelope every game has::

    phase            "placement" | "play" | "over"
    placement_step   index into the placement order (G-2.2)
    rocks            {"a1": 1, …}  rocks on each of the 16 plates
    flipped          sorted plates that are flipped (G-1.2)
    pieces           [[plates of seat 1's unescaped pieces], [seat 2's], …]
    escapes          [{"seat", "plate", "points", "bonus"}] in order (G-5)
    ghost            the ghost's plate, or null before the 3rd escape (G-6)
    turn             the seat whose slot of the cycle it is (G-3)
    passes           consecutive passes since a piece last moved (G-7.2)
    end              null, or the rule that ended the game ("G-7.1"/"G-7.2")
"""

from itertools import combinations

from referee.engine import CHANCE, Engine
from referee.errors import InvalidInput, InvalidPlayers, InvalidState

FILES, RANKS = "abcd", "1234"
PLATES = [f + r for r in RANKS for f in FILES]
STEPS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
         "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
ORTHOGONAL = ("N", "E", "S", "W")
DIE = tuple(STEPS)  # the eight faces, uniform (G-1.5)
PLACEMENT_ORDER = {3: [1, 2, 3, 2, 3, 1, 3, 1, 2], 4: [1, 2, 3, 4, 4, 3, 2, 1]}
PIECES_PER_SEAT = {3: 3, 4: 2}
ESCAPE_BONUS = (3, 2, 1)
MAX_ROCKS = 16 + 3 * 9  # every plate's rock plus three per placement (G-2.4)
STATE_KEYS = {"game", "version", "players", "mode", "options", "to_move", "rng",
              "phase", "placement_step", "rocks", "flipped", "pieces", "escapes",
              "ghost", "turn", "passes", "end"}


def _xy(plate: str) -> tuple[int, int]:
    return FILES.index(plate[0]), RANKS.index(plate[1])


def _plate(x: int, y: int) -> str:
    return FILES[x] + RANKS[y]


def _step(plate: str, direction: str) -> str | None:
    x, y = _xy(plate)
    dx, dy = STEPS[direction]
    if 0 <= x + dx < 4 and 0 <= y + dy < 4:
        return _plate(x + dx, y + dy)
    return None


_STEP_TABLE = {(p, d): _step(p, d) for p in PLATES for d in STEPS}


def step(plate: str, direction: str) -> str | None:
    """The neighbouring plate, or None off the board (no wrap: pieces and rocks)."""
    return _STEP_TABLE[plate, direction]


def wrap_step(plate: str, direction: str) -> str:
    """The neighbouring plate on the torus the ghost walks (G-6.3)."""
    x, y = _xy(plate)
    dx, dy = STEPS[direction]
    return _plate((x + dx) % 4, (y + dy) % 4)


NEIGHBOURS = {p: sorted(q for d in STEPS if (q := step(p, d))) for p in PLATES}


class Ghostone(Engine):
    id = "ghostone"
    title = "Ghostone"
    min_players, max_players = 3, 4
    players_rule, end_rule, moves_rule = "G-1.3", "G-7.1", "G-9"
    rules_doc = "services/ghostone/RULES.md"
    move_types = {
        "place": "placement phase: a piece on an empty plate and 3 rocks on its neighbours",
        "move": "a piece one plate orthogonally, then a rock from its origin (rock: N/E/S/W or "
                "null); names the ghost's plate when it escapes the game's 3rd piece",
        "pass": "only when no piece of the seat can move",
        "roll": "chance: the ghost's die (dir: N, NE, E, SE, S, SW, W, NW)",
    }

    # ------------------------------------------------------------- setup
    def _setup(self, state, events):
        state.update(
            phase="placement", placement_step=0,
            rocks={p: 1 for p in PLATES}, flipped=[],
            pieces=[[] for _ in range(state["players"])], escapes=[],
            ghost=None, turn=None, passes=0, end=None,
        )
        state["to_move"] = [PLACEMENT_ORDER[state["players"]][0]]

    # ------------------------------------------------------------- moves
    def _legal(self, state, seat):
        if state["phase"] == "placement":
            return self._placements(state, seat)
        return self._piece_moves(state, seat) or [{"type": "pass", "seat": seat}]

    def _placements(self, state, seat):
        occupied = self._occupied(state)
        return [{"type": "place", "seat": seat, "plate": plate, "rocks": list(rocks)}
                for plate in PLATES if plate not in occupied
                for rocks in combinations(NEIGHBOURS[plate], 3)]

    def _piece_moves(self, state, seat):
        occupied, flipped, rocks = self._occupied(state), set(state["flipped"]), state["rocks"]
        third_escape = len(state["escapes"]) == 2
        moves = []
        for origin in state["pieces"][seat - 1]:
            for direction in ORTHOGONAL:
                dest = step(origin, direction)
                if dest is None or dest in flipped or dest in occupied:
                    continue
                escapes = rocks[dest] == 0
                ghosts = [None]
                if escapes and third_escape:
                    ghosts = [p for p in PLATES if p not in flipped and p != dest]
                for rock in self._rock_directions(state, origin, dest, escapes) or [None]:
                    for ghost in ghosts:
                        move = {"type": "move", "seat": seat, "from": origin, "to": dest,
                                "rock": rock}
                        if ghost:
                            move["ghost"] = ghost
                        moves.append(move)
        return moves

    def _rock_directions(self, state, origin, dest, escapes):
        """Where the origin's rock may go (G-4.2, G-4.4); empty when it cannot move."""
        if state["rocks"][origin] == 0:
            return []
        flipped = set(state["flipped"])
        if escapes:
            flipped.add(dest)
        return [d for d in ORTHOGONAL if (t := step(origin, d)) is None or t not in flipped]

    def _normalize(self, move):
        if move.get("type") == "place" and isinstance(move.get("rocks"), list) and all(
                isinstance(r, str) for r in move["rocks"]):
            move["rocks"] = sorted(move["rocks"])
        return move

    def _chance_outcomes(self, state):
        return [({"type": "roll", "seat": CHANCE, "dir": d}, 1) for d in DIE]

    # -------------------------------------------------------------- play
    def _play(self, state, move, events):
        kind = move["type"]
        if kind == "place":
            self._place(state, move, events)
        elif kind == "move":
            self._move(state, move, events)
        elif kind == "pass":
            state["passes"] += 1
            events.append({"type": "passed", "seat": move["seat"]})
            if state["passes"] >= len(self._seats_with_pieces(state)):
                self._end(state, "G-7.2", events)
            else:
                self._next_turn(state, move["seat"])
        else:
            self._roll(state, move["dir"], events)

    def _place(self, state, move, events):
        seat, plate = move["seat"], move["plate"]
        state["pieces"][seat - 1] = sorted(state["pieces"][seat - 1] + [plate])
        for neighbour in move["rocks"]:
            state["rocks"][neighbour] += 1
        events.append({"type": "piece_placed", "seat": seat, "plate": plate,
                       "rocks": move["rocks"]})
        state["placement_step"] += 1
        order = PLACEMENT_ORDER[state["players"]]
        if state["placement_step"] < len(order):
            state["to_move"] = [order[state["placement_step"]]]
        else:  # G-3.1: play starts with the last seat
            state["phase"] = "play"
            state["turn"] = state["to_move"] = None
            self._next_turn(state, state["players"] - 1)

    def _move(self, state, move, events):
        seat, origin, dest = move["seat"], move["from"], move["to"]
        rocks = state["rocks"]
        points = rocks[origin]  # G-5.2: counted before the rock moves
        pieces = state["pieces"][seat - 1]
        pieces.remove(origin)
        events.append({"type": "piece_moved", "seat": seat, "from": origin, "to": dest})
        if rocks[dest] == 0:  # G-5.1: the piece escapes and its plate flips at once (G-4.4)
            n = len(state["escapes"])
            bonus = ESCAPE_BONUS[n] if n < len(ESCAPE_BONUS) else 0
            state["escapes"].append({"seat": seat, "plate": dest, "points": points,
                                     "bonus": bonus})
            state["flipped"] = sorted(state["flipped"] + [dest])
            events.append({"type": "piece_escaped", "seat": seat, "plate": dest,
                           "points": points, "bonus": bonus})
        else:
            state["pieces"][seat - 1] = sorted(pieces + [dest])
        if move["rock"] is not None:
            target = step(origin, move["rock"])
            rocks[origin] -= 1
            if target is not None:
                rocks[target] += 1
            events.append({"type": "rock_pushed", "from": origin, "to": target,
                           "dir": move["rock"]})
        if "ghost" in move:
            state["ghost"] = move["ghost"]
            events.append({"type": "ghost_placed", "seat": seat, "plate": move["ghost"]})
        state["passes"] = 0
        if len(self._seats_with_pieces(state)) <= 1:
            self._end(state, "G-7.1", events)
        else:
            self._next_turn(state, seat)

    def _roll(self, state, direction, events):
        """G-6.2/G-6.3: the ghost walks the torus, jumping flipped plates."""
        start = plate = state["ghost"]
        while True:
            plate = wrap_step(plate, direction)
            if plate == start or plate not in state["flipped"]:
                break
        state["ghost"] = plate
        events.append({"type": "ghost_moved", "dir": direction, "from": start, "to": plate})
        if state["rocks"][start] > 0:
            state["rocks"][start] -= 1
            events.append({"type": "rock_removed", "plate": start})
        if state["pieces"][0]:
            state["to_move"] = [1]
        else:  # G-3.2: seat 1 is skipped, but its roll has happened
            self._next_turn(state, 1)

    def _next_turn(self, state, seat):
        """The next slot of the cycle after ``seat`` (G-3.1, G-3.2, G-6.2)."""
        n = state["players"]
        for _ in range(n):
            seat = seat % n + 1
            state["turn"] = seat
            if seat == 1 and state["ghost"] is not None:
                state["to_move"] = [CHANCE]
                return
            if state["pieces"][seat - 1]:
                state["to_move"] = [seat]
                return
        raise AssertionError("no seat can play")

    def _end(self, state, rule, events):
        state.update(phase="over", to_move=[], end=rule)
        events.append({"type": "game_over", "rule": rule})

    # ------------------------------------------------------------ helpers
    @staticmethod
    def _occupied(state):
        return {p for pieces in state["pieces"] for p in pieces}

    @staticmethod
    def _seats_with_pieces(state):
        return [s for s, pieces in enumerate(state["pieces"], start=1) if pieces]

    # ------------------------------------------------------------ refusals
    def _why_illegal(self, state, move):
        kind, seat = move.get("type"), move["seat"]
        if kind not in ("place", "move", "pass"):
            return "G-9", f"unknown move type {kind!r}; expected place, move or pass"
        if state["phase"] == "placement":
            return self._why_bad_placement(state, move) if kind == "place" else (
                "G-2.2", "the placement phase is on: place a piece")
        if kind == "place":
            return "G-2.2", "the placement phase is over"
        if kind == "pass":
            return "G-3.3", "passing is allowed only when no piece can move"
        return self._why_bad_move(state, move, seat)

    def _why_bad_placement(self, state, move):
        plate, rocks = move.get("plate"), move.get("rocks")
        if plate not in PLATES:
            return "G-1.1", f"no plate {plate!r}: plates are a1…d4"
        if plate in self._occupied(state):
            return "G-2.3", f"{plate} already holds a piece"
        if not isinstance(rocks, list) or len(rocks) != 3 or len(set(map(str, rocks))) != 3:
            return "G-2.3", "choose exactly 3 distinct neighbouring plates for rocks"
        wrong = [r for r in rocks if r not in NEIGHBOURS[plate]]
        if wrong:
            return "G-2.3", f"{wrong} are not neighbours of {plate}"
        return None

    def _why_bad_move(self, state, move, seat):
        origin, dest, rock = move.get("from"), move.get("to"), move.get("rock")
        if origin not in state["pieces"][seat - 1]:
            return "G-4.1", f"seat {seat} has no piece on {origin!r}"
        if dest not in PLATES or dest not in [step(origin, d) for d in ORTHOGONAL]:
            return "G-4.1", f"{dest!r} is not one plate N, E, S or W of {origin}"
        if dest in state["flipped"]:
            return "G-1.2", f"{dest} is flipped"
        if dest in self._occupied(state):
            return "G-4.1", f"{dest} holds a piece"
        escapes = state["rocks"][dest] == 0
        allowed = self._rock_directions(state, origin, dest, escapes)
        if rock is None and allowed:
            return "G-4.3", f"the rock move is mandatory: push a rock from {origin} ({allowed})"
        if rock is not None and not allowed:
            return "G-4.3", f"no rock can move from {origin}: rock must be null"
        if rock is not None and rock not in allowed:
            if rock not in ORTHOGONAL:
                return "G-4.2", f"rock direction {rock!r} is not N, E, S or W"
            if escapes and step(origin, rock) == dest:
                return "G-4.4", f"{dest} flips as the piece escapes: no rock can go there"
            return "G-4.2", f"the rock cannot go {rock} onto flipped {step(origin, rock)}"
        third_escape = escapes and len(state["escapes"]) == 2
        ghost = move.get("ghost")
        if third_escape and ghost is None:
            return "G-6.1", "this escape is the game's 3rd: name the ghost's plate"
        if not third_escape and "ghost" in move:
            return "G-6.1", "the ghost is placed only with the game's 3rd escape"
        if third_escape and (ghost not in PLATES or ghost in state["flipped"] or ghost == dest):
            return "G-6.1", f"the ghost goes on a face-up plate, not {ghost!r}"
        return None

    # --------------------------------------------------------------- score
    def _score(self, state):
        return self._totals(state["players"], state["escapes"])

    @staticmethod
    def _totals(players, escapes):
        scores = []
        for seat in range(1, players + 1):
            own = [e for e in escapes if e["seat"] == seat]
            points = sum(e["points"] for e in own)
            bonus = sum(e["bonus"] for e in own)
            scores.append({"seat": seat, "total": points + bonus, "breakdown": {
                "escapes": [{"plate": e.get("plate"), "points": e["points"],
                             "bonus": e["bonus"]} for e in own],
                "escape_points": points, "bonus": bonus}})
        return scores

    def _calculate(self, data):
        """The escapes a table recorded, in order: ``{players, escapes: [{seat, points}]}``."""
        players, escapes = data.get("players"), data.get("escapes")
        if type(players) is not int or players not in PIECES_PER_SEAT:
            raise InvalidPlayers("Ghostone takes 3 or 4 players", rule="G-1.3")
        if not isinstance(escapes, list) or len(escapes) > players * PIECES_PER_SEAT[players]:
            raise InvalidInput("escapes must list at most every piece once", rule="G-5")
        recorded = []
        for n, escape in enumerate(escapes):
            seat, points = escape.get("seat"), escape.get("points")
            if type(seat) is not int or not 1 <= seat <= players:
                raise InvalidInput(f"escapes[{n}].seat must be 1…{players}", rule="G-2.1")
            if type(points) is not int or not 0 <= points <= MAX_ROCKS:
                raise InvalidInput(f"escapes[{n}].points must be 0…{MAX_ROCKS} "
                                   "(the rocks on the origin)", rule="G-5.2")
            bonus = ESCAPE_BONUS[n] if n < len(ESCAPE_BONUS) else 0
            recorded.append({"seat": seat, "points": points, "bonus": bonus,
                             "plate": escape.get("plate")})
        for seat in range(1, players + 1):
            if sum(e["seat"] == seat for e in recorded) > PIECES_PER_SEAT[players]:
                raise InvalidInput(f"seat {seat} escaped more pieces than it owns", rule="G-1.3")
        return self._totals(players, recorded)

    # ------------------------------------------------------- forged states
    def _check_position(self, state):
        def bad(why):
            raise InvalidState(why)

        if set(state) != STATE_KEYS:
            bad(f"state keys must be exactly {sorted(STATE_KEYS)}")
        n = state["players"]
        order = PLACEMENT_ORDER[n]
        rocks, flipped, pieces = state["rocks"], state["flipped"], state["pieces"]
        if not isinstance(rocks, dict) or sorted(rocks) != sorted(PLATES) or not all(
                type(v) is int and v >= 0 for v in rocks.values()):
            bad("rocks must give a non-negative count for each of a1…d4")
        if not isinstance(flipped, list) or flipped != sorted(set(flipped)) or not set(
                flipped) <= set(PLATES) or any(rocks[p] for p in flipped):
            bad("flipped must be sorted distinct plates without rocks")
        if not isinstance(pieces, list) or len(pieces) != n or not all(
                isinstance(ps, list) and ps == sorted(ps) and set(ps) <= set(PLATES)
                for ps in pieces):
            bad("pieces must list each seat's plates, sorted")
        placed = [p for ps in pieces for p in ps]
        if len(placed) != len(set(placed)) or set(placed) & set(flipped):
            bad("two pieces share a plate, or a piece stands on a flipped plate")
        escapes = state["escapes"]
        if not isinstance(escapes, list) or len(escapes) != len(flipped):
            bad("every flipped plate is an escape and every escape flipped a plate")
        for i, e in enumerate(escapes):
            if not (isinstance(e, dict) and set(e) == {"seat", "plate", "points", "bonus"}
                    and type(e["seat"]) is int and 1 <= e["seat"] <= n
                    and e["plate"] in flipped and type(e["points"]) is int
                    and 0 <= e["points"] <= MAX_ROCKS
                    and e["bonus"] == (ESCAPE_BONUS[i] if i < 3 else 0)):
                bad(f"escapes[{i}] is not a possible escape")
        if len({e["plate"] for e in escapes}) != len(escapes):
            bad("two escapes on one plate")
        step_ = state["placement_step"]
        if type(step_) is not int or not 0 <= step_ <= len(order):
            bad("placement_step out of range")
        for seat in range(1, n + 1):
            owned = len(pieces[seat - 1]) + sum(e["seat"] == seat for e in escapes)
            if owned != order[:step_].count(seat):
                bad(f"seat {seat} has {owned} pieces; the placement order gives it "
                    f"{order[:step_].count(seat)}")
        if sum(rocks.values()) > 16 + 3 * step_:
            bad("more rocks than the setup puts on the board")
        ghost, turn, passes, phase = state["ghost"], state["turn"], state["passes"], state["phase"]
        if (ghost is None) != (len(escapes) < 3) or (ghost is not None and ghost not in PLATES):
            bad("the ghost is on a plate exactly from the 3rd escape on")
        if type(passes) is not int or passes < 0:
            bad("passes must be a non-negative integer")
        seats = self._seats_with_pieces(state)
        if phase == "placement":
            ok = (step_ < len(order) and not escapes and turn is None and passes == 0
                  and state["end"] is None and state["to_move"] == [order[step_]])
        elif phase == "play":
            ok = (step_ == len(order) and type(turn) is int and 1 <= turn <= n
                  and state["end"] is None and len(seats) > 1 and passes < len(seats)
                  and (state["to_move"] == [turn] and turn in seats
                       or state["to_move"] == [CHANCE] and turn == 1 and ghost is not None))
        elif phase == "over":
            ok = (step_ == len(order) and state["to_move"] == [] and (
                state["end"] == "G-7.1" and len(seats) <= 1
                or state["end"] == "G-7.2" and len(seats) > 1))
        else:
            ok = False
        if not ok:
            bad(f"phase {phase!r} does not agree with to_move/turn/end")
