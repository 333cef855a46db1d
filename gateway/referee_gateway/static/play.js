// A table: the picture, live from the event stream; the legal moves as buttons (and, where
// the picture names a plate, cell or card, by clicking it); in tabletop mode what happened
// at the table, with undo and redo; the final score. Everything shown is what the API shows
// this page's token: a seat's token from the URL fragment, or the table token of this tab.
import { call, follow, picture as fetchPicture, componentSchemas, Problem } from "./api.js";
import { isOnline, onChange } from "./connection.js";
import { announce, h, uid } from "./dom.js";
import { fieldLabel, gameTitle, lang, moveText, problemText, t } from "./i18n.js";
import { schemaPrefix } from "./calc.js";
import { tableKey } from "./home.js";
import { SchemaForm } from "./schemaform.js";
import { formatChance, HIDDEN_FIELDS, humanDelay, indexComponents, prefill, sameMove, searchText,
  tokensOf, usedBy, usesOf, withoutListing } from "./moves.js";
import { scoreView } from "./score.js";
import { nextOutcome, recipientField, roundForm } from "./several.js";
import { pictureElement, previewPanel } from "./preview.js";
import { awaitingBanner, companionCanMove, EntryQueue, isOwnEntry } from "./companion.js";
import { chime } from "./sound.js";

const SHOWN = 24;      // buttons listed before "Show all"
const LOG_SHOWN = 12;  // log entries listed
const PICTURE_GAP_MS = 300;  // the least time between two redraws of the picture
// Auto-pass waits as a person deciding would: the referee asks every seat that could act,
// from public information, so that being asked reveals nothing; a pass sent at once would
// tell the table that this seat had nothing else (no call in its hand). A delay drawn anew
// each time, over the span in which people answer, keeps the timing from saying it.
const AUTO_PASS_MS = [1200, 4500];
const autoPassKey = (sid, seat) => `referee:autopass:${sid}:${seat}`;

export async function showPlay(main, sid, token, go) {
  const table = new Table(main, sid, token, go);
  await table.start();
  return () => table.stop();
}

/** A random Idempotency-Key (crypto.randomUUID needs a secure context; this does not). */
function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

class Table {
  constructor(main, sid, token, go) {
    Object.assign(this, { main, sid, token, go });
    this.path = `/v1/sessions/${encodeURIComponent(sid)}`;
    this.tableToken = sessionStorage.getItem(tableKey(sid));
    this.log = new Map();  // version → entry
    this.moves = [];
    this.pick = null;      // what was clicked on the picture: {label, uses}
    this.showAll = false;
    this.banner = "";
    this.pending = null;   // a move tapped while offline: {move, key, version, text}
    this.queue = new EntryQueue();  // companion: a seat's cards of a deal, entered in turn
    this.actions = 0;      // presses under way (a move, an undo): see acting()
  }

  async start() {
    const summary = await call("GET", this.path, { token: this.token });
    this.info = await call("GET", `/v1/games/${encodeURIComponent(summary.game)}`);
    // a game with a pass offers its seats auto-pass
    this.hasPass = Boolean((await componentSchemas())[`${schemaPrefix(summary.game)}Move_pass`]);
    this.apply(summary);
    this.layout();
    await this.loadLog();
    this.stream = follow(this.sid, this.token, (event) => this.onEvent(event), (end) => this.onEnd(end));
    this.unwatch = onChange((online) => { if (online) this.resync(); });
    await this.refresh();
  }

  stop() {
    this.left = true;  // another screen owns main now: a pass still under way must not touch it
    this.main.classList.remove("docked");
    if (this.stream) this.stream.stop();
    if (this.unwatch) this.unwatch();
  }

  /** The connection is back: send the move kept meanwhile, then read the session as it is
   *  now (the stream resumes by itself from the last event it saw). */
  async resync() {
    if (this.left || this.stopped || this.resyncing) return;
    this.resyncing = true;
    try {
      if (this.pending) await this.sendPending();
      this.apply(await call("GET", this.path, { token: this.token }));
      await this.loadLog();
      await this.refresh();
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      // offline again: the connection's next return resyncs
      if (error.code !== "offline") this.showError(error);
    } finally {
      this.resyncing = false;
    }
  }

  apply(summary) {
    // An answer read after the stream brought later versions (a bot answers a move before
    // the browser reads the move's own answer) is older than the screen: it must not turn
    // the screen back, or the seat would wait for a turn already taken.
    if (summary.version < this.version) return;
    Object.assign(this, {
      game: summary.game, mode: summary.mode, version: summary.version, toMove: summary.to_move,
      started: summary.started, seats: summary.seats, role: summary.you.role, seat: summary.you.seat,
    });
    if (summary.view) this.awaiting = summary.view.awaiting;  // companion: whose entry, never what
    if (summary.join_code) this.joinCode = summary.join_code;
    // a table opened from its link: this tab keeps it too (a host who takes a seat still starts it)
    if (this.role === "table" && !this.tableToken) {
      this.tableToken = this.token;
      sessionStorage.setItem(tableKey(this.sid), this.token);
    }
  }

  get over() { return this.started && this.toMove.length === 0; }

  /** Something this seat could take back: the table's last entry is this seat's own move
   *  (the referee may still refuse, naming why: a secret it revealed). */
  get canTakeBack() {
    const last = this.log.get(this.version);
    // companion: its own private entry too (the log's "by" says who entered it)
    return Boolean(last && !last.undone && last.move
      && (last.move.seat === this.seat || last.by === `seat:${this.seat}`));
  }

  get canMove() {
    if (!this.started || !this.toMove.length) return false;
    if (this.mode === "companion") return companionCanMove(this);
    if (this.role === "seat") return this.toMove.includes(this.seat);
    return this.role === "table" && this.mode === "tabletop";
  }

  // ------------------------------------------------------------------ layout
  layout() {
    const you = this.role === "seat" ? t("play.youSeat", { n: this.seat }) : t(`play.you.${this.role}`);
    // focusable by script: where focus goes when a move leaves this device nothing to do
    this.bannerBox = h("p", { class: "banner", id: "banner", tabindex: "-1" });
    // a move kept while offline, or dropped because the position changed meanwhile
    this.noticeBox = h("p", { class: "notice", id: "notice", hidden: true });
    this.hostBox = h("section", { class: "host", "aria-label": t("play.hostLabel"), hidden: true });
    this.pictureHost = h("div", { class: "picture", id: "picture" });
    this.pictureRoot = this.pictureHost.attachShadow({ mode: "open" });
    this.pictureHost.addEventListener("click", (event) => this.clicked(event));
    this.movesBox = h("section", { class: "moves", id: "moves", "aria-labelledby": "moves-title" });
    this.fixBox = h("section", { class: "corrections dock", id: "dock", hidden: true, "aria-label": t("play.corrections") });
    this.scoreBox = h("div", { id: "score" });
    this.logList = h("ol", { class: "log" });
    this.main.replaceChildren(
      h("p", {}, h("a", { href: "#" }, t("back"))),
      h("h1", {}, gameTitle(this.info)),
      h("p", { class: "who" }, `${you} · ${t(`mode.short.${this.mode}`)}`),
      this.bannerBox, this.noticeBox, this.fixBox, this.hostBox, this.scoreBox,
      h("div", { class: "board" }, this.pictureHost, h("div", { class: "side" }, this.movesBox)),
      h("section", { "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, t("play.log")), this.logList),
      this.deviceSection());
    this.main.dataset.screen = "play";
  }

  deviceSection() {
    const leave = this.role === "seat" ? h("button", { type: "button", class: "secondary small", onclick: async () => {
      if (!window.confirm(t("play.leaveConfirm"))) return;
      await this.act("POST", "/leave", {});
    } }, t("play.leave")) : null;
    return h("section", { class: "device", "aria-labelledby": "device-title" },
      h("h2", { id: "device-title" }, t("play.device")),
      h("p", {}, t(`play.keep.${this.role}`)), leave,
      this.role === "table" ? this.handOff() : null);
  }

  /** The table's link (its token in the fragment, as a seat's link has its own), shown on
   *  demand to open on another device, as text and as a QR code. */
  handOff() {
    const link = `${window.location.origin}${window.location.pathname}`
      + `#play=${encodeURIComponent(this.sid)}&token=${encodeURIComponent(this.token)}`;
    const id = uid("link");
    const field = h("input", { id, type: "text", readonly: true, value: link, class: "link",
      onfocus: (event) => event.target.select() });
    const code = h("div", { class: "qr", id: "handoff-qr" });
    const copied = h("span", { class: "hint", "aria-live": "polite" });
    const box = h("details", { class: "handoff", id: "handoff" },
      h("summary", {}, t("play.handOff")),
      h("p", {}, t("play.handOffHint")),
      h("div", { class: "field" }, h("label", { for: id }, t("play.tableLink")), field),
      h("div", { class: "actions" }, h("button", { type: "button", class: "small secondary",
        onclick: async () => {
          field.select();
          try {
            await navigator.clipboard.writeText(link);
            copied.textContent = t("play.copied");
          } catch (error) {
            // no clipboard here (plain http): the link is selected for the device's menu
            copied.textContent = t("play.copyByHand");
          }
        } }, t("play.copy")), copied),
      code);
    box.addEventListener("toggle", () => {
      if (box.open && !code.firstChild) this.drawCode(code, link);
    });
    return box;
  }

  /** The link as a QR code, drawn by the gateway (the segno library) into inline SVG. */
  async drawCode(host, link) {
    try {
      const svg = await call("POST", "/page/qr.svg", { body: { text: link } });
      const drawn = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
      if (drawn.nodeName !== "svg") return;
      drawn.setAttribute("role", "img");
      drawn.setAttribute("aria-label", t("play.qrLabel"));
      host.replaceChildren(document.importNode(drawn, true));
    } catch (problem) {
      const why = problem instanceof Problem ? problemText(problem) : String(problem);
      host.replaceChildren(h("p", { class: "hint" }, why));
    }
  }

  // ------------------------------------------------------------------ live
  onEvent(event) {
    const data = JSON.parse(event.data);
    if (event.event === "state") {
      this.apply(data);
      this.refresh();
      return;
    }
    if (data.entry) this.log.set(data.entry.version, data.entry);
    if (data.kind === "correction") this.loadLog();
    else this.renderLog();
    if (data.kind === "seats") {  // who sits where, and whether the game started
      call("GET", this.path, { token: this.token }).then((s) => { this.apply(s); this.refresh(); }, () => {});
      return;
    }
    if (data.version > this.version) {  // news: this page's own moves are shown already
      this.version = data.version;
      this.toMove = data.to_move;
      if (data.view) this.awaiting = data.view.awaiting;
      this.refresh();
    }
  }

  onEnd(end) {
    this.stopped = true;
    const why = end instanceof Problem ? problemText(end) : t(`play.ended.${end.event}`);
    this.bannerBox.textContent = why;
    this.bannerBox.className = "banner alert";
    this.movesBox.replaceChildren();
    announce(why);
  }

  async loadLog() {
    const since = Math.max(0, this.version - LOG_SHOWN * 2);
    const answer = await call("GET", `${this.path}/log?since=${since}`, { token: this.token }).catch(() => null);
    if (answer) for (const entry of answer.entries) this.log.set(entry.version, entry);
    this.renderLog();
  }

  /** Bring the screen to the session's version; one pass at a time, again if it moved on.
   *  A call made while a pass is under way waits for the passes to end: whoever awaits it
   *  sees the screen (and its listing) as of its own call, or later. */
  refresh() {
    if (this.left) return Promise.resolve();
    if (this.refreshing) {
      this.again = true;
      return this.refreshed;
    }
    this.refreshing = true;
    this.refreshed = this.refreshPasses();
    return this.refreshed;
  }

  async refreshPasses() {
    this.main.dataset.busy = "true";
    try {
      do {
        this.again = false;
        await this.render();
      } while (this.again && !this.left);
    } catch (error) {
      // offline: the status line says so, and the connection's return refreshes again
      if (!(error instanceof Problem && error.code === "offline")) this.showError(error);
      // a game service busy for a moment (503): read again when it said to, or a device
      // would wait on a listing nobody asks for again (a companion phone's private entry)
      if (error instanceof Problem && error.status === 503) {
        setTimeout(() => this.refresh(), 1000 * (Number(error.body.retry_after) || 2));
      }
    } finally {
      this.refreshing = false;
      if (!this.left) {
        this.payFocus();
        this.main.dataset.version = String(this.version);
        this.main.dataset.busy = this.actions ? "true" : "false";
        if (this.mode === "companion") this.queue.next(this);  // a deal's next card, in turn
      }
    }
  }

  async render() {
    this.updatePicture();
    this.renderHost();
    this.renderBanner();
    this.renderCorrections();
    if (this.canMove && !this.stopped) {
      const listing = await call("GET", `${this.path}/legal-moves`, { token: this.token });
      if (listing.version > this.version) {
        this.version = listing.version;
        this.toMove = listing.to_move;
        // companion: whose entry is awaited now (the listing does not say)
        if (this.mode === "companion") this.apply(await call("GET", this.path, { token: this.token }));
        this.renderBanner();
      }
      if (listing.version < this.version) {  // an older answer: ask again
        this.again = true;
        return;
      }
      this.moves = listing.moves;
      this.ways = null;  // a spend's Converter sets were of the last listing
      this.movesVersion = listing.version;  // what a move from this list is sent If-Match
    } else this.moves = [];
    await this.renderMoves();
    this.autoPass();
    if (this.over) {
      const score = await call("GET", `${this.path}/score`, { token: this.token });
      this.scoreBox.replaceChildren(scoreView(score));
    } else this.scoreBox.replaceChildren();
  }

  // ------------------------------------------------------------------ banner and host
  renderBanner() {
    let text;
    let mine = false;
    const names = this.toMove.map((s) => (s === "chance" ? t("chance") : t("seat", { n: s }))).join(", ");
    const awaited = this.mode === "companion" && this.started ? awaitingBanner(this) : null;
    if (awaited) ({ text, mine } = awaited);
    else if (!this.started) {
      const taken = this.seats.filter((s) => s.status === "taken" || s.status === "bot").length;
      text = t("play.waitingPlayers", { taken, total: this.seats.length });
    } else if (this.over) text = t("play.over");
    else if (this.role === "seat" && this.toMove.includes(this.seat)) {
      text = t("play.yourTurn");
      mine = true;
    } else if (this.canMove) text = this.toMove.includes("chance") ? t("play.enterChance") : t("play.enterMove", { seats: names });
    else text = t("play.waiting", { seats: names });
    this.bannerBox.textContent = text;
    this.bannerBox.className = mine ? "banner your-turn" : "banner";
    if (text !== this.banner) {
      if (mine) chime();
      announce(text);
      this.banner = text;
    }
  }

  renderHost() {
    const host = this.role === "table" ? this.token : this.tableToken;
    if (this.started || !host) {
      this.hostBox.hidden = true;
      return;
    }
    const open = this.seats.filter((s) => s.status === "open");
    const code = this.joinCode;
    this.hostBox.hidden = false;
    this.hostBox.replaceChildren(
      h("h2", {}, t("play.share")),
      code ? h("p", { class: "join-code", "aria-label": t("play.codeSpoken", { code: code.split("").join(" ") }) }, code) : null,
      h("p", {}, t("play.shareHint")),
      h("ul", { class: "seats" }, this.seats.map((s) => h("li", {}, `${t("seat", { n: s.seat })}: ${t(`status.${s.status}`)}`))),
      h("div", { class: "actions" },
        this.role === "table" && code ? open.map((s) => h("button", { type: "button", class: "secondary", onclick: async () => {
          this.main.dataset.busy = "true";  // at once: this screen is about to be replaced
          try {
            const joined = await call("POST", "/v1/sessions/join", { body: { code, seat: s.seat } });
            this.go(`play=${encodeURIComponent(this.sid)}&token=${encodeURIComponent(joined.token)}`);
          } catch (problem) {
            this.main.dataset.busy = "false";
            this.showError(problem);
          }
        } }, t("play.takeSeat", { n: s.seat }))) : null,
        h("button", { type: "button", class: "primary", onclick: () => this.act("POST", "/start", {}, host) },
          t("play.startNow"))));
  }

  // ------------------------------------------------------------------ moves
  async renderMoves() {
    const listed = this.moves.filter((m) => !m.describe);
    const described = this.moves.filter((m) => m.describe);
    // a Build listed once per spend: its other Converter sets, asked for when it is previewed
    const ways = this.ways || [];
    const waiting = this.previewing && [...listed, ...ways].find((m) => sameMove(m, this.previewing));
    this.previewing = waiting || null;  // a move no longer listed is no longer waiting
    if (!waiting) this.ways = null;
    if (waiting) {
      if (waiting.other_converters && !ways.some((m) => sameMove(m, waiting))) {
        const query = `card=${waiting.card}&spend=${waiting.spend.join(",")}`;
        this.ways = (await call("GET", `${this.path}/legal-moves?${query}`, { token: this.token })).moves;
      }
      const panel = await previewPanel(this.path, this.token, waiting, {
        confirm: () => {
          this.previewing = null;
          this.play(waiting);
        },
        back: () => {
          this.previewing = null;
          this.renderMoves().then(() => this.focusNext());
        },
        others: (this.ways || []).filter((m) => !sameMove(m, waiting)),
        pick: (m) => {
          this.previewing = m;
          this.renderMoves().then(() => document.getElementById("preview-confirm")?.focus());
        } });
      this.movesBox.replaceChildren(h("h2", { id: "moves-title" }, t("play.previewTitle")), panel);
      return;
    }
    if (!this.moves.length) {
      this.movesBox.replaceChildren(h("h2", { id: "moves-title", class: "visually-hidden" }, t("play.moves")));
      return;
    }
    const chance = this.moves.every((m) => m.seat === "chance");
    const own = this.mode === "companion" && isOwnEntry(this, this.moves);
    const title = own ? t("companion.pickTitle") : chance ? t("play.chanceTitle") : this.role === "seat" ? t("play.yourMoves")
      : t("play.movesFor", { seats: [...new Set(this.moves.map((m) => m.seat))].map((n) => t("seat", { n })).join(", ") });
    const parts = [h("h2", { id: "moves-title" }, title)];
    if (chance) parts.push(h("p", { class: "hint" }, t(own ? "companion.pickHint" : "play.chanceHint")));
    const queued = own ? this.queue.status(this) : null;
    if (queued) parts.push(queued);
    const filterText = (this.filterInput && this.filterInput.value.trim().toLowerCase()) || "";
    let shown = listed;
    if (this.pick) {
      shown = shown.filter((m) => usedBy(this.pick.uses, tokensOf(m)));
      parts.push(h("p", { class: "pick" }, t("play.picked", { what: this.pick.label, n: shown.length }), " ",
        h("button", { type: "button", class: "small secondary", onclick: () => {
          this.pick = null;
          this.markPicture();
          this.renderMoves();
        } },
          t("play.showEvery"))));
    }
    if (listed.length > SHOWN) {
      const id = uid("filter");
      const keep = this.filterInput && this.filterInput.value;
      this.filterInput = h("input", { id, type: "search", value: keep || "", autocomplete: "off" });
      this.filterInput.addEventListener("input", () => this.renderMoves().then(() => {
        this.filterInput.focus();
      }));
      parts.push(h("div", { class: "field" }, h("label", { for: id }, t("play.filter")), this.filterInput));
    } else this.filterInput = null;
    if (filterText) {
      const words = await this.componentWords();
      shown = shown.filter((m) => searchText(m, words).includes(filterText));
    }
    const visible = this.showAll ? shown : shown.slice(0, SHOWN);
    // one flex item per button: its words and its chance read as one line, however laid out
    parts.push(h("ul", { class: "move-list" }, visible.map((m) => h("li", {}, h("button", {
      type: "button", class: "move", disabled: Boolean(this.pending),
      onclick: () => this.choose(m) }, h("span", {},
        moveText(m), m.p !== undefined ? h("span", { class: "p" }, ` ${formatChance(m.p)}`) : null))))));
    if (shown.length > visible.length) {
      parts.push(h("button", { type: "button", class: "secondary", onclick: () => { this.showAll = true; this.renderMoves(); } },
        t("play.showAll", { n: shown.length })));
    }
    const several = own ? this.queue.picker(this, listed) : await this.severalForm(listed);
    if (several) parts.push(several);
    for (const m of described) parts.push(await this.describedForm(m));
    this.moveError = h("p", { class: "error", role: "alert", hidden: true });
    parts.push(this.moveError);
    // redrawn under a focused button (the stream's news): focus stays among the moves
    const hadFocus = this.movesBox.contains(document.activeElement);
    this.movesBox.replaceChildren(...parts);
    this.movesBox.dataset.filter = filterText;  // what the list shown was filtered by
    if (hadFocus && this.focusOwed === undefined) this.focusNext();
  }

  /** The game's components by id (a card's number, a plate's name) → everything said of
   *  them in both languages (names, colours, kinds, effects): what the filter also reads. */
  componentWords() {
    if (!this.components) {
      this.components = call("GET", `/v1/games/${encodeURIComponent(this.game)}/components`)
        .then(indexComponents, () => new Map());
    }
    return this.components;
  }

  /** Chance outcomes that come several in a row at a table (a display turned up, a hand
   *  dealt): tick them in the order they came, and enter them in one go. */
  async severalForm(listed) {
    if (this.role !== "table" || listed.length < 2 || !listed.every((m) => m.seat === "chance")) return null;
    // dealt round the table: each seat's outcomes picked apart, entered as the referee asks
    const schema = (await componentSchemas())[`${schemaPrefix(this.game)}Move_${listed[0].type}`] || {};
    const field = recipientField(listed, schema, this.seats.length);
    if (field) {
      return roundForm({ listed, field, seats: this.seats.length,
        onEnter: (picks, status, how) => this.enterRound(picks, status, how) });
    }
    const ticked = [];  // in the order ticked: the order they are entered in
    const status = h("p", { class: "hint", "aria-live": "polite" });
    const enter = h("button", { type: "button", class: "primary", id: "several-enter", disabled: true,
      onclick: () => this.enterSeveral(ticked.slice(), status) }, t("play.severalEnter", { n: 0 }));
    const items = listed.map((m) => {
      const id = uid("several");
      const box = h("input", { type: "checkbox", id, onchange: () => {
        if (box.checked) ticked.push(m);
        else ticked.splice(ticked.indexOf(m), 1);
        enter.textContent = t("play.severalEnter", { n: ticked.length });
        enter.disabled = !ticked.length;
      } });
      return h("li", {}, h("label", { class: "inline", for: id }, box, " ", moveText(m)));
    });
    return h("details", { class: "group several", id: "several" },
      h("summary", {}, t("play.several")), h("p", { class: "hint" }, t("play.severalHint")),
      h("ul", { class: "items" }, items), h("div", { class: "actions" }, enter), status);
  }

  /** The ticked outcomes, one after the other, each while the table still lists it (the
   *  listing after an outcome is the referee's: a card turned up is gone from it). */
  async enterSeveral(chosen, status) {
    for (const [done, wanted] of chosen.entries()) {
      const listed = this.moves.find((m) => !m.describe && sameMove(m, wanted));
      if (!listed) {
        this.notice(t("play.severalStopped", { n: done, move: moveText(wanted) }), true);
        return;
      }
      status.textContent = t("play.severalDoing", { n: done + 1, of: chosen.length });
      if (!(await this.play(listed))) return;
    }
  }

  /** Each seat's picked outcomes, one after the other as the referee asks for them (it
   *  lists the outcomes of one seat at a time, round the table). */
  async enterRound(picks, status, how) {
    const count = [...picks.values()].reduce((n, list) => n + list.length, 0);
    for (let done = 0; done < count; done += 1) {
      const listed = this.moves.filter((m) => !m.describe && m.seat === "chance");
      const next = nextOutcome(listed, picks, how);
      if (!next || next.missing) {  // the seat asked for now has none left, or not that one
        const seat = listed.length ? listed[0][how.field] : "";
        this.notice(next ? t("play.severalStopped", { n: done, move: next.missing })
          : t("play.roundLeft", { n: done, seat }), true);
        return;
      }
      picks.get(next[how.field]).shift();
      status.textContent = t("play.severalDoing", { n: done + 1, of: count });
      if (!(await this.play(next))) return;
    }
  }

  /** A chance outcome too varied to list (Vectron's layout): a form from its move schema,
   *  filled in with the listing's pieces in order, for the table to correct. */
  async describedForm(m) {
    const named = await componentSchemas();
    const full = named[`${schemaPrefix(this.game)}Move_${m.type}`] || { type: "object" };
    // what the listing adds (its sentence, its chance) is not the table's to enter
    const schema = { ...full, properties: Object.fromEntries(Object.entries(full.properties || {})
      .filter(([key]) => !HIDDEN_FIELDS.has(key))) };
    const form = new SchemaForm(schema, named, { value: prefill(schema, named, m) });
    return h("form", { class: "described", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      form.clearErrors();
      const ok = await this.play({ ...form.read(), type: m.type, seat: m.seat });
      if (!ok && this.lastProblem) form.showErrors({ "": [problemText(this.lastProblem)] });
    } },
    h("h3", {}, t("play.describe", { what: fieldLabel(m.type) })),
    // the API's instructions are for programs (JSON): a Japanese page has its own words
    h("details", {}, h("summary", {}, t("play.how")),
      h("p", {}, lang() === "ja" && t(`play.how.${m.type}`) !== `play.how.${m.type}` ? t(`play.how.${m.type}`) : m.describe)),
    form.element,
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary move" }, t("play.enter"))));
  }

  /** A listed move chosen: sent, or first previewed where the game says its effect is not
   *  obvious (its previewed_moves): the panel stands in for the moves until Confirm. */
  async choose(m) {
    if (!(this.info.previewed_moves || []).includes(m.type) || !isOnline()) {
      await this.play(m);
      return;
    }
    this.previewing = m;
    try {
      await this.renderMoves();
    } catch (problem) {  // the network went meanwhile: no preview, the move is kept as any
      if (!(problem instanceof Problem) || problem.code !== "offline") throw problem;
      this.previewing = null;
      await this.play(m);
      return;
    }
    const confirm = document.getElementById("preview-confirm");
    if (confirm) confirm.focus();
  }

  /** Send a move; one tapped offline (or whose answer the network lost) is kept, with its
   *  Idempotency-Key, and sent when the connection is back. */
  play(listed) {
    return this.acting(() => this.playOnce(listed));
  }

  async playOnce(listed) {
    const move = withoutListing(listed);
    // If-Match the version the listed moves belong to: the stream may have told of a later
    // one that the page could not list (offline), and a stale move must be refused
    const sending = { move, key: newKey(), version: this.movesVersion ?? this.version,
      text: moveText(listed) };
    for (const button of this.movesBox.querySelectorAll("button")) button.disabled = true;
    this.lastProblem = null;
    let ok = false;
    if (!isOnline()) this.keep(sending);
    else {
      try {
        this.landed(await this.send(sending));
        ok = true;
      } catch (problem) {
        if (!(problem instanceof Problem)) throw problem;
        this.lastProblem = problem;
        if (problem.code === "offline") this.keep(sending);
        else if (problem.status === 412) announce(t("play.movedOn"));
        else this.showError(problem);
      }
    }
    await this.refresh();
    const refused = this.lastProblem;
    if (!ok && refused && refused.status !== 412 && refused.code !== "offline") this.showError(refused);
    this.owe("");
    return ok;
  }

  /** A press (a move, an undo) from its request to its focus paid. The page stays busy
   *  throughout: the stream's news of this very press may redraw the screen before the
   *  press's own answer is in, and the screen is not done (focus is not where it goes)
   *  until the press is. */
  async acting(press) {
    this.actions += 1;
    this.main.dataset.busy = "true";
    try {
      return await press();
    } finally {
      this.actions -= 1;
      if (!this.actions && !this.refreshing && !this.left) this.main.dataset.busy = "false";
    }
  }

  /** Focus goes on once the screen is drawn: at the end of the refresh under way (which may
   *  be the stream's, not this move's own), or now if none is. */
  owe(pressed) {
    this.focusOwed = pressed;
    if (!this.refreshing) this.payFocus();
  }

  payFocus() {
    if (this.focusOwed === undefined) return;
    const pressed = this.focusOwed;
    this.focusOwed = undefined;
    this.focusNext(pressed);
  }

  /** After a move the buttons it was pressed on are gone: focus goes to what comes next —
   *  the kept move's "do not send", the next move to enter, or the banner saying whose turn
   *  it is — never back to the page's top. */
  focusNext(pressed = "") {
    if (this.left) return;
    const again = pressed && document.getElementById(pressed);
    const target = (again && !again.disabled && again)
      || this.noticeBox.querySelector("button:not([disabled])")
      || this.movesBox.querySelector("#preview-confirm")
      || this.movesBox.querySelector("button.move:not([disabled])")
      || this.movesBox.querySelector("form input, form select, form button")
      || this.bannerBox;
    target.focus({ preventScroll: target === this.bannerBox });
    if (this.movesBox.contains(target)) this.showPicture();
  }

  /** The sticky picture leaves the screen with the end of its board: when a short list of
   *  moves followed a long one, the page stays scrolled down past it. Scroll back up until
   *  the whole picture shows again, beside (or above) the move just focused; or down, no
   *  further than to where it sticks, when a tall one (a wide screen's) starts too low. */
  showPicture() {
    const box = this.pictureHost.getBoundingClientRect();
    const stuckAt = parseFloat(getComputedStyle(this.pictureHost).top) || 0;
    if (box.top < stuckAt - 1) window.scrollBy(0, box.top - stuckAt);
    else if (box.bottom > window.innerHeight + 1) {
      window.scrollBy(0, Math.min(box.bottom - window.innerHeight, box.top - stuckAt));
    }
  }

  send({ move, key, version }) {
    return call("POST", `${this.path}/moves`, { token: this.token, body: { move },
      headers: { "If-Match": `"${version}"`, "Idempotency-Key": key } });
  }

  /** A move the server answered: shown at once, before the stream tells of it. */
  landed(answer) {
    this.apply(answer);
    // who entered it: a companion seat may take back its own entry (canTakeBack)
    const by = this.role === "seat" ? `seat:${this.seat}` : this.role;
    this.log.set(answer.version, { version: answer.version, move: answer.move, by });
    this.renderLog();
    announce(moveText(answer.move));
    this.pick = null;
    this.previewing = null;
    this.showAll = false;
    if (this.filterInput) this.filterInput.value = "";
    this.notice("");
  }

  keep(sending) {
    this.pending = sending;
    this.notice(t("play.pending", { move: sending.text }), false,
      h("button", { type: "button", class: "small secondary", onclick: () => {
        this.pending = null;
        this.notice("");
        this.refresh();
      } }, t("play.pendingCancel")));
  }

  /** The kept move, sent once more with the same key: it lands once, whether or not the
   *  first try reached the server; refused (412) if the position changed meanwhile. */
  async sendPending() {
    const sending = this.pending;
    try {
      const answer = await this.send(sending);
      this.pending = null;
      this.landed(answer);
    } catch (problem) {
      if (!(problem instanceof Problem) || problem.code === "offline") throw problem;  // kept
      // A move made stale may be refused for its own sake (not this seat's turn any more)
      // before If-Match is compared: the session's version tells whether the table moved on.
      const now = problem.status === 412 ? null
        : await call("GET", this.path, { token: this.token });
      this.pending = null;
      const movedOn = !now || now.version !== sending.version;
      const why = movedOn ? t("play.pendingDropped", { move: sending.text })
        : `${t("play.pendingRefused", { move: sending.text })} ${problemText(problem)}`;
      this.notice(why, true);
    }
  }

  /** The line under the banner: "" hides it; an alert stays until the next move. */
  notice(text, alert = false, ...extra) {
    this.noticeBox.hidden = !text;
    this.noticeBox.className = alert ? "notice alert" : "notice";
    this.noticeBox.replaceChildren(text, ...(text ? extra : []));
    if (text) announce(text);
  }

  /** A correction, a start, a leave: POST, then show the session as it is. */
  act(method, suffix, body, token = this.token) {
    return this.acting(() => this.actOnce(method, suffix, body, token));
  }

  async actOnce(method, suffix, body, token) {
    const pressed = document.activeElement ? document.activeElement.id : "";
    try {
      const answer = await call(method, `${this.path}${suffix}`, { token, body,
        headers: { "If-Match": `"${this.version}"` } });
      if (answer && answer.you && token === this.token) this.apply(answer);
      if (answer && answer.entry) {
        this.log.set(answer.entry.version, answer.entry);
        await this.loadLog();
      }
      if (suffix === "/leave") {
        announce(t("play.left"));
        this.go("");
        return;
      }
      if (answer && answer.version > this.version) this.version = answer.version;
      await this.refresh();
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      await this.refresh();
      this.showError(problem);
    }
    this.owe(pressed);  // undo again, redo again: the same button, drawn anew
  }

  // ------------------------------------------------------------------ auto-pass
  /** Whether this seat passes by itself when a pass is its only move (this device's
   *  setting for this seat, kept across reloads). */
  get autoPassOn() {
    return this.role === "seat" && localStorage.getItem(autoPassKey(this.sid, this.seat)) === "on";
  }

  /** The only move listed is a pass and the seat asked for auto-pass: play it after a
   *  human-like delay, unless the table moved on (or the seat played) meanwhile. */
  autoPass() {
    const onlyPass = () => (this.moves.length === 1 && this.moves[0].type === "pass" ? this.moves[0] : null);
    if (!onlyPass() || !this.autoPassOn || this.pending || this.passingAt === this.movesVersion) return;
    const version = this.movesVersion;
    this.passingAt = version;
    setTimeout(() => {
      // the listing may have been read again meanwhile: the same version's pass is still it
      const pass = onlyPass();
      if (this.left || this.stopped || !this.autoPassOn || this.movesVersion !== version
          || this.pending || !pass) return;
      this.play(pass);
    }, humanDelay(AUTO_PASS_MS));
  }

  /** The seat's auto-pass switch, for a game that has a pass. */
  autoPassSwitch() {
    if (this.role !== "seat" || this.mode !== "digital" || !this.hasPass) return null;
    const id = "autopass";
    const box = h("input", { type: "checkbox", id, checked: this.autoPassOn, onchange: () => {
      localStorage.setItem(autoPassKey(this.sid, this.seat), box.checked ? "on" : "off");
      if (box.checked) this.autoPass();
    } });
    return h("label", { class: "inline autopass", for: id }, box, " ", t("play.autoPass"));
  }

  renderCorrections() {
    let buttons = [];
    if (this.role === "table" && this.mode !== "digital" && this.started) {
      buttons = [h("button", { type: "button", class: "secondary", id: "undo", onclick: () => this.act("POST", "/undo", {}) },
        t("play.undo")),
      h("button", { type: "button", class: "secondary", id: "redo", onclick: () => this.act("POST", "/redo", {}) },
        t("play.redo"))];
    } else if (this.role === "seat" && this.mode !== "tabletop" && this.started && !this.over) {
      buttons = [this.autoPassSwitch(), this.canTakeBack ? h("button", { type: "button",
        class: "secondary", id: "takeback", onclick: () => this.act("POST", "/undo", {}) },
      t(this.mode === "companion" ? "companion.takeBack" : "play.takeBack")) : null].filter(Boolean);
    }
    this.fixBox.hidden = !buttons.length;
    this.main.classList.toggle("docked", !this.fixBox.hidden);  // room under the phone's dock
    this.fixBox.replaceChildren(h("div", { class: "actions" }, buttons));
  }

  showError(problem) {
    const text = problem instanceof Problem ? problemText(problem) : String(problem);
    const target = this.moveError && this.moveError.isConnected ? this.moveError : this.bannerBox;
    if (target === this.moveError) {
      target.textContent = text;
      target.hidden = false;
    } else {
      target.textContent = text;
      target.className = "banner alert";
    }
    announce(text);
  }

  renderLog() {
    // oldest first, each numbered by its version (as "undone back to version 4" counts)
    const versions = [...this.log.keys()].sort((a, b) => a - b).slice(-LOG_SHOWN);
    this.logList.replaceChildren(...versions.map((v) => {
      const entry = this.log.get(v);
      return h("li", { class: entry.undone ? "undone" : null, value: v },
        entryText(entry), entry.undone ? ` (${t("log.undone")})` : "");
    }));
    this.markPicture();  // the last move may have come after the picture
    // the log says whether this seat has a move to take back: its button follows
    if (this.role === "seat" && Boolean(this.fixBox.querySelector("#takeback")) !== this.canTakeBack) {
      this.renderCorrections();
    }
  }

  // ------------------------------------------------------------------ the picture
  async updatePicture() {
    if (this.picturing) {
      this.pictureAgain = true;
      return;
    }
    this.picturing = true;
    try {
      do {
        this.pictureAgain = false;
        const version = this.version;
        const got = await fetchPicture(this.sid, this.token, this.pictureTag);
        // scaled to fit --picture-height (app.css): a phone sees the moves beside it
        const svg = got && pictureElement(got.svg);
        if (svg) {
          this.pictureRoot.replaceChildren(this.pictureStyle(), svg);
          this.markPicture();
          this.pictureTag = got.etag;
        }
        this.pictureHost.dataset.version = String(version);
        // moves entered in a quick run redraw it a few times a second, not once each
        if (this.pictureAgain) await new Promise((resolve) => setTimeout(resolve, PICTURE_GAP_MS));
      } while (this.pictureAgain);
    } catch (error) {
      this.pictureHost.dataset.error = String(error.message || error);
      // a game service busy for a moment: draw again, or the picture would stay behind
      // until the next move
      if (error instanceof Problem && error.status === 503) {
        setTimeout(() => this.updatePicture(), 1000 * (Number(error.body.retry_after) || 2));
      }
    } finally {
      this.picturing = false;
    }
  }

  /** The marks' style, loaded into the picture's shadow root (the page's policy allows
   *  only its own stylesheets). */
  pictureStyle() {
    return h("link", { rel: "stylesheet", href: "/static/picture.css" });
  }

  /** Mark on the picture what the last move used (each element says what it stands for:
   *  usesOf), and, while something touched on it picks the moves, it and the other things
   *  those moves use: where it can go. */
  markPicture() {
    const svg = this.pictureRoot.querySelector("svg");
    if (!svg) return;
    for (const mark of ["last-move", "target", "picked"]) {
      for (const node of svg.querySelectorAll(`.${mark}`)) node.classList.remove(mark);
    }
    const last = [...this.log.values()].filter((e) => e.move && !e.undone)
      .sort((a, b) => b.version - a.version)[0];
    const lastTokens = last ? tokensOf(last.move) : null;
    const picked = this.pick ? new Set(this.pick.uses.map((alt) => alt.join(","))) : null;
    const reached = this.pick ? this.moves.filter((m) => !m.describe && usedBy(this.pick.uses, tokensOf(m)))
      .map(tokensOf) : [];
    for (const node of svg.querySelectorAll("*")) {
      const uses = usesOf(node);
      if (!uses.length) continue;
      if (lastTokens && usedBy(uses, lastTokens)) node.classList.add("last-move");
      if (!picked) continue;
      if (uses.some((alt) => picked.has(alt.join(",")))) node.classList.add("picked");
      else if (reached.some((tokens) => usedBy(uses, tokens))) node.classList.add("target");
    }
  }

  /** A touch on the picture lists the moves that use what was touched: the innermost
   *  element on the touch's path that some listed move uses (a chip on an altar before the
   *  altar), and of what it stands for only what those moves use. */
  clicked(event) {
    const wanted = this.moves.filter((m) => !m.describe).map(tokensOf);
    for (const node of event.composedPath()) {
      if (node === this.pictureHost) return;
      const uses = usesOf(node).filter((alt) => wanted.some((tokens) => usedBy([alt], tokens)));
      if (!uses.length) continue;
      const label = node.hasAttribute("data-uses")
        ? (node.getAttribute("data-label") || node.textContent).replace(/\s+/g, " ").trim()
        : uses.map(([name]) => name.replace(/^c(\d+)$/, "$1")).join(" ");
      this.pick = { label, uses };
      this.showAll = false;
      this.markPicture();
      this.renderMoves().then(() => {
        const first = this.movesBox.querySelector("button.move");
        if (first) first.focus();
      });
      return;
    }
  }
}

/** Who made a log entry ("seat:2", "table"), in the page's words. */
function byText(by) {
  const seat = /^seat:(\d+)$/.exec(by || "");
  return seat ? t("seat", { n: Number(seat[1]) }) : t("log.by_table");
}

function entryText(entry) {
  if (entry.move) return moveText(entry.move);
  if (entry.correction) return t(`log.${entry.correction}`, { to: entry.to_version });
  if (entry.dispute) return t("log.dispute", { who: byText(entry.by) });
  return t("log.seats");
}
