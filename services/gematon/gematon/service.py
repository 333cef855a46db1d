"""The Gematon service: the engine plus its score-helper schema."""

from marshmallow import fields, validate

from referee import service
from referee.schemas import Base

from .engine import Gematon


class SeatReading(Base):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=4))
    track = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                           metadata={"description": "the pawn's position (+20 past square 20, "
                                                    "GM-5.4)"})
    pentacle = fields.List(fields.Integer(strict=True), required=True,
                           validate=validate.Length(equal=7),
                           metadata={"description": "the chips on cells 0..6 (GM-1.5)"})
    gauge = fields.Integer(strict=True, validate=validate.Range(min=0, max=6), metadata={
        "description": "the gauge marker's cell; default: the distinct values on the pentacle"})


class CalculateOptions(Base):
    pentacle_lines = fields.List(fields.List(fields.Integer(strict=True)))
    blessing_values = fields.List(fields.Integer(strict=True))


class CalculateRequest(Base):
    """Each seat's track position and pentacle, read off a finished table."""

    seats = fields.List(fields.Nested(SeatReading), required=True,
                        validate=validate.Length(min=2, max=4))
    turn_order = fields.List(fields.Integer(strict=True), metadata={
        "description": "seats from the first player on (default 1, 2, …): on a tie the "
                       "later seat ranks higher (GM-5.3)"})
    options = fields.Nested(CalculateOptions)


def create_app(test_config=None):
    return service.create_app(Gematon(), CalculateRequest, test_config)
