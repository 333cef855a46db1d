// A score answer ({final, scores, ranking, winners}) as cards a phone can show: one per
// seat, best first, each with its breakdown.
import { h } from "./dom.js";
import { fieldLabel, t, valueLabel } from "./i18n.js";

export function scoreView(score) {
  const bySeat = new Map(score.scores.map((line) => [line.seat, line]));
  const ranked = (score.ranking || score.scores.map((s, i) => ({ rank: i + 1, seat: s.seat, total: s.total })));
  const winners = score.winners || [];
  return h("section", { class: "score", "aria-labelledby": "score-title" },
    h("h2", { id: "score-title" }, score.final ? t("score.final") : t("score.sofar")),
    winners.length ? h("p", { class: "winners" }, t("score.winners", { seats: winners.map((s) => t("seat", { n: s })).join(", ") })) : null,
    h("ol", { class: "score-cards" }, ranked.map((entry) => {
      const line = bySeat.get(entry.seat) || {};
      return h("li", { class: winners.includes(entry.seat) ? "score-card winner" : "score-card" },
        h("h3", {}, t("score.line", { rank: entry.rank, seat: t("seat", { n: entry.seat }), total: entry.total })),
        score.final ? h("p", { class: "why" }, why(entry, ranked[0], line, bySeat.get(ranked[0].seat) || {})) : null,
        line.breakdown ? breakdown(line.breakdown) : null);
    })));
}

/** Why a seat ranks where it does, read off the totals and the breakdowns: the first seat
 *  has the best total; another is so far behind it (or level, and placed after it by the
 *  rules' tie-break), and the breakdown's numbers where it fell short of the first. */
function why(entry, first, line, firstLine) {
  if (entry.rank === first.rank) return t("score.why.first");
  const seat = t("seat", { n: first.seat });
  const gap = Math.abs(first.total - entry.total);
  const said = gap ? t("score.why.behind", { gap, seat }) : t("score.why.tie", { seat });
  const mine = line.breakdown || {};
  const theirs = firstLine.breakdown || {};
  const short = Object.keys(mine).filter((key) => typeof mine[key] === "number"
    && typeof theirs[key] === "number" && mine[key] < theirs[key])
    .map((key) => t("score.why.part", { what: fieldLabel(key), mine: mine[key], theirs: theirs[key] }));
  return short.length ? `${said} ${t("score.why.short", { seat, parts: short.join(", ") })}` : said;
}

/** Any JSON breakdown: objects as term/value lists, lists of objects as lists. */
export function breakdown(value) {
  if (value === null || typeof value !== "object") return document.createTextNode(valueLabel(value));
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) {
      return document.createTextNode(value.length ? value.map(valueLabel).join(", ") : "—");
    }
    return h("ol", { class: "breakdown-list" }, value.map((v) => h("li", {}, flat(v) ? inline(v) : breakdown(v))));
  }
  return h("dl", { class: "breakdown" }, Object.entries(value).flatMap(([key, v]) => [
    h("dt", {}, fieldLabel(key)), h("dd", {}, breakdown(v))]));
}

/** An object of plain values (a line of a breakdown) reads on one line. */
const plain = (v) => v === null || typeof v !== "object" || (Array.isArray(v) && v.every((x) => x === null || typeof x !== "object"));
const flat = (v) => v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every(plain);

function inline(value) {
  return Object.entries(value).map(([key, v]) => `${fieldLabel(key)} ${Array.isArray(v) ? v.map(valueLabel).join(" ") : valueLabel(v)}`).join(" · ");
}
