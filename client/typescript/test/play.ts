// Plays a seeded game of every game named on the command line with the client, against
// a live referee, and prints what it saw as JSON (tests/test_typescript_client.py reads
// it). Every move is one the session listed, sent with If-Match pinned to the newest
// version seen; the spectator's stream is read in two halves (the second resumed from
// the last frame's id), and a move out of turn must come back as a typed error.
import {
  Referee, RefereeError, type Frame, type Game, type Session, type Table,
} from "../src/index.js";

declare const process: { argv: string[]; exitCode?: number };

async function frames<G extends Game>(session: Session<G>, since: number | undefined,
                                      until: number): Promise<Frame<G>[]> {
  const seen: Frame<G>[] = [];
  for await (const frame of session.events(since)) {
    seen.push(frame);
    if (frame.id !== undefined && Number(frame.id) >= until) break;
  }
  return seen;
}

/** a seeded generator (mulberry32): the same game every run, and random play ends games */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function play<G extends Game>(table: Table<G>) {
  const random = seeded(7);
  const game = table.game;
  const seats = new Map(table.created.seats.map((s) => [s.seat, table.seat(s.seat)]));
  const spectator = table.spectator();
  let shown: { to_move: (number | "chance")[]; version: number } = await spectator.view();
  let moves = 0;
  let refused = "";
  while (shown.to_move.length && moves < 3000) {
    const seat = shown.to_move[0];
    if (typeof seat !== "number") throw new Error(`a digital game asked for ${seat}`);
    const session = seats.get(seat)!;
    const listed = await session.legalMoves();
    if (!refused && seats.size > 1) {  // another seat's token: 403, typed
      const other = [...seats.entries()].find(([s]) => s !== seat)![1];
      try {
        await other.move(listed.moves[0], { ifMatch: true });
      } catch (error) {
        if (error instanceof RefereeError) refused = `${error.status} ${error.code}`;
      }
    }
    const move = listed.moves[Math.floor(random() * listed.moves.length)];
    const moved = await session.move(move, { ifMatch: true });
    if (moved.version !== session.version) throw new Error("the newest version was not kept");
    shown = moved;
    moves++;
  }
  const score = await seats.get(1)!.score();
  const last = shown.version;
  const half = Math.floor(last / 2);
  const first = await frames(spectator, 0, half);
  const resumeFrom = Number(first[first.length - 1].id);
  const rest = await frames(spectator, resumeFrom, last);
  const versions = [...first, ...rest].flatMap((f) => f.id ? [Number(f.id)] : []);
  const log = await spectator.log();
  return { game, moves, version: last, final: score.final, winners: score.winners,
           versions, log: log.entries.length, refused, spectatorVersion: spectator.version };
}

/** A whole companion game of Three Magic: three phones joined by code, each entering the
 * cards dealt or drawn into its own hand with enter(), the table device the indicators; a
 * card another hand really holds is refused (entry_conflict) and the phone picks again. */
async function companion(referee: Referee) {
  const random = seeded(11);
  const table = await referee.create({ game: "threemagic", players: 3, mode: "companion",
                                       seats: "open" });
  const phones = new Map<number, Session<"threemagic">>();
  for (let n = 1; n <= 3; n++) {
    const phone = await referee.join("threemagic", { code: table.created.join_code!, seat: n });
    phones.set(n, phone);
  }
  const device = table.table();
  const counts = { private: 0, public: 0, moves: 0, conflicts: 0, refused: "", awaitedSeen: 0 };
  for (let step = 0; step < 4000; step++) {
    const shown = await device.view();
    if (!shown.to_move.length) break;
    const awaited = await device.awaiting();
    if (awaited !== undefined) {
      counts.awaitedSeen++;
      const entrant = awaited === "table" ? device : phones.get(awaited)!;
      const listed = (await entrant.legalMoves()).moves;
      const pick = listed[Math.floor(random() * listed.length)];
      if (!("card" in pick)) throw new Error(`an entry without a card: ${JSON.stringify(pick)}`);
      if (awaited !== "table" && !counts.refused) {  // another token may not enter it
        try {
          await device.enter({ card: pick.card });
        } catch (error) {
          if (error instanceof RefereeError) counts.refused = `${error.status} ${error.code}`;
        }
      }
      try {
        await entrant.enter({ card: pick.card });
      } catch (error) {
        if (!(error instanceof RefereeError) || error.code !== "entry_conflict") throw error;
        counts.conflicts++;  // the card is in another hand: the loop picks again
        continue;
      }
      if (awaited === "table") counts.public++; else counts.private++;
      continue;
    }
    const seat = shown.to_move[Math.floor(random() * shown.to_move.length)];
    if (typeof seat !== "number") throw new Error("chance without an awaited entrant");
    const phone = phones.get(seat)!;
    const moves = (await phone.legalMoves()).moves;
    await phone.move(moves[Math.floor(random() * moves.length)]);
    counts.moves++;
  }
  const score = await device.score();
  return { ...counts, final: score.final, awaitingAtEnd: (await device.awaiting()) ?? null };
}

const [url] = process.argv.slice(2);
const referee = new Referee(url);
const fewest = new Map((await referee.games()).games.map((g) => [g.game, g.min_players ?? 2]));
// each game by name: the create body, and everything after it, typed by the game
const results = [
  await play(await referee.create({ game: "gematon", players: fewest.get("gematon")!, seed: 3 })),
  await play(await referee.create({ game: "ghostone", players: fewest.get("ghostone")!, seed: 3 })),
  await play(await referee.create({ game: "gizmos", players: fewest.get("gizmos")!, seed: 3 })),
  await play(await referee.create({ game: "threemagic", players: 3, seed: 3 })),
  await play(await referee.create({ game: "vectron", players: fewest.get("vectron")!, seed: 3 })),
];
// open seats: the table's join code read aloud, each player joins with it
const open = await referee.create({ game: "ghostone", players: 3, seats: "open" });
const joined = [];
for (let seat = 1; seat <= 3; seat++) {
  joined.push(await referee.join("ghostone", { code: open.created.join_code! }));
}
const started = (await joined[2].view()).started;
let wrongGame = "";
try {
  await referee.join("vectron", { code: "ZZZZ-ZZZZ" });
} catch (error) {
  if (error instanceof RefereeError) wrongGame = error.code;
}
console.log(JSON.stringify({ results, joined: joined.map((s) => s.version), started,
                             unknownCode: wrongGame, companion: await companion(referee) }));
