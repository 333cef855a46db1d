"""The Three Magic service: the engine plus its score-helper schema."""

from marshmallow import fields, validate

from referee import service
from referee.schemas import Base, ScoreAnswer

from .cards import ATTRIBUTES
from .engine import ThreeMagic

Card = fields.String(metadata={"description": "R/B/G, a number 0–4, * if starred: R3*, B0"})
Spell = fields.List(Card, validate=validate.Length(equal=3))
Attribute = validate.OneOf(ATTRIBUTES)


class CalculateRequest(Base):
    """A winning hand as the table reads it off (T-7)."""

    win = fields.String(required=True, validate=validate.OneOf(["ron", "tsumo"]))
    winner_attribute = fields.String(required=True, validate=Attribute)
    discarder_attribute = fields.String(load_default=None, allow_none=True, validate=Attribute,
                                        metadata={"description": "ron only"})
    spells = fields.List(Spell, required=True, validate=validate.Length(min=1, max=3), metadata={
        "description": "the hand's spells in its fixed order, the winning card included"})
    called = fields.List(Spell, load_default=list, validate=validate.Length(max=2))
    winning_card = fields.String(required=True)
    indicators = fields.List(fields.String(), required=True,
                             validate=validate.Length(min=1, max=30),
                             metadata={"description": "catalyst indicators, 1st first"})
    riichi = fields.Boolean(load_default=False)
    field = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0),
                           metadata={"description": "od on the field (riichi stakes, calls)"})
    pool = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0),
                          metadata={"description": "od in the ley-line pool before the match"})
    attributes = fields.List(fields.String(validate=Attribute), load_default=None,
                             allow_none=True, validate=validate.Length(equal=3),
                             metadata={"description": "attribute of seats 1, 2, 3"})
    options = fields.Dict(keys=fields.String(), load_default=None, allow_none=True,
                          metadata={"description": "scoring tables (game options)"})


class PaymentAnswer(ScoreAnswer):
    """The scoreboard of one win (each seat's total is its od change) and its payment."""

    payment = fields.Dict(metadata={"description": "the score item by item (attribute, "
                                                   "numbers, stars, catalysts) and who pays "
                                                   "what, field and pool transfers (T-7)"})


def create_app(test_config=None):
    return service.create_app(ThreeMagic(), CalculateRequest, test_config,
                              calculate_answer=PaymentAnswer)
