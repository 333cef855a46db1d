"""The README's curl session works as written, against a live server."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from referee.embedded import free_port
from referee.stack import Stack

pytestmark = pytest.mark.e2e
README = Path(__file__).parents[1] / "README.md"


def example(marker: str) -> str:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), flags=re.S)
    return next(b for b in blocks if f"readme-example: {marker}" in b)


def run_example(marker: str, redis_url: str, tmp_path) -> subprocess.CompletedProcess:
    """The README's block ``marker`` run by bash against a live stack; it must succeed."""
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None, env={"LOG_LEVEL": "warning"}) as stack:
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", example(marker)],
                             cwd=tmp_path, env={"REFEREE": stack.url, "PATH": "/usr/bin:/bin"},
                             capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return run


def test_the_readme_ghostone_session_plays_to_the_end(redis_url, tmp_path):
    run = run_example("ghostone-session", redis_url, tmp_path)
    answers = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    refusal = next(a for a in answers if a.get("code") == "illegal_move")
    assert refusal["rule"] == "G-2.3"
    assert answers[-1]["final"] is True and answers[-1]["winners"]


def test_the_readme_companion_session_keeps_each_hand_on_its_phone(redis_url, tmp_path):
    run = run_example("companion-session", redis_url, tmp_path)
    lines = run.stdout.splitlines()
    answers = [json.loads(line) for line in lines if line.startswith("{")]
    assert next(a for a in answers if "code" in a)["code"] == "not_your_entry"
    draws = [e["move"] for e in answers[-1]["entries"] if e.get("move", {}).get("type") == "draw"]
    hidden = [d for d in draws if d["into"] == "hand"]
    assert hidden and all("chip" not in d for d in hidden), "the table reads no hand chip"
    assert all("chip" in d for d in draws if d["into"] != "hand")
    seats = json.loads(lines[-1])
    assert len(seats[0]["hand"]) == 3 and seats[1]["hand"] == {"count": 2}


def test_the_readme_lists_every_error_code_and_no_other():
    from referee.errors import CODES
    text = README.read_text()
    table = text[text.index("| status | codes |"):]
    table = table[:table.index("\n\n")]
    rows = [row.split("|")[2] for row in table.splitlines()[2:]]  # the codes column
    fields = {"errors", "rule", "current_version"}  # problem fields the table mentions
    listed = {c for row in rows for c in re.findall(r"`([a-z_]+)`", row)} - fields
    assert listed == set(CODES), (sorted(set(CODES) - listed), sorted(listed - set(CODES)))
