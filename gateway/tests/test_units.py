"""Unit tests of the gateway's small pure helpers."""

import pytest

from referee.errors import BadRequest
from referee_gateway.config import parse_services
from referee_gateway.sessions import _matches, _version_header


def test_game_services_are_parsed_from_one_variable():
    assert parse_services("ghostone=http://g:8101/, gematon=https://m") == {
        "ghostone": "http://g:8101", "gematon": "https://m"}
    with pytest.raises(ValueError):
        parse_services("ghostone:8101")


def test_if_match_takes_quoted_weak_or_bare_versions():
    assert _version_header('"7"') == _version_header("W/\"7\"") == _version_header("7") == 7
    assert _version_header(None) is None
    for bad in ("seven", '"-1"', "1" * 13):
        with pytest.raises(BadRequest):
            _version_header(bad)


def test_if_none_match_lists_and_star():
    assert _matches('"3", "4"', 4) and _matches("*", 9) and _matches('W/"2"', 2)
    assert not _matches('"3"', 4) and not _matches(None, 4)
