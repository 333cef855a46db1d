"""Corrections: undo and redo at a physical table, take-back in a digital game.

Nothing is deleted: a correction is a new version whose state is an earlier
snapshot, and the entries it takes back stay in the log marked ``undone``
(a redo lifts the mark). Every correction is a compare-and-set like a move.

Tabletop (table token): undo to any earlier version of the current line of
play since the game started; redo reverses the latest undo not yet redone,
while no move has been entered since it.

Companion: the table token undoes and redoes as in tabletop; a seat token takes
back as in digital, and also its own last chance entry (a card it entered wrongly),
which only that seat has seen.

Digital (a seat token): take back the seat's own last move, only while

* no other seat has moved since, and it is the last change of the game
  (``takeback_not_last_move``);
* the game is not over (``takeback_game_over``): the result stands;
* no chance outcome was played after it — the referee plays chance itself, so
  a version that advanced by more than one means a die was rolled or a card or
  chip was drawn (``takeback_after_chance``);
* the move and its events read the same for every seat and the public, as the
  game service redacts them: otherwise they carry hidden information that
  someone has now seen (``takeback_hidden_information``).
"""

from marshmallow import fields, validate

from referee import schemas
from referee.engine import CHANCE
from referee.errors import (
    Forbidden, NothingToRedo, NothingToUndo, TakeBackAfterChance, TakeBackGameOver,
    TakeBackHiddenInformation, TakeBackNotLastMove, UndoTargetInvalid,
)

from .access import (
    IDEMPOTENCY_KEY, IF_MATCH, Change, entries_of, stamped, summary, view_seat, write,
)
from .logview import SERVICE_FIELDS, is_move, redact_entries


class UndoRequest(schemas.Base):
    to_version = fields.Integer(strict=True, validate=validate.Range(min=0), metadata={
        "description": "the version to go back to (default: before the last move)"})


class RedoRequest(schemas.Base):
    pass


class Corrected(schemas.SessionView):
    entry = fields.Dict(metadata={"description": "the correction's log entry: correction "
                                                 "(undo, redo, takeback), to_version, "
                                                 "versions (the entries it marks or unmarks)"})


def is_change(entry: dict) -> bool:
    """A move or a correction: what undo takes back (seat changes stay)."""
    return is_move(entry) or "correction" in entry


def line(entries: list[dict], origin: int) -> list[int]:
    """The versions of the current line of play since the game started, in order."""
    return [origin] + [e["version"] for e in entries
                       if e["version"] > origin and not e.get("undone")]


def before(versions: list[int], version: int) -> int:
    return max(v for v in versions if v < version)


def register(app, api):
    store = app.extensions["sessions"]
    upstream = app.extensions["upstream"]
    route = api.route

    def corrected(session, caller, state, entry, rewrite) -> Change:
        view = upstream.call(session.game, "/v1/view",
                             {"state": state, "seat": view_seat(caller)})["view"]
        entry = stamped(entry, caller)
        answer = dict(summary(session, caller, state, view), entry=entry)
        return Change(state, entry, answer, rewrite=rewrite)

    def restore(session, version: int) -> dict:
        state = store.snapshot(session.sid, version)
        if state is None:
            raise UndoTargetInvalid(f"version {version} was not kept (a session from before "
                                    f"corrections existed)")
        return dict(state, version=session.version + 1)

    def undo_precheck(session, caller):
        tabletop = session.meta["mode"] == "tabletop"
        if caller.role == "table" and session.meta["mode"] == "digital":
            raise Forbidden("in a digital session a seat takes back its own move; the table "
                            "token corrects only tabletop and companion sessions")
        if caller.role == "seat" and tabletop:
            raise Forbidden("in a tabletop session the table token undoes")
        if caller.role == "spectator":
            raise Forbidden("a spectator token cannot undo")

    @route(app, "/v1/sessions/<session_id:sid>/undo", "POST",
           summary="Undo (tabletop, table token) or take back a move (digital, its seat)",
           body=UndoRequest, answer=Corrected, errors=(400, 401, 403, 404, 409, 412, 503),
           security=True, tag="corrections", operation_id="undoSession",
           params=[IF_MATCH, IDEMPOTENCY_KEY], description=__doc__)
    def undo(sid, body):
        def plan(session, caller):
            entries = entries_of(store, session)
            origin = int(session.meta.get("origin", 0))
            if caller.role == "table":
                return undo_to(session, caller, entries, origin, body.get("to_version"))
            return take_back(session, caller, entries, origin, body.get("to_version"))

        return write(store, sid, plan, body=body, precheck=undo_precheck)

    def undo_to(session, caller, entries, origin, target):
        versions = line(entries, origin)
        live = [(i, e) for i, e in enumerate(entries)
                if e["version"] > origin and not e.get("undone") and is_change(e)]
        if target is None:
            moves = [e for _, e in live if is_move(e)]
            if not moves:
                raise NothingToUndo("no move has been entered since the game started")
            target = before(versions, moves[-1]["version"])
        if target not in versions or target >= session.version:
            raise UndoTargetInvalid(
                f"version {target} is not an earlier version of the game as it stands "
                f"(those are {', '.join(map(str, versions[:-1][-20:])) or 'none'})")
        taken = [(i, e) for i, e in live if e["version"] > target]
        if not taken:
            raise NothingToUndo(f"nothing but seat changes happened since version {target}")
        state = restore(session, target)
        entry = {"version": state["version"], "correction": "undo", "to_version": target,
                 "from_version": session.version, "versions": [e["version"] for _, e in taken]}
        return corrected(session, caller, state, entry,
                         [(i, dict(e, undone=True)) for i, e in taken])

    def take_back(session, caller, entries, origin, target):
        live = [(i, e) for i, e in enumerate(entries)
                if e["version"] > origin and not e.get("undone") and is_change(e)]
        if not live or not is_move(live[-1][1]) or live[-1][1].get("by") != caller.name:
            raise TakeBackNotLastMove("a seat takes back only its own move, and only while "
                                      "it is the last move of the game")
        index, last = live[-1]
        if not session.state["to_move"]:
            raise TakeBackGameOver("the game is over: its result stands")
        previous = before(line(entries, origin), last["version"])
        if last["version"] - previous > 1:
            raise TakeBackAfterChance("chance has been played since this move (a roll or a "
                                      "draw): taking it back would replay a known outcome")
        # companion: a seat's own private entry showed its card to that seat alone
        if not own_entry(session, last) and reveals(session, last):
            raise TakeBackHiddenInformation("this move carried hidden information that a "
                                            "seat has now seen")
        if target is not None and target != previous:
            raise UndoTargetInvalid(f"a take-back goes back to version {previous}, before "
                                    f"the seat's last move")
        state = restore(session, previous)
        entry = {"version": state["version"], "correction": "takeback",
                 "to_version": previous, "from_version": session.version,
                 "versions": [last["version"]]}
        return corrected(session, caller, state, entry, [(index, dict(last, undone=True))])

    def own_entry(session, entry) -> bool:
        """Whether ``entry`` is a companion chance entry (its seat took back its own, a card
        it entered wrongly: nobody else saw it)."""
        return session.meta["mode"] == "companion" and entry["move"].get("seat") == CHANCE

    def reveals(session, entry) -> bool:
        """Whether any seat or the public sees the move or its events otherwise than
        as they are: then they hold a secret (the game service redacts, not here)."""
        raw = {k: entry[k] for k in SERVICE_FIELDS if k in entry}
        for seat in [None, *range(1, session.state["players"] + 1)]:
            seen = redact_entries(upstream, session.game, [raw], seat)[0]
            if {k: v for k, v in seen["move"].items() if k != "text"} != raw["move"] or \
                    seen["events"] != raw["events"]:
                return True
        return False

    @route(app, "/v1/sessions/<session_id:sid>/redo", "POST",
           summary="Redo the latest undo (tabletop, table token)", body=RedoRequest,
           answer=Corrected, errors=(400, 401, 403, 404, 409, 412, 503), security=True,
           tag="corrections", operation_id="redoSession", params=[IF_MATCH, IDEMPOTENCY_KEY],
           description="Reverses the latest undo that is not redone yet, while no move has "
                       "been entered since it (else 409 nothing_to_redo): the state before "
                       "that undo comes back and its entries lose their undone mark.")
    def redo(sid, body):
        def precheck(session, caller):
            if caller.role != "table" or session.meta["mode"] == "digital":
                raise Forbidden("redo is a tabletop or companion correction of the table "
                                "token")

        def plan(session, caller):
            entries = entries_of(store, session)
            target, redone = None, set()
            for entry in reversed(entries):
                if entry.get("undone"):
                    continue
                if is_move(entry):
                    break
                kind = entry.get("correction")
                if kind == "redo":
                    redone.add(entry["of"])
                elif kind == "undo" and entry["version"] not in redone:
                    target = entry
                    break
            if target is None:
                raise NothingToRedo("no undo to reverse since the last move")
            state = restore(session, target["from_version"])
            back = set(target["versions"])
            rewrite = [(i, {k: v for k, v in e.items() if k != "undone"})
                       for i, e in enumerate(entries) if e["version"] in back]
            entry = {"version": state["version"], "correction": "redo",
                     "of": target["version"], "to_version": target["from_version"],
                     "from_version": session.version, "versions": sorted(back)}
            return corrected(session, caller, state, entry, rewrite)

        return write(store, sid, plan, body=body, precheck=precheck)
