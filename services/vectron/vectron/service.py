"""The Vectron service: the engine plus its score-helper schema."""

from marshmallow import fields, validate

from referee import service
from referee.schemas import Base, ScoreAnswer

from .engine import Vectron

Count = fields.Integer(strict=True, validate=validate.Range(min=0))


class CalculateRequest(Base):
    """One settlement at a table (V-6.2): the gauges read off, and the scores before it."""

    gauges = fields.List(Count, required=True, validate=validate.Length(min=2, max=4),
                         metadata={"description": "each seat's star gauge, seat 1 first"})
    scores = fields.List(Count, validate=validate.Length(min=2, max=4), metadata={
        "description": "each seat's score before the settlement (default: all 0)"})


class SettlementAnswer(ScoreAnswer):
    ended = fields.Boolean(metadata={"description": "whether a seat reached 6 (V-6.4)"})


def create_app(test_config=None):
    return service.create_app(Vectron(), CalculateRequest, test_config,
                              calculate_answer=SettlementAnswer)
