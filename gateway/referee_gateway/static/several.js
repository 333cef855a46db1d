// Chance outcomes dealt round the table (Three Magic's deal: one card to each seat in
// turn): the table picks each seat's outcomes in the order they came, on one screen, and
// the page enters them in the order the referee asks for them (it lists one seat's at a
// time). Which field names the seat, and which says what came, is read from the listing
// and the move's schema: nothing here knows a game.
import { h, uid } from "./dom.js";
import { t } from "./i18n.js";
import { HIDDEN_FIELDS } from "./moves.js";

const OUTCOME = (key) => !HIDDEN_FIELDS.has(key) && key !== "type" && key !== "seat";

/** The field every listed outcome gives the same seat number, its schema a seat's
 *  (an integer from 1 to at most the table's seats): whom the outcomes go to now. */
export function recipientField(listed, schema, seats) {
  const [first] = listed;
  return Object.keys(first).filter(OUTCOME).find((key) => {
    const field = (schema.properties || {})[key] || {};
    return Number.isInteger(first[key]) && field.type === "integer" && field.minimum === 1
      && field.maximum <= seats && listed.every((m) => m[key] === first[key]);
  }) || null;
}

/** What came, in an outcome: the values of the fields the listed outcomes differ in. */
export function outcomeOf(move, varying) {
  return varying.map((key) => String(move[key])).join(" ");
}

export function varyingFields(listed) {
  return Object.keys(listed[0]).filter(OUTCOME)
    .filter((key) => listed.some((m) => JSON.stringify(m[key]) !== JSON.stringify(listed[0][key])));
}

/** The form: for each seat a picker that adds an outcome to the seat's list (each shown
 *  as a button that takes it off again), and one button that enters them all. */
export function roundForm({ listed, field, seats, onEnter }) {
  const varying = varyingFields(listed);
  const outcomes = [...new Set(listed.map((m) => outcomeOf(m, varying)))];
  const picks = new Map(Array.from({ length: seats }, (_, i) => [i + 1, []]));
  const status = h("p", { class: "hint", "aria-live": "polite" });
  const total = () => [...picks.values()].reduce((n, list) => n + list.length, 0);
  const enter = h("button", { type: "button", class: "primary", id: "round-enter", disabled: true,
    onclick: () => onEnter(new Map([...picks].map(([seat, list]) => [seat, list.slice()])), status, { field, varying }) },
  t("play.severalEnter", { n: 0 }));
  const rows = [...picks.keys()].map((seat) => {
    const id = uid("round");
    const chosen = h("ol", { class: "picked-outcomes", "aria-label": t("play.roundPicked", { n: seat }) });
    const draw = () => {
      chosen.replaceChildren(...picks.get(seat).map((outcome, i) => h("li", {}, h("button", {
        type: "button", class: "small secondary", "aria-label": t("play.roundRemove", { what: outcome }),
        onclick: () => { picks.get(seat).splice(i, 1); draw(); } }, outcome))));
      enter.textContent = t("play.severalEnter", { n: total() });
      enter.disabled = !total();
    };
    const picker = h("select", { id, onchange: () => {
      if (!picker.value) return;
      picks.get(seat).push(picker.value);
      picker.value = "";
      draw();
    } }, h("option", { value: "" }, t("play.roundChoose")), outcomes.map((o) => h("option", { value: o }, o)));
    return h("li", { class: "round-seat", dataset: { seat: String(seat) } },
      h("label", { for: id }, t("play.roundFor", { n: seat })), picker, chosen);
  });
  return h("details", { class: "group several", id: "several" },
    h("summary", {}, t("play.several")), h("p", { class: "hint" }, t("play.roundHint")),
    h("ul", { class: "items" }, rows), h("div", { class: "actions" }, enter), status);
}

/** The next outcome to enter: the listed one that is the next pick of the seat the
 *  referee asks for now; null when that seat has none left, or its next is not listed. */
export function nextOutcome(listed, picks, { field, varying }) {
  if (!listed.length || listed[0][field] === undefined) return null;
  const queue = picks.get(listed[0][field]) || [];
  if (!queue.length) return null;
  return listed.find((m) => outcomeOf(m, varying) === queue[0]) || { missing: queue[0] };
}
