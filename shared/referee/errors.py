"""The one error hierarchy of the project, and its one problem+json form.

Engines raise these (they are plain exceptions, no HTTP imports); the web
layer turns any of them into an RFC 9457 body with :func:`problem`. Each class
fixes a stable ``code`` that clients may switch on.

``detail`` is a sentence for people, in English or Japanese (the web layer picks by
``Accept-Language``). The English one is written where the error is raised, with
everything it knows; the Japanese one is this module's sentence for the code
(:data:`DETAILS_JA`), with the words the error was given (``words``: a field's name, a
seat) and, for a refusal under a rule, that rule in the game's own words (each game's
``refusals.RULES_JA``). ``code`` and ``rule`` are the same in every language.
"""

import re


class RefereeError(Exception):
    status = 400
    code = "bad_request"
    title = "Bad request"

    def __init__(self, detail: str, rule: str | None = None, *, words: dict | None = None,
                 **extra):
        """``words``: what the Japanese sentence of the code names (never in the body)."""
        super().__init__(detail)
        self.detail, self.rule, self.words = detail, rule, words or {}
        if rule:  # the rule id the refused request breaks, e.g. "G-4.1"
            extra["rule"] = rule
        self.extra = extra

    def problem(self, lang: str = "en", rule_text=None) -> dict:
        """The problem+json body, its ``detail`` in ``lang``; ``rule_text(rule, lang)``
        words a rule (the game's), or None."""
        body = {
            "type": f"https://tabletop-referee.dev/problems/{self.code}",
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        body.update(self.extra)
        if lang == "ja":
            body["detail"] = in_japanese(self.code, body, self.words, rule_text)
        return body


class BadRequest(RefereeError):
    """The body fails its schema: wrong types, unknown fields, missing fields."""


class InvalidJson(BadRequest):
    code, title = "invalid_json", "Body is not JSON"


class UnknownField(BadRequest):
    """A body or move names a field its schema does not have (often a misspelling)."""

    code, title = "unknown_field", "Unknown field"


class PayloadTooLarge(RefereeError):
    status, code, title = 413, "payload_too_large", "Payload too large"


class UnsupportedMediaType(RefereeError):
    """A body that is not ``application/json``: it is never guessed to be JSON."""

    status, code, title = 415, "unsupported_media_type", "Body is not application/json"


class Unauthorized(RefereeError):
    status, code, title = 401, "unauthorized", "Missing or unknown token"


class InvalidTicket(Unauthorized):
    """A stream ticket that is malformed, unknown, spent, expired or of another session:
    the client asks for a new one (``POST …/events/ticket``)."""

    code, title = "invalid_ticket", "Unknown, spent or expired stream ticket"


class Forbidden(RefereeError):
    status, code, title = 403, "forbidden", "Not allowed with this token"


class NotYourTurn(Forbidden):
    code, title = "not_your_turn", "Not this seat's turn"


class NotYourEntry(Forbidden):
    """Companion mode: a private chance outcome is entered by the seat that receives it."""

    code, title = "not_your_entry", "Another seat enters this outcome"


class NotFound(RefereeError):
    status, code, title = 404, "not_found", "Not found"


class UnknownGame(NotFound):
    code, title = "unknown_game", "Unknown game"


class UnknownSession(NotFound):
    code, title = "unknown_session", "Unknown or expired session"


class MethodNotAllowed(RefereeError):
    status, code, title = 405, "method_not_allowed", "Method not allowed"


class IdempotencyConflict(RefereeError):
    status, code, title = 409, "idempotency_conflict", "Idempotency-Key reused with another body"


class VersionConflict(RefereeError):
    status, code, title = 412, "version_conflict", "The session has moved on"


class Unprocessable(RefereeError):
    status, code, title = 422, "unprocessable", "Against the rules"


class IllegalMove(Unprocessable):
    """A well-formed move the rules forbid; ``rule`` names the rule it breaks."""

    code, title = "illegal_move", "Illegal move"


class ImpossibleEntry(IllegalMove):
    """Companion mode: an entry that cannot be true by what the entering token knows (the
    public components and, for a seat, its own hand): the message counts nothing else."""

    code, title = "impossible_entry", "Impossible entry"


class EntryConflict(IllegalMove):
    """Companion mode: an entry possible by what its seat knows that contradicts another
    seat's private entry (one of the two is wrong); the message names no card and no seat."""

    code, title = "entry_conflict", "Entry contradicts another entry"


class GameOver(IllegalMove):
    code, title = "game_over", "The game is over"


class InvalidState(Unprocessable):
    code, title = "invalid_state", "Inconsistent game state"


class InvalidOptions(Unprocessable):
    code, title = "invalid_options", "Invalid game options"


class InvalidPlayers(Unprocessable):
    code, title = "invalid_players", "Unsupported number of players"


class NoSuchSeat(Unprocessable):
    """A seat number the documents allow (1 to the game's most players) that this
    table lacks: a seat 3 at a two-player table."""

    code, title = "no_such_seat", "No such seat at this table"


class InvalidInput(Unprocessable):
    """Well-formed score-helper input that cannot happen in the game."""

    code, title = "invalid_input", "Impossible input"


class SessionConflict(RefereeError):
    """The session is not in a state that allows this request (409); the subclasses
    name why, each with a stable code (lobby: seats and start; corrections)."""

    status, code, title = 409, "session_conflict", "Not possible in this session now"


class NotStarted(SessionConflict):
    code, title = "not_started", "The game has not started"


class AlreadyStarted(SessionConflict):
    code, title = "already_started", "The game has already started"


class NobodySeated(SessionConflict):
    code, title = "nobody_seated", "No seat is taken yet"


class SeatTaken(SessionConflict):
    code, title = "seat_taken", "The seat is taken"


class TableFull(SessionConflict):
    code, title = "table_full", "No seat is open"


class NoBot(SessionConflict):
    code, title = "no_bot", "No bot plays this seat"


class UnknownJoinCode(NotFound):
    code, title = "unknown_join_code", "Unknown or expired join code"


class NothingToUndo(SessionConflict):
    code, title = "nothing_to_undo", "Nothing to undo"


class NothingToRedo(SessionConflict):
    code, title = "nothing_to_redo", "Nothing to redo"


class UndoTargetInvalid(SessionConflict):
    code, title = "undo_target_invalid", "Not a version the game can go back to"


class TakeBackNotLastMove(SessionConflict):
    code, title = "takeback_not_last_move", "Only the last move, by its own seat"


class TakeBackAfterChance(SessionConflict):
    code, title = "takeback_after_chance", "A chance outcome has been revealed since"


class TakeBackHiddenInformation(SessionConflict):
    code, title = "takeback_hidden_information", "The move revealed hidden information"


class TakeBackGameOver(SessionConflict):
    code, title = "takeback_game_over", "The game is over"


class RateLimited(RefereeError):
    status, code, title = 429, "rate_limited", "Too many requests"


class ServiceUnavailable(RefereeError):
    status, code, title = 503, "service_unavailable", "A dependency is down"


class UpstreamProblem(RefereeError):
    """A problem+json answered by a game service, passed through unchanged."""

    def __init__(self, body: dict):
        super().__init__(str(body.get("detail", "")))
        self.body = body
        self.status = int(body.get("status", 502))
        self.code = str(body.get("code", "bad_gateway"))

    def problem(self, lang: str = "en", rule_text=None) -> dict:
        return dict(self.body)  # the service answered in the language it was asked in


def _codes(cls) -> set[str]:
    found = {cls.code} if isinstance(cls.__dict__.get("code", cls.code), str) else set()
    for sub in cls.__subclasses__():
        found |= _codes(sub)
    return found


def _own_codes(cls) -> list[type]:
    """``cls`` and its subclasses that name a code of their own, depth first."""
    found = [cls] if "code" in cls.__dict__ else []
    for sub in cls.__subclasses__():
        found += _own_codes(sub)
    return found


#: an example answer of each code, as the referee words it (the OpenAPI examples show them)
EXAMPLES = {
    "bad_request": ("the request body does not match its schema",
                    {"errors": {"players": ["Not a valid integer."]}}),
    "invalid_json": ("the request body is not valid JSON: Expecting value: line 1 column 1", {}),
    "unknown_field": ('unknown field "sead" in the request body', {"errors": {
        "sead": ["Unknown field."]}}),
    "unauthorized": ("send the session's token as 'Authorization: Bearer <token>'", {}),
    "invalid_ticket": (("this stream ticket is unknown, spent or expired: ask POST "
                        "/v1/sessions/{sid}/events/ticket for a new one"), {}),
    "forbidden": ("a spectator has no moves", {}),
    "not_your_turn": ("seat 2 is not to move; seat 1 moves", {}),
    "not_your_entry": ("seat 2 enters this outcome itself: it goes into its hand", {}),
    "not_found": ("no route /v1/nowhere", {}),
    "unknown_game": ('there is no game "chess"; the games are gematon, ghostone, gizmos, '
                     "threemagic, vectron", {}),
    "unknown_session": ("there is no session with this id", {}),
    "unknown_join_code": ("no open table has this join code (it may have started or expired)", {}),
    "method_not_allowed": ("PUT is not allowed on /v1/sessions", {}),
    "idempotency_conflict": ("this Idempotency-Key came with another request", {}),
    "version_conflict": ("the session is at version 8, not 7", {"current_version": 8}),
    "payload_too_large": ("the body is over the limit of 1048576 bytes", {}),
    "unsupported_media_type": ("the request body was sent as text/plain; send it as "
                               "application/json", {}),
    "unprocessable": ("the request is against the rules", {}),
    "illegal_move": ("plate c3 is not next to the seat's piece", {"rule": "G-4.1"}),
    "impossible_entry": ('{"card":"m5","seat":"chance","to":2,"type":"draw"} cannot be entered '
                         "now: counting the components everyone sees and your hand, none is "
                         "left that can give it", {"rule": "T-10.1"}),
    "entry_conflict": ("this entry contradicts another seat's entry: a component cannot be in "
                       "two places; check the hands, then the wrong entry is undone",
                       {"rule": "T-10.1"}),
    "game_over": ("the game is over", {"rule": "G-7.1"}),
    "invalid_state": ("state.version must be a whole number from 0", {}),
    "invalid_options": ('Ghostone has no option "ghosts"', {}),
    "invalid_players": ("Ghostone takes 3 to 4 players, not 2", {}),
    "no_such_seat": ("seat 3 is not at this table of 2 players", {}),
    "invalid_input": ("the gauges add up to 17; a game has 16 cards", {"rule": "V-1.4"}),
    "session_conflict": ("not possible in this session now", {}),
    "not_started": ("the game has not started: no seat has moves yet", {}),
    "already_started": ("the game has already started", {}),
    "nobody_seated": ("nobody has joined yet: share the join code first", {}),
    "seat_taken": ("seat 2 is taken; open seats: 3", {}),
    "table_full": ("every seat of this table is taken", {}),
    "no_bot": ("no bot plays seat 2", {}),
    "nothing_to_undo": ("no move has been entered since the game started", {}),
    "nothing_to_redo": ("nothing to redo", {}),
    "undo_target_invalid": ("version 40 is not before the present version 12", {}),
    "takeback_not_last_move": ("only the last move can be taken back, by its own seat", {}),
    "takeback_after_chance": ("a chance outcome has been revealed since that move", {}),
    "takeback_hidden_information": ("that move showed hidden information to its seat", {}),
    "takeback_game_over": ("the game is over: nothing can be taken back", {}),
    "rate_limited": ("more than 600 requests in 60 s; slow down", {"retry_after": 3}),
    "service_unavailable": ("the session store is unavailable", {"retry_after": 1}),
}


#: each code's ``detail`` in Japanese. A pair is (plain, named): ``named`` when the error
#: was given the ``words`` it names (else ``plain``). A refusal with a ``rule`` adds the rule,
#: in the game's words where the game has them (its ``refusals.RULES_JA``).
DETAILS_JA = {
    "bad_request": "リクエストの内容が正しくありません（どこが違うかは errors を見てください）",
    "invalid_json": "リクエストの本文が正しいJSONではありません",
    "unknown_field": ("リクエストに知らない項目があります",
                      "「{field}」という項目はありません（綴りを確かめてください）"),
    "payload_too_large": "リクエストの本文が大きすぎます",
    "unsupported_media_type": "本文は application/json として送ってください",
    "unauthorized": "トークンがないか、このセッションのトークンではありません",
    "invalid_ticket": ("ストリームのチケットが無効です（使用済み・期限切れ・別のセッションのもの）。"
                       "新しいチケットを受け取ってください"),
    "forbidden": "このトークンではできない操作です",
    "not_your_entry": "この結果は、それを受け取る席が自分の端末で入力します",
    "not_your_turn": ("いまはその手番ではありません",
                      "いまはプレイヤー{seat}の手番ではありません"),
    "not_found": "そのURLはありません",
    "unknown_game": "そのゲームはありません",
    "unknown_session": "そのセッションはありません（終了したか、期限が切れました）",
    "unknown_join_code": "その参加コードの卓はありません（始まったか、期限が切れました）",
    "method_not_allowed": "このURLではそのメソッドは使えません",
    "idempotency_conflict": "この Idempotency-Key は別のリクエストで使われています",
    "version_conflict": ("セッションは先に進みました。最新の状態を読み直してください",
                         ("セッションは先に進みました（いまはバージョン{current_version}）。"
                          "最新の状態を読み直してください")),
    "unprocessable": "ルール上できないリクエストです",
    "illegal_move": ("ルール上できない手です",
                     "この手に「{field}」という項目はありません（綴りを確かめてください）"),
    "impossible_entry": "その入力はありえません（表向きのものとあなたの手札から数えて、残りがありません）",
    "entry_conflict": "その入力はほかの入力と食い違います（どちらかが間違っています）",
    "game_over": "ゲームは終わっています",
    "invalid_state": "ゲームの状態が正しくありません",
    "invalid_options": "ゲームのオプションが正しくありません",
    "invalid_players": "このゲームではその人数では遊べません",
    "no_such_seat": "この卓にはその席がありません",
    "invalid_input": "ゲームでは起こりえない入力です",
    "session_conflict": "いまのセッションではできない操作です",
    "not_started": "ゲームはまだ始まっていません",
    "already_started": "ゲームはもう始まっています",
    "nobody_seated": "まだ誰も席についていません。先に参加コードを伝えてください",
    "seat_taken": "その席はもう埋まっています",
    "table_full": "空いている席がありません",
    "no_bot": "その席はボットが遊んでいません",
    "nothing_to_undo": "取り消せる手がありません",
    "nothing_to_redo": "やり直せる手がありません",
    "undo_target_invalid": "そのバージョンには戻せません",
    "takeback_not_last_move": "待ったができるのは直前の手だけで、その手を指した席だけです",
    "takeback_after_chance": "その手の後に偶然の結果が公開されたので、待ったはできません",
    "takeback_hidden_information": "その手で非公開の情報が見えたので、待ったはできません",
    "takeback_game_over": "ゲームは終わっているので、待ったはできません",
    "rate_limited": ("リクエストが多すぎます。少し待ってください",
                     "リクエストが多すぎます。{retry_after}秒待ってください"),
    "service_unavailable": ("いまは応答できません。少し待ってからもう一度どうぞ",
                            "いまは応答できません。{retry_after}秒待ってからもう一度どうぞ"),
    "internal_error": "審判の内部で問題が起きました（記録済みです）。request_id を添えて報告してください",
}


#: what an English detail is about, when it says so first (``escapes[0].points must…``,
#: ``turn_order: …``, ``seat 2: …``): the Japanese one says it first too, so a form (the
#: page's score helper) shows the sentence at that field whatever the language
ABOUT = re.compile(r"^(?:seat (\d+)|([a-z_]+(?:\[\d+\]|\.[a-z_]+)+|[a-z_]+(?=:)))[: ]")


def in_japanese(code: str, body: dict, words: dict, rule_text=None) -> str:
    """The Japanese ``detail`` of a problem ``body`` of ``code`` (whose ``detail`` is the
    English one)."""
    plain, named = (DETAILS_JA[code], None) if isinstance(DETAILS_JA[code], str) \
        else DETAILS_JA[code]
    text = plain
    if named is not None:
        try:
            text = named.format_map({**body, **words})
        except (KeyError, IndexError):  # not given those words: the plain sentence
            text = plain
    rule = body.get("rule")
    if rule:
        worded = rule_text(rule, "ja") if rule_text is not None else None
        text += f"（規則{rule}：{worded}）" if worded else f"（規則{rule}）"
    about = ABOUT.match(str(body.get("detail", "")))
    if about and about.group(1):
        return f"プレイヤー{about.group(1)}：{text}"
    return f"{about.group(2)}: {text}" if about else text


def examples(status: int) -> dict:
    """One example problem+json body per code answered with ``status`` (the OpenAPI
    ``examples`` of a documented error answer: never a code of another status), by code."""
    found = {}
    for cls in _own_codes(RefereeError):
        if cls.status == status and cls.code not in found:
            detail, extra = EXAMPLES[cls.code]
            body = cls(detail).problem()
            body.update(extra, request_id="3f2a9c0d5e7b41a68c1d2e3f4a5b6c7d")
            found[cls.code] = {"summary": cls.title, "value": body}
    return found


#: every ``code`` a problem answer can carry (the Problem schema's enum, the README's list);
#: ``internal_error`` is the answer to a bug, which the tests keep from ever happening
CODES = frozenset(_codes(RefereeError) - {"bad_gateway"} | {"internal_error"})
