"""The Gizmos service: the engine plus its score-helper schema."""

from marshmallow import fields, validate

from referee import service
from referee.schemas import Base, Seat

from .engine import Gizmos


class SeatTally(Base):
    seat = Seat(required=True)
    built = fields.List(fields.Integer(strict=True), required=True,
                        validate=validate.Length(max=60), metadata={
                            "description": "ids of the seat's built gizmos (Z-15); the "
                                           "starting gizmo may be listed or left out"})
    vp_tokens = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                               metadata={"description": "total value of its VP tokens"})
    energy = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=52),
                            metadata={"description": "spheres left in its ring"})


class CalculateRequest(Base):
    """What a table reads off at the end (Z-11)."""

    seats = fields.List(fields.Nested(SeatTally), required=True,
                        validate=validate.Length(min=2, max=4))
    turn_order = fields.List(Seat(), load_default=None, allow_none=True, metadata={
        "description": "the seats in turn order, first player first (default 1, 2, …)"})


def create_app(test_config=None):
    return service.create_app(Gizmos(), CalculateRequest, test_config)
