"""Wire contracts: the request and answer bodies of the HTTP API.

Schemas check what crosses the wire and feed the OpenAPI document; engines
never see a schema object, only the plain data a schema loaded.
"""

from jsonschema import Draft202012Validator
from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, validate

from .bots import LEVELS as BOT_LEVELS
from .engine import LANGUAGES, MAX_SEED, MODES
from .wire import (
    ENTRANT, MAX_REDACT_ENTRIES, MOVE_MATCH, REDACT_FOR, REDACT_LANGUAGES, SEED_DOC,
)


class Base(Schema):
    """Every request schema refuses unknown fields: a typo fails loudly."""

    class Meta:
        unknown = RAISE


class SeatOr(fields.Field):
    """A seat number (1…) or one word: ``"chance"`` (who moves), ``"any"`` (a free seat)."""

    def __init__(self, word: str, **kwargs):
        super().__init__(**kwargs)
        self.word = word

    def _deserialize(self, value, attr, data, **kwargs):
        if value == self.word or (type(value) is int and value >= 1):
            return value
        raise ValidationError(f'must be a seat number (1, 2, …) or "{self.word}"')

    def json_schema(self) -> dict:
        # an enum, not a const, beside the integer: client generators read it (issue 30)
        return {"oneOf": [{"type": "integer", "minimum": 1},
                          {"type": "string", "enum": [self.word]}]}


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only: marshmallow's Boolean also takes 0, 1, "yes"…"""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not bool:
            raise ValidationError("must be true or false")
        return value


def Seat(**kwargs):
    return fields.Integer(strict=True, validate=validate.Range(min=1), **kwargs)


State = fields.Dict(required=True, metadata={"description": "a whole game state"})
Move = fields.Dict(required=True, metadata={
    "description": '{"type": …, "seat": …, …}: one of the objects legal-moves lists'})


class NewGame(Base):
    players = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=99))
    seed = fields.Integer(strict=True, load_default=None, allow_none=True,
                          validate=validate.Range(min=0, max=MAX_SEED),
                          metadata={"description": SEED_DOC})
    mode = fields.String(load_default="digital", validate=validate.OneOf(MODES))
    options = fields.Dict(keys=fields.String(), load_default=dict)


class NewRequest(NewGame):
    view_as = Seat(allow_none=True, metadata={
        "description": "extension: also answer the view of this seat (null: public view)"})


class StateRequest(Base):
    state = State


MATCH_REFUSED = (f"must be an object of at most {MOVE_MATCH['maxProperties']} move fields, "
                 "each a string, an integer, a boolean or a list of at most "
                 f"{MOVE_MATCH['additionalProperties']['anyOf'][3]['maxItems']} strings")


class MoveMatch(fields.Field):
    """Move fields and the values a listed move must have, checked against the one
    description of ``match`` the OpenAPI document shows (``wire.MOVE_MATCH``)."""

    checker = Draft202012Validator(MOVE_MATCH)

    def _deserialize(self, value, attr, data, **kwargs):
        if not self.checker.is_valid(value):
            raise ValidationError(MATCH_REFUSED)
        return value


class LegalMovesRequest(Base):
    state = State
    seat = SeatOr("chance", load_default=None, allow_none=True)
    match = MoveMatch(load_default=dict)
    view_as = Seat(allow_none=True, metadata={
        "description": "extension: list the moves as this seat (null: the public) may read "
                       "them: a chance outcome whose odds count hidden components has no p"})


class ApplyRequest(Base):
    state = State
    move = Move
    view_as = Seat(allow_none=True, metadata={
        "description": "extension: also answer the new view and the events as this seat "
                       "sees them (null: public)"})
    entrant = Seat(allow_none=True, metadata={"description": ENTRANT})
    redact_for = fields.List(Seat(allow_none=True), validate=validate.Length(max=100),
                             metadata={"description": REDACT_FOR})
    redact_languages = fields.List(fields.String(validate=validate.OneOf(LANGUAGES)),
                                   validate=validate.Length(min=1, max=len(LANGUAGES)),
                                   metadata={"description": REDACT_LANGUAGES})


class ViewRequest(Base):
    state = State
    seat = Seat(load_default=None, allow_none=True, metadata={"description": "null: public"})


class LogEntry(Schema):
    version = fields.Integer(required=True, strict=True)
    move = fields.Dict(metadata={"description": "the move (absent from the setup entry)"})
    setup = fields.Boolean(metadata={"description": "true on the first entry: the setup's "
                                                    "events (deals, layout), no move"})
    events = fields.List(fields.Dict(), required=True)
    by = fields.String(metadata={"description": "who moved: seat:N, bot:N (the bot playing seat N), table or referee"})
    at = fields.Float(metadata={"description": "Unix time the move landed"})


class ViewLogRequest(Base):
    entries = fields.List(fields.Nested(LogEntry), required=True,
                          validate=validate.Length(max=10_000))
    seat = Seat(load_default=None, allow_none=True)


class RedactRequest(Base):
    state = fields.Dict(metadata={"description": "the state at the entries' last version, "
                                                 "whose views are answered (absent: none)"})
    entries = fields.List(fields.Nested(LogEntry), required=True,
                          validate=validate.Length(max=MAX_REDACT_ENTRIES))
    seats = fields.List(Seat(allow_none=True), required=True,
                        validate=validate.Length(min=1, max=100),  # the document: the table's
                        metadata={"description": "each seat to answer for (null: the public)"})


# ------------------------------------------------------------------ answers
class StateAnswer(Schema):
    state = fields.Dict()
    view = fields.Dict(metadata={"description": "only when view_as was given"})


class ApplyAnswer(StateAnswer):
    move = fields.Dict(metadata={"description": "the move as the referee records it: a chance "
                                                "outcome carries the referee's probability p"})
    events = fields.List(fields.Dict())
    view_events = fields.List(fields.Dict(), metadata={"description": "only with view_as"})
    redacted = fields.List(fields.Dict(), metadata={"description": "only with redact_for"})


class LegalMovesAnswer(Schema):
    to_move = fields.List(fields.Raw(), required=True)
    moves = fields.List(fields.Dict(), required=True)


class ScoreLine(Schema):
    seat = fields.Integer(required=True)
    total = fields.Integer(required=True)
    breakdown = fields.Dict(required=True)


class RankLine(Schema):
    rank = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    total = fields.Integer(required=True)


class ScoreAnswer(Schema):
    final = fields.Boolean(required=True)
    scores = fields.List(fields.Nested(ScoreLine), required=True)
    ranking = fields.List(fields.Nested(RankLine), required=True)
    winners = fields.List(fields.Integer(), required=True)


class ViewAnswer(Schema):
    view = fields.Dict()


class ViewLogAnswer(Schema):
    entries = fields.List(fields.Nested(LogEntry))


class OptionInfo(Schema):
    default = fields.Raw(required=True, metadata={
        "description": "free: each option's own type (the game's {Game}Options types it)"})
    description = fields.String(required=True)


class InfoAnswer(Schema):
    """A game's info; a game may add fields of its own (Gematon: ``witches``)."""

    class Meta:
        unknown = INCLUDE

    game = fields.String()
    title = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    modes = fields.List(fields.String())
    options = fields.Dict(keys=fields.String(), values=fields.Nested(OptionInfo))
    move_types = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "each move type and what it does"})
    hidden_information = fields.Boolean()
    rules_doc = fields.String()
    previewed_moves = fields.List(fields.String(), metadata={
        "description": "the move types whose resulting position a client may draw before "
                       "the move is confirmed (POST /v1/sessions/{sid}/preview.svg)"})


class GameListing(InfoAnswer):
    available = fields.Boolean(required=True, metadata={
        "description": "false: the game's service did not answer (only game is given)"})


class GamesAnswer(Schema):
    games = fields.List(fields.Nested(GameListing), required=True)


class HealthAnswer(Schema):
    status = fields.String(required=True)


class ReadyAnswer(HealthAnswer):
    """The gateway's readiness: ready or degraded (Redis down), and what it sees."""

    status = fields.String(required=True, validate=validate.OneOf(("ready", "degraded")))
    redis = fields.String(required=True, validate=validate.OneOf(("up", "down")))
    down_seconds = fields.Float(metadata={"description": "Redis down: for how long"})
    error = fields.String(metadata={"description": "Redis down: what the probe saw"})
    games = fields.List(fields.String(), required=True)


class ProblemSchema(Schema):
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String(metadata={"description": "stable machine-readable code"})
    rule = fields.String(metadata={"description": "the rule id an illegal move breaks"})
    errors = fields.Dict(metadata={"description": "per-field schema errors"})


# ----------------------------------------------------------- session routes
class CreateSessionRequest(NewGame):
    game = fields.String(required=True, validate=validate.Length(min=1, max=40))
    seats = fields.String(load_default="assigned", validate=validate.OneOf(("assigned", "open")),
                          metadata={"description": "assigned: every seat's token in the "
                                    "answer; open: players join with the join_code"})
    public = StrictBoolean(load_default=False, metadata={
        "description": "open seats only: list the table in GET /v1/lobby"})
    bots = fields.Dict(  # keys: seat numbers, checked against the players (no_such_seat)
        keys=fields.String(validate=validate.Length(max=40)),
        values=fields.String(validate=validate.OneOf(BOT_LEVELS)), load_default=dict,
        metadata={"description": "seats a bot plays, and its level (random, greedy, strong): "
                                 "they get no token; the bot moves by itself when it is to "
                                 "move", "example": {"2": "strong"}})


class BotRequest(Base):
    level = fields.String(required=True, validate=validate.OneOf(BOT_LEVELS), metadata={
        "description": "random, greedy or strong"})


class HintAnswer(Schema):
    game = fields.String(required=True)
    move = fields.Dict(required=True, metadata={
        "description": "the suggested move, as legal-moves lists it, with its text"})
    level = fields.String(required=True)
    version = fields.Integer(required=True, metadata={
        "description": "the version it was chosen at"})


class MoveRequest(Base):
    move = Move


class SeatToken(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(metadata={"description": "assigned seats: the seat's secret token"})
    status = fields.String(validate=validate.OneOf(("taken", "open", "absent", "bot")),
                           metadata={"description": "taken, open, absent or bot"})
    bot = fields.String(metadata={"description": "a bot seat: its level"})


class SessionCreated(Schema):
    session_id = fields.String(required=True)
    game = fields.String(required=True)
    mode = fields.String(required=True, validate=validate.OneOf(MODES))
    players = fields.Integer(required=True)
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatToken), required=True)
    table_token = fields.String(required=True)
    spectator_token = fields.String(required=True)
    view = fields.Dict(required=True)
    to_move = fields.List(fields.Raw(), required=True,
                          metadata={"description": "who is to move now"})
    started = fields.Boolean(required=True)
    join_code = fields.String(metadata={"description": "open seats: what players join with"})
    public = fields.Boolean()


class Caller(Schema):
    role = fields.String(required=True, validate=validate.OneOf(("seat", "table", "spectator")),
                         metadata={"description": "seat, table or spectator"})
    seat = fields.Integer(required=True, allow_none=True)


class SessionView(Schema):
    session_id = fields.String(required=True)
    game = fields.String(required=True)
    mode = fields.String(required=True, validate=validate.OneOf(MODES))
    version = fields.Integer(required=True)
    to_move = fields.List(fields.Raw(), required=True)
    you = fields.Nested(Caller, required=True)
    view = fields.Dict(required=True)
    started = fields.Boolean(required=True,
                             metadata={"description": "false while open seats wait"})
    seats = fields.List(fields.Nested(SeatToken), required=True)
    join_code = fields.String(metadata={"description": "the table token, before the start"})


class SessionMoved(SessionView):
    move = fields.Dict(required=True, metadata={
        "description": "the move as the referee recorded it, as the caller may see it, with "
                       "its text"})
    events = fields.List(fields.Dict(), required=True)


class SessionLegalMoves(LegalMovesAnswer):
    game = fields.String(required=True)
    version = fields.Integer(required=True)


class SessionScore(ScoreAnswer):
    game = fields.String(required=True)


class SessionLog(Schema):
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    next = fields.Integer(required=True, metadata={
        "description": "the cursor to send as ?since= to read only what comes after these "
                       "entries"})
    entries = fields.List(fields.Nested(LogEntry), required=True)


class StreamTicket(Schema):
    ticket = fields.String(required=True, metadata={
        "description": "single use, for one GET …/events?ticket=…; never logged"})
    expires_in = fields.Integer(required=True, metadata={
        "description": "seconds the ticket stays usable (it opens one stream, once)"})
    events_url = fields.String(required=True, metadata={
        "description": "the stream's path with the ticket: what an EventSource opens"})
