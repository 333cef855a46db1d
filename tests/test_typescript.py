"""TypeScript reads every answer as the served document types it (issue 30 items 1, 2).

The live stack (real gunicorn, embedded Redis) serves its document; openapi-typescript
(pinned in client/typescript/package-lock.json, installed by ``make test``) turns it
into types. Seeded games of every game are played over HTTP and their answers —
listed moves, moves played, views, the log, the event stream's frames, the hint, the
score — are written out as typed literals (``const x: S["VectronSessionView"] =
{…}``) that ``tsc --strict`` must accept: an answer with a field the schema does not
know, a missing required field or a value of the wrong type fails the compile.
Deliberate mistakes must fail it: another game's move on a game's stateless route or
on its session, a view without a required field, a session answer of the wrong game.
And the document is measured: the generated types hold no ``unknown``, ``any`` or
index signature but the deliberately free objects listed in FREE, each with why.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from referee.stack import installed_games

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "client" / "typescript" / "node_modules" / ".bin"
RECORDED_STEPS = 25  # answers of the first moves of each game (the log and stream: all)
MAX_MOVES = 3000

#: every ``unknown`` and index signature the generated types keep, and why (README)
FREE = {
    "errors?: {[key: string]: unknown;}": "Problem.errors: marshmallow's per-field messages, "
                                           "a list or nested per field",
    "default: unknown;": "OptionInfo.default: each option's own type ({Game}Options types it)",
    "options?: {[key: string]: components[\"schemas\"][\"OptionInfo\"];}": "a game's options "
                                                                           "by name",
    "move_types?: {[key: string]: string;}": "a game's move types by name, with what each does",
    "} & {[key: string]: unknown;}": "InfoAnswer, GameListing: a game may add info of its own "
                                     "(Gematon: witches)",
    "positions?: {[key: string]: number;}": "Gematon's penalty event: each seat's new position, "
                                            "by seat",
    "match?: {[key: string]: string | number | boolean | string[];}": (
        "a legal-moves filter: move fields and values (a list: Gizmos' spend)"),
    "bots?: {[key: string]: \"random\" | \"greedy\" | \"strong\";}": "createSession: the bot "
                                                                     "seats, by seat",
    "gains?: {[key: string]: number;}": "Vectron's piece_moved event: the gauge gains, by seat",
    "ready: {[key: string]: number;}": "Gizmos's view: triggered gizmos not yet used, by id",
}


def tool(name: str) -> str:
    found = TOOLS / name
    if not found.exists():
        installed = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"],
                                   cwd=TOOLS.parents[1], capture_output=True, text=True,
                                   timeout=600) if shutil.which("npm") else None
        assert found.exists(), ("node tooling missing (make test runs tools/ensure_node.sh): "
                                + (installed.stderr[-2000:] if installed else "no npm"))
    return str(found)


@pytest.fixture(scope="module")
def types(live_stack, tmp_path_factory) -> Path:
    """A folder with ``schema.d.ts``, generated from the document as served."""
    where = tmp_path_factory.mktemp("typescript")
    document = requests.get(f"{live_stack.url}/openapi.json", timeout=30).json()
    (where / "openapi.json").write_text(json.dumps(document))
    made = subprocess.run([tool("openapi-typescript"), "openapi.json", "--output",
                           "schema.d.ts"], cwd=where, capture_output=True, text=True,
                          timeout=300)
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    return where


def compile_ts(where: Path, name: str, source: str) -> subprocess.CompletedProcess:
    (where / name).write_text(source)
    return subprocess.run(
        [tool("tsc"), "--strict", "--noEmit", "--target", "es2022", "--module", "es2022",
         "--moduleResolution", "bundler", "--skipLibCheck", "false", name],
        cwd=where, capture_output=True, text=True, timeout=900)


def free_spots(typescript: str) -> list[str]:
    """Each ``unknown``/``any``/index signature of the generated types, with the code
    around it, spaces squeezed out (comments and the response headers' own signature
    left out)."""
    code = re.sub(r"/\*\*.*?\*/", "", typescript, flags=re.DOTALL)
    # openapi-typescript opens every headers object with "[name: string]: unknown" (other
    # headers may come), whether or not it lists some (Content-Language on problems)
    code = re.sub(r"\s+", "", code).replace("[name:string]:unknown;", "")
    return [code[max(0, hit.start() - 60):hit.end() + 40]
            for hit in re.finditer(r"(?<![\w\"])(unknown|any)(?![\w\"])|\[key:string\]", code)]


def test_the_generated_types_are_free_only_where_listed(types):
    typescript = (types / "schema.d.ts").read_text()
    squeezed = [re.sub(r"\s", "", spot) for spot in FREE]
    unexplained = [s for s in free_spots(typescript)
                   if not any(spot in s for spot in squeezed)]
    assert unexplained == [], unexplained[:20]
    for spot in ("SessionView", "SessionLegalMoves", "SessionLog", "SessionEvent",
                 "SessionScore", "HintAnswer"):
        assert f"Vectron{spot}: {{" in typescript or f"Vectron{spot}:" in typescript, spot


def literal(name: str, kind: str, value) -> str:
    return f"export const {name}: S[\"{kind}\"] = {json.dumps(value, ensure_ascii=False)};\n"


def read_stream(live_stack, sid: str, token: str, last: int) -> list[dict]:
    """Every frame of the stream from the start (``since=0``) up to version ``last``."""
    frames, frame = [], {}
    with requests.get(f"{live_stack.url}/v1/sessions/{sid}/events?since=0", stream=True,
                      headers={"Authorization": f"Bearer {token}"}, timeout=60) as answer:
        assert answer.status_code == 200, answer.text
        for line in answer.iter_lines(decode_unicode=True):
            if line == "":
                if "data" in frame:
                    frames.append(dict(frame, data=json.loads(frame["data"])))
                    if frame.get("id") == str(last):
                        return frames
                frame = {}
            elif not line.startswith(":"):
                field, _, value = line.partition(":")
                if field in ("event", "id", "data"):
                    frame[field] = value.lstrip(" ")
    return frames


def record_game(live_stack, game: str, p: str) -> str:
    """A seeded game of ``game`` played to its end over HTTP, its answers as typed literals."""
    url, out = live_stack.url, []
    info = requests.get(f"{url}/v1/games/{game}", timeout=30).json()
    created = requests.post(f"{url}/v1/sessions", json={
        "game": game, "players": info["min_players"], "seed": 11}, timeout=30).json()
    out.append(literal(f"{game}_created", f"{p}SessionCreated", created))
    sid = created["session_id"]
    seats = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
    shown, step = created, 0
    while shown["to_move"] and step < MAX_MOVES:
        seat = shown["to_move"][0]
        listed = requests.get(f"{url}/v1/sessions/{sid}/legal-moves", headers=seats[seat],
                              timeout=30).json()
        if step == 0:
            hint = requests.get(f"{url}/v1/sessions/{sid}/hint?level=random",
                                headers=seats[seat], timeout=60).json()
            out.append(literal(f"{game}_hint", f"{p}HintAnswer", hint))
        moved = requests.post(f"{url}/v1/sessions/{sid}/moves", headers=seats[seat],
                              json={"move": listed["moves"][step % len(listed["moves"])]},
                              timeout=30)
        assert moved.status_code == 200, moved.text
        shown = moved.json()
        if step < RECORDED_STEPS:
            out.append(literal(f"{game}_listed_{step}", f"{p}SessionLegalMoves", listed))
            out.append(literal(f"{game}_moved_{step}", f"{p}SessionMoved", shown))
            view = requests.get(f"{url}/v1/sessions/{sid}", headers=seats[1], timeout=30)
            out.append(literal(f"{game}_view_{step}", f"{p}SessionView", view.json()))
        step += 1
    assert shown["to_move"] == [], f"{game} did not end"
    public = {"Authorization": f"Bearer {created['spectator_token']}"}
    for name, headers in (("spectator", public), ("seat1", seats[1])):
        log = requests.get(f"{url}/v1/sessions/{sid}/log", headers=headers, timeout=60).json()
        out.append(literal(f"{game}_log_{name}", f"{p}SessionLog", log))
    score = requests.get(f"{url}/v1/sessions/{sid}/score", headers=seats[1], timeout=30)
    out.append(literal(f"{game}_score", f"{p}SessionScore", score.json()))
    frames = read_stream(live_stack, sid, created["spectator_token"], shown["version"])
    assert len(frames) >= step, f"{game}: {len(frames)} frames for {step} moves"
    out.append(f"export const {game}_stream: S[\"{p}SessionEvent\"][] = "
               f"{json.dumps(frames, ensure_ascii=False)};\n")
    return "".join(out)


HEADER = 'import type { components, paths } from "./schema";\ntype S = components["schemas"];\n'

#: what compiles: the answers' unions narrow on game and type, and a new session (or a
#: stateless new game) needs only its game and players, any option alone
NARROWING = HEADER + '''
type Created = paths["/v1/sessions"]["post"]["requestBody"]["content"]["application/json"];
export const smallest: Created = { game: "vectron", players: 2 };
export const oneOption: Created = { game: "gematon", players: 2, options: { draft: true } };
type NewGame = S["GematonNewRequest"];  // the stateless route's body: options each optional
export const statelessOneOption: NewGame = { players: 2, options: { draft: true } };
type Join = paths["/v1/sessions/join"]["post"]["requestBody"]["content"]["application/json"];
export const join: Join = { code: "K4TM-9XQR" };

export function moveTypes(listed: S["SessionLegalMoves"]): string[] {
  if (listed.game === "vectron") {
    return listed.moves.map((move) => move.type === "draw" ? `draw from ${move.source}`
                                                           : move.type);
  }
  return listed.moves.map((move) => move.type);
}

export function frameVersion(frame: S["GizmosSessionEvent"]): number | null {
  switch (frame.event) {
    case "state": return frame.data.version;
    case "setup": case "move": case "correction": case "seats": case "dispute":
      return frame.data.version;
    case "revoked": case "end": return null;
    default: { const never: never = frame; return never; }
  }
}

export function built(event: S["GizmosEvent"]): number | null {
  return event.type === "built" ? event.card : null;
}
'''

#: each must fail to compile, with this TypeScript error code
MISTAKES = {
    "another game's move on a game's stateless route": (
        ('type Apply = paths["/v1/games/vectron/apply"]["post"]["requestBody"]'
         '["content"]["application/json"];\n'
         'export const move: Apply["move"] = { type: "push", seat: 1, chip: 2 };\n'),
        "TS2322"),
    "another game's move in a game's session answer": (
        ('export const listed: S["SessionLegalMoves"] = { game: "vectron", version: 1, '
         'to_move: [1], moves: [{ type: "push", seat: 1, chip: 2 }] };\n'), "TS2322"),
    "a session view without a required field": (
        ('export const view: S["GhostoneSessionView"] = { session_id: "x", game: "ghostone", '
         'mode: "digital", to_move: [], started: true, seats: [], '
         'you: { role: "spectator", seat: null }, view: {} as S["GhostoneView"] };\n'),
        "TS2741"),
    "an event type the game does not have": (
        'export const event: S["VectronEvent"] = { type: "chip_pushed", seat: 1, chip: 2 };\n',
        "TS2322"),
    "a field no answer has": (
        'export const seat: S["SeatToken"] = { seat: 1, colour: "red" };\n', "TS2353"),
}


def test_every_recorded_answer_compiles_as_its_type(live_stack, types):
    source = HEADER + "".join(record_game(live_stack, game, game[:1].upper() + game[1:])
                              for game in sorted(installed_games()))
    checked = compile_ts(types, "answers.ts", source)
    assert checked.returncode == 0, checked.stdout[-6000:]
    narrowing = compile_ts(types, "narrowing.ts", NARROWING)
    assert narrowing.returncode == 0, narrowing.stdout[-3000:]


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_deliberate_type_mistake_does_not_compile(types, mistake):
    body, code = MISTAKES[mistake]
    name = re.sub(r"\W+", "_", mistake) + ".ts"
    checked = compile_ts(types, name, HEADER + body)
    assert checked.returncode != 0, f"{mistake}: compiled"
    assert f"error {code}" in checked.stdout, checked.stdout[-2000:]


def test_the_typescript_client_plays_a_game_of_every_game(live_stack, types, tmp_path):
    """client/typescript compiled with tsc --strict against the served document's types;
    node runs the compiled script, which plays a seeded game of every game with it."""
    client = ROOT / "client" / "typescript"
    for part in ("src", "test"):
        shutil.copytree(client / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("schema.d.ts"))
    for name in ("package.json", "tsconfig.json"):
        shutil.copy(client / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(client / "node_modules")
    shutil.copy(types / "schema.d.ts", tmp_path / "src" / "schema.d.ts")
    built = subprocess.run([tool("tsc"), "-p", "tsconfig.json"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-4000:]
    # the session move route, typed by the session's game in the client: another game's
    # move does not compile (the document alone cannot say it: the game is in the session)
    (tmp_path / "mistake.ts").write_text(
        'import type { Session } from "./src/index.js";\n'
        'export const wrong = (s: Session<"vectron">) => '
        's.move({ type: "push", seat: 1, chip: 2 });\n')
    refused = subprocess.run(
        [tool("tsc"), "--strict", "--noEmit", "--module", "NodeNext", "--moduleResolution",
         "NodeNext", "--target", "es2022", "--lib", "es2022,dom", "mistake.ts"],
        cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert refused.returncode != 0 and "error TS2322" in refused.stdout, refused.stdout
    played = subprocess.run(["node", "dist/test/play.js", live_stack.url], cwd=tmp_path,
                            capture_output=True, text=True, timeout=1200)
    assert played.returncode == 0, played.stderr[-4000:]
    printed = json.loads(played.stdout.strip().splitlines()[-1])
    results = printed["results"]
    assert printed["started"] is True and len(set(printed["joined"])) == 3, printed  # joins
    assert printed["unknownCode"] == "unknown_join_code", printed
    # companion: awaiting() and enter() played a whole Three Magic game, each phone its own
    companion = printed["companion"]
    assert companion["final"] is True and companion["awaitingAtEnd"] is None, companion
    assert companion["private"] > 24 and companion["public"] > 0, companion  # 24: the deal
    assert companion["moves"] > 0 and companion["refused"] == "403 not_your_entry", companion
    assert sorted(r["game"] for r in results) == sorted(installed_games())
    for result in results:
        game = result["game"]
        assert result["moves"] > 0 and result["final"] is True and result["winners"], result
        # the stream, read in two halves, the second resumed: every version once, in order
        assert result["versions"] == sorted(set(result["versions"])), game
        assert result["versions"][-1] == result["version"], game
        assert result["spectatorVersion"] == result["version"], game  # the newest kept
        assert result["refused"] == "403 forbidden", (game, result["refused"])
        assert result["log"] >= result["moves"], game
