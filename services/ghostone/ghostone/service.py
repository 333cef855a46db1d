"""The Ghostone service: the engine plus its score-helper schema."""

from marshmallow import fields, validate

from referee import service
from referee.schemas import Base

from .engine import Ghostone


class Escape(Base):
    seat = fields.Integer(required=True, strict=True)
    points = fields.Integer(required=True, strict=True, metadata={
        "description": "rocks on the origin plate before the rock moved (G-5.2)"})
    plate = fields.String(validate=validate.Length(equal=2))


class CalculateRequest(Base):
    """The escapes a table recorded, in the order they happened."""

    players = fields.Integer(required=True, strict=True)
    escapes = fields.List(fields.Nested(Escape), required=True,
                          validate=validate.Length(max=9))


def create_app(test_config=None):
    return service.create_app(Ghostone(), CalculateRequest, test_config)
