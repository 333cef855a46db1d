// A TypeScript client of the tabletop-referee API, typed per game from the served
// OpenAPI document (src/schema.d.ts, made by openapi-typescript: `npm run types`).
// The twin of referee_client: sessions, joins, moves with an automatic
// Idempotency-Key and If-Match, typed errors, and the event stream with resume
// (Last-Event-ID) and the newest-version rule. No runtime dependency beyond fetch.
import type { components, paths } from "./schema.js";
import { RefereeError, problemOf } from "./errors.js";
import { frames } from "./sse.js";

export { RefereeError, isIllegalMove } from "./errors.js";
export type { Code, Problem } from "./errors.js";

type S = components["schemas"];
/** the games the document knows */
export type Game = S["SessionView"]["game"];
/** each game's own component of one kind: Named<"View">["vectron"] is VectronView (a
 * mapped type, so Named<K>[G] stays one type in generic code) */
type Named<Kind extends string> = { [G in Game]: S[`${Capitalize<G>}${Kind}` & keyof S] };
export type Of<G extends Game, Kind extends string> = Named<Kind>[G];

export type LegalMoves<G extends Game> = Named<"SessionLegalMoves">[G];
/** a move of game G: one object of its legal moves (generic code posts back a listed move),
 * for a named game its move union, discriminated by `type` */
export type Move<G extends Game> = LegalMoves<G>["moves"][number];
export type View<G extends Game> = Named<"View">[G];
export type GameEvent<G extends Game> = Named<"Event">[G];
export type SessionView<G extends Game> = Named<"SessionView">[G];
export type SessionCreated<G extends Game> = Named<"SessionCreated">[G];
export type Moved<G extends Game> = Named<"SessionMoved">[G];
export type Log<G extends Game> = Named<"SessionLog">[G];
export type Score<G extends Game> = Named<"SessionScore">[G];
export type Hint<G extends Game> = Named<"HintAnswer">[G];
export type Corrected<G extends Game> = Named<"Corrected">[G];
/** one frame of the event stream: `event` tells which, `data` is typed by it */
export type Frame<G extends Game> = Named<"SessionEvent">[G];
/** a new session of game G: just `{game, players}`, or with seed, mode, options… */
export type CreateOf<G extends Game> = Named<"CreateSessionRequest">[G];
export type CreateRequest =
  paths["/v1/sessions"]["post"]["requestBody"]["content"]["application/json"];
export type JoinRequest =
  paths["/v1/sessions/join"]["post"]["requestBody"]["content"]["application/json"];
export type Joined = S["Joined"];
/** companion mode: whose entry the session waits for — a seat, or "table" (a public outcome:
 * the table token or any seat enters it); never what */
export type Awaiting = NonNullable<View<Game>["awaiting"]>;
/** a chance outcome of game G as this token enters it (companion or tabletop mode) */
export type Entry<G extends Game> = Extract<Move<G>, { seat: "chance" }>;
/** the fields that name an entry: `{ card: "R5" }`, `{ chip: 4 }` (any one entry's fields) */
export type EntryFields<G extends Game> =
  Entry<G> extends infer E ? (E extends unknown ? Partial<Omit<E, "seat" | "p" | "text">> : never)
    : never;

export interface Options {
  /** Accept-Language: texts and error details in this language (en, ja) */
  language?: string;
  /** the fetch to use (default: the global one) */
  fetch?: typeof fetch;
  /** attempts after a 429/503 or a connection that failed (default 3) */
  retries?: number;
}

const RETRY = new Set([429, 503]);
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

export class Referee {
  readonly url: string;
  readonly language?: string;
  readonly retries: number;
  private readonly fetcher: typeof fetch;

  constructor(url = "http://127.0.0.1:8000", options: Options = {}) {
    this.url = url.replace(/\/$/, "");
    this.language = options.language;
    this.retries = options.retries ?? 3;
    this.fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Send; answer the JSON body (undefined for 204); throw a typed RefereeError.
   * `idempotent`: may be sent again after a failed connection (GETs, keyed POSTs). */
  async request<T>(method: string, path: string, init: {
    token?: string; body?: unknown; headers?: Record<string, string>; idempotent?: boolean;
  } = {}): Promise<T> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers["Authorization"] = `Bearer ${init.token}`;
    if (this.language) headers["Accept-Language"] = this.language;
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.retries;
      let answer: Response;
      try {
        answer = await this.fetcher(this.url + path, {
          method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });
      } catch (error) {
        if (last || !init.idempotent) {
          throw new RefereeError(0, { code: "connection_failed", detail: String(error) });
        }
        await pause(200 * 2 ** attempt);
        continue;
      }
      if (RETRY.has(answer.status) && !last) {
        const after = Number(answer.headers.get("Retry-After"));
        await answer.body?.cancel();
        await pause(after > 0 ? Math.min(after, 10) * 1000 : 200 * 2 ** attempt);
        continue;
      }
      if (answer.status >= 400) throw await problemOf(answer);
      return (answer.status === 204 ? undefined : await answer.json()) as T;
    }
  }

  games(): Promise<S["GamesAnswer"]> {
    return this.request("GET", "/v1/games", { idempotent: true });
  }

  /** A new session: just `{game, players}`, or with seed, mode, options, seats, bots. */
  async create<G extends Game>(body: CreateOf<G> & { game: G }): Promise<Table<G>> {
    const created = await this.request<SessionCreated<G>>("POST", "/v1/sessions", { body });
    return new Table(this, body.game, created);
  }

  /** Take a seat with a join code (or a lobby table's session id). */
  async join<G extends Game>(game: G, body: JoinRequest): Promise<Session<G>> {
    const joined = await this.request<Joined>("POST", "/v1/sessions/join", { body });
    if (joined.game !== game) {
      throw new RefereeError(400, { code: "bad_request",
        detail: `this join code is for ${joined.game}, not ${game}` });
    }
    return new Session(this, game, joined.session_id, joined.token, joined.version);
  }

  session<G extends Game>(game: G, sessionId: string, token: string): Session<G> {
    return new Session(this, game, sessionId, token);
  }
}

/** What creating a session answered, and a handle per token. */
export class Table<G extends Game> {
  constructor(readonly referee: Referee, readonly game: G,
              readonly created: SessionCreated<G>) {}
  get sessionId(): string { return this.created.session_id; }
  /** a seat's handle (assigned seats: its token is in the answer) */
  seat(seat: number): Session<G> {
    const found = this.created.seats.find((s) => s.seat === seat);
    if (!found?.token) throw new Error(`seat ${seat} has no token here (open or a bot)`);
    return new Session(this.referee, this.game, this.sessionId, found.token,
                       this.created.version);
  }
  table(): Session<G> {
    return new Session(this.referee, this.game, this.sessionId, this.created.table_token,
                       this.created.version);
  }
  spectator(): Session<G> {
    return new Session(this.referee, this.game, this.sessionId, this.created.spectator_token,
                       this.created.version);
  }
}

export interface ChangeOptions {
  /** the version the change was chosen on: true pins the newest seen (412 if it moved on) */
  ifMatch?: number | boolean;
  /** a retry after a lost answer reuses one key (default: a fresh one per call) */
  idempotencyKey?: string;
}

/** One token's handle on a session; `version` is the newest any answer or frame showed
 * (an answer read after the stream's news of later versions never takes it back). */
export class Session<G extends Game> {
  readonly path: string;
  constructor(readonly referee: Referee, readonly game: G, readonly sessionId: string,
              readonly token: string, public version?: number) {
    this.path = `/v1/sessions/${encodeURIComponent(sessionId)}`;
  }

  private saw(version: number): void {
    if (this.version === undefined || version > this.version) this.version = version;
  }

  private async call<T>(method: string, tail = "", init: {
    body?: unknown; headers?: Record<string, string>; idempotent?: boolean } = {}): Promise<T> {
    const answer = await this.referee.request<T>(method, this.path + tail,
                                                 { ...init, token: this.token });
    const version = (answer as { version?: unknown } | undefined)?.version;
    if (typeof version === "number") this.saw(version);
    return answer;
  }

  private change<T>(tail: string, body: unknown, options: ChangeOptions): Promise<T> {
    const headers: Record<string, string> = {
      "Idempotency-Key": options.idempotencyKey ?? crypto.randomUUID() };
    const pinned = options.ifMatch === true ? this.version : options.ifMatch;
    if (typeof pinned === "number") headers["If-Match"] = `"${pinned}"`;
    return this.call<T>("POST", tail, { body, headers, idempotent: true });
  }

  view(): Promise<SessionView<G>> { return this.call("GET", "", { idempotent: true }); }
  /** `{ card, spend }` (Gizmos): every Converter set of that spend; the listing holds one
   *  Build per card and spend (`other_converters: true` when it has more) */
  legalMoves(filter: { card?: number; type?: string; spend?: string[] } = {}): Promise<LegalMoves<G>> {
    const query = new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)]));
    const tail = query.size ? `/legal-moves?${query}` : "/legal-moves";
    return this.call("GET", tail, { idempotent: true });
  }
  score(): Promise<Score<G>> { return this.call("GET", "/score", { idempotent: true }); }
  log(since = 0): Promise<Log<G>> {
    return this.call("GET", `/log?since=${since}`, { idempotent: true });
  }
  hint(level: "random" | "greedy" | "strong" = "greedy"): Promise<Hint<G>> {
    return this.call("GET", `/hint?level=${level}`, { idempotent: true });
  }
  /** Play a move of this session's game (another game's move does not compile). */
  move(move: Move<G>, options: ChangeOptions = {}): Promise<Moved<G>> {
    return this.change("/moves", { move }, options);
  }
  /** Companion mode: whose entry the session waits for (undefined: none). */
  async awaiting(): Promise<Awaiting | undefined> {
    const shown: { view: { awaiting?: Awaiting } } = await this.view();
    return shown.view.awaiting;
  }
  /** Companion (or tabletop) mode: enter the chance outcome this token holds, named by its
   * fields (`enter({ card: "R5" })`): the one listed entry that has them. Where none is
   * listed it is sent as named, so that the referee answers why (a RefereeError:
   * impossible_entry, entry_conflict, not_your_entry). The twin of referee_client's. */
  async enter(fields: EntryFields<G>, options: ChangeOptions = {}): Promise<Moved<G>> {
    const listed = (await this.legalMoves()).moves.filter((m) => m.seat === "chance");
    const wanted = Object.entries(fields as Record<string, unknown>);
    const found = listed.filter((m) => wanted.every(([k, v]) => (m as Record<string, unknown>)[k] === v));
    if (found.length > 1) {
      throw new Error(`${found.length} listed entries have ${JSON.stringify(fields)}: name more fields`);
    }
    const shape = Object.fromEntries(Object.entries(listed[0] ?? {})
      .filter(([k]) => k !== "p" && k !== "text"));
    const move = found[0] ?? ({ ...shape, seat: "chance", ...fields } as unknown as Move<G>);
    return this.move(move, options);
  }
  undo(toVersion?: number, options: ChangeOptions = {}): Promise<Corrected<G>> {
    return this.change("/undo", toVersion === undefined ? {} : { to_version: toVersion },
                       options);
  }
  async delete(): Promise<void> { await this.call("DELETE"); }

  /** The session's frames for this token, resuming after `since` (undefined: the `state`
   * frame first, then live). A dropped stream resumes with Last-Event-ID, so no version
   * is skipped; it ends after `end` or `revoked`, or when the caller stops. */
  async *events(since?: number, { reconnects = 20, signal }: {
    reconnects?: number; signal?: AbortSignal } = {}): AsyncGenerator<Frame<G>> {
    let last = since;
    let wait = 1000;
    let failures = 0;
    const referee = this.referee;
    for (;;) {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${this.token}`, Accept: "text/event-stream" };
      if (referee.language) headers["Accept-Language"] = referee.language;
      if (last !== undefined) headers["Last-Event-ID"] = String(last);
      try {
        const answer = await fetch(referee.url + this.path + "/events", { headers, signal });
        if (RETRY.has(answer.status)) {
          const after = Number(answer.headers.get("Retry-After"));
          await answer.body?.cancel();
          throw new Again(after > 0 ? after * 1000 : wait);
        }
        if (answer.status >= 400 || !answer.body) throw await problemOf(answer);
        failures = 0;
        for await (const item of frames(answer.body)) {
          if (typeof item === "number") { wait = item; continue; }
          const frame = { event: item.event, data: JSON.parse(item.data) } as Record<string, unknown>;
          if (item.id !== undefined && /^\d+$/.test(item.id)) {
            frame.id = item.id;
            last = Number(item.id);
            this.saw(last);
          }
          yield frame as Frame<G>;
          if (item.event === "end" || item.event === "revoked") return;
        }
      } catch (error) {
        if (error instanceof RefereeError || signal?.aborted) throw error;
        if (++failures > reconnects) {
          throw new RefereeError(0, { code: "stream_lost", detail: String(error) });
        }
        await pause(error instanceof Again ? error.ms : wait);
        continue;
      }
      if (++failures > reconnects) return; // the server closed it (a replica stopping)
      await pause(wait);
    }
  }
}

class Again extends Error {
  constructor(readonly ms: number) { super("the referee asked to retry"); }
}
