// The first screen: start a table, join one by its code (or from the lobby), or open a
// game's score helper. Nothing needs an account: a table is its tokens.
import { call, componentSchemas, Problem } from "./api.js";
import { h, uid } from "./dom.js";
import { gameTitle, problemText, t } from "./i18n.js";
import { schemaPrefix } from "./calc.js";
import { SchemaForm } from "./schemaform.js";

/** This tab's copy of a table token: the table's link (its fragment) holds it too, and the
 *  copy lets a host who took a seat on this device still start the table. */
export const tableKey = (sid) => `referee:table:${sid}`;

export async function showHome(main, go) {
  const games = (await call("GET", "/v1/games")).games.filter((g) => g.available);
  main.replaceChildren(
    h("h1", {}, t("home.title")),
    h("p", { class: "lead" }, t("home.lead")),
    await startSection(games, go),
    joinSection(go),
    lobbySection(games, go),
    h("section", { "aria-labelledby": "calc-title" },
      h("h2", { id: "calc-title" }, t("home.calc")),
      h("p", {}, t("home.calcLead")),
      h("ul", { class: "buttons" }, games.map((g) => h("li", {},
        h("a", { class: "button secondary", href: `#calc=${encodeURIComponent(g.game)}` }, gameTitle(g)))))));
  main.dataset.screen = "home";
  main.dataset.busy = "false";
}

async function startSection(games, go) {
  const named = await componentSchemas();
  const gameId = uid("field");
  const playersId = uid("field");
  const game = h("select", { id: gameId, name: "game" },
    games.map((g) => h("option", { value: g.game }, gameTitle(g))));
  const players = h("select", { id: playersId, name: "players" });
  const mode = (value, checked) => {
    const id = uid("mode");
    return h("div", { class: "field check" }, h("label", { for: id },
      h("input", { type: "radio", name: "mode", id, value, checked }), " ", t(`mode.${value}`)),
      h("small", { class: "hint" }, t(`mode.${value}.hint`)));
  };
  const publicId = uid("field");
  const listed = h("input", { type: "checkbox", id: publicId });
  const othersId = uid("field");
  const others = h("select", { id: othersId, name: "others" },  // "play against the computer"
    ["people", "random", "greedy", "strong"].map((v) => h("option", { value: v }, t(`home.others.${v}`))));
  const optionsBox = h("details", { class: "group" }, h("summary", {}, t("home.options")));
  const error = h("p", { class: "error", role: "alert", hidden: true });
  let options = null;

  const chosen = () => games.find((g) => g.game === game.value);
  const update = () => {
    const g = chosen();
    const keep = Number(players.value) || g.min_players;
    players.replaceChildren(...Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => {
      const n = g.min_players + i;
      return h("option", { value: n, selected: n === Math.min(Math.max(keep, g.min_players), g.max_players) }, String(n));
    }));
    const schema = named[`${schemaPrefix(g.game)}Options`];
    options = new SchemaForm(schema || { type: "object" }, named, { omitDefaults: true });
    const empty = !schema || !Object.keys(schema.properties || {}).length;
    optionsBox.replaceChildren(h("summary", {}, t("home.options")),
      empty ? h("p", {}, t("home.noOptions")) : options.element);
  };
  game.addEventListener("change", update);
  update();

  const start = async (event) => {
    event.preventDefault();
    error.hidden = true;
    options.clearErrors();
    const chosenMode = event.target.querySelector("input[name=mode]:checked").value;
    const body = { game: game.value, players: Number(players.value), mode: chosenMode, options: options.read() };
    // digital and companion: each player joins with the code on their own phone
    if (chosenMode !== "tabletop") Object.assign(body, { seats: "open", public: listed.checked });
    if (others.value !== "people") {  // seat 1 is yours (take it on the next screen); bots play the rest
      body.bots = Object.fromEntries(Array.from({ length: body.players - 1 }, (_, i) => [String(i + 2), others.value]));
    }
    try {
      const created = await call("POST", "/v1/sessions", { body });
      sessionStorage.setItem(tableKey(created.session_id), created.table_token);
      // the table token in the fragment: the link reopens the table in any tab (never sent)
      go(`play=${encodeURIComponent(created.session_id)}`
        + `&token=${encodeURIComponent(created.table_token)}`);
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      error.textContent = problemText(problem);
      error.hidden = false;
      if (problem.code === "invalid_options") optionsBox.open = true;
    }
  };

  return h("section", { "aria-labelledby": "start-title" },
    h("h2", { id: "start-title" }, t("home.start")),
    h("form", { class: "start", novalidate: true, onsubmit: start },
      h("div", { class: "field" }, h("label", { for: gameId }, t("home.game")), game),
      h("div", { class: "field" }, h("label", { for: playersId }, t("home.players")), players),
      h("fieldset", { class: "group" }, h("legend", {}, t("home.mode")), mode("digital", true), mode("tabletop", false),
        mode("companion", false)),
      h("div", { class: "field check" }, h("label", { for: publicId }, listed, " ", t("home.public"))),
      h("div", { class: "field" }, h("label", { for: othersId }, t("home.others")), others),
      optionsBox,
      error,
      h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, t("home.startButton")))));
}

function joinSection(go) {
  const codeId = uid("field");
  const seatId = uid("field");
  const hintId = uid("hint");
  const code = h("input", { id: codeId, type: "text", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", inputmode: "text", placeholder: "K4TM-9XQR", "aria-describedby": hintId });
  const seat = h("select", { id: seatId },
    h("option", { value: "any" }, t("home.anySeat")),
    [1, 2, 3, 4].map((n) => h("option", { value: n }, t("seat", { n }))));
  const error = h("p", { class: "error", id: uid("error"), role: "alert", hidden: true });
  const join = async (event) => {
    event.preventDefault();
    error.hidden = true;
    code.removeAttribute("aria-invalid");
    try {
      const joined = await call("POST", "/v1/sessions/join", {
        body: { code: code.value.trim(), seat: seat.value === "any" ? "any" : Number(seat.value) } });
      go(`play=${encodeURIComponent(joined.session_id)}&token=${encodeURIComponent(joined.token)}`);
    } catch (problem) {
      if (!(problem instanceof Problem)) throw problem;
      error.textContent = problemText(problem);
      error.hidden = false;
      code.setAttribute("aria-invalid", "true");
      code.setAttribute("aria-describedby", `${hintId} ${error.id}`);
      code.focus();
    }
  };
  return h("section", { "aria-labelledby": "join-title" },
    h("h2", { id: "join-title" }, t("home.join")),
    h("form", { class: "join", novalidate: true, onsubmit: join },
      h("div", { class: "field" }, h("label", { for: codeId }, t("home.code")), code,
        h("small", { class: "hint", id: hintId }, t("home.codeHint")), error),
      h("div", { class: "field" }, h("label", { for: seatId }, t("home.seat")), seat),
      h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, t("home.joinButton")))));
}

function lobbySection(games, go) {
  const list = h("ul", { class: "lobby" });
  const titles = new Map(games.map((g) => [g.game, gameTitle(g)]));
  const load = async () => {
    const lobby = await call("GET", "/v1/lobby").catch(() => ({ tables: [] }));
    list.replaceChildren(...(lobby.tables.length ? lobby.tables.map((table) => h("li", {},
      h("span", {}, t("home.lobbyTable", { game: titles.get(table.game) || table.game,
        players: table.players, open: table.open_seats.length })),
      h("button", { type: "button", class: "small", onclick: async () => {
        try {
          const joined = await call("POST", "/v1/sessions/join", { body: { session_id: table.session_id } });
          go(`play=${encodeURIComponent(joined.session_id)}&token=${encodeURIComponent(joined.token)}`);
        } catch (problem) {
          load();
        }
      } }, t("home.joinButton")))) : [h("li", {}, t("home.lobbyEmpty"))]));
  };
  load();
  return h("section", { "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title" }, t("home.lobby")), list,
    h("button", { type: "button", class: "small secondary", onclick: load }, t("home.refresh")));
}
