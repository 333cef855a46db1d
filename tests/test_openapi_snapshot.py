"""The committed OpenAPI document (docs/openapi.json) is what the gateway serves.

Regenerate it with ``make openapi`` after changing a route or a schema.
"""

import json
from pathlib import Path

SNAPSHOT = Path(__file__).parents[1] / "docs" / "openapi.json"


def test_committed_openapi_matches_the_code(client):
    served = client.get("/openapi.json").get_json()
    assert SNAPSHOT.exists(), "docs/openapi.json is missing: run make openapi"
    assert json.loads(SNAPSHOT.read_text()) == served, "docs/openapi.json is stale: make openapi"
