// What the page reads in a listed move (GET …/legal-moves): the move as it is sent, the
// words a picture's classes and the filter may match, its chance, a described move's
// starting point; and the auto-pass's delay. Pure functions: play.js draws with them.
import { moveText } from "./i18n.js";

/** What a listing adds to a move: its sentence, its chance, a described move's instructions,
 *  and that a Gizmos Build's spend has other Converter sets (listed when asked for). */
export const HIDDEN_FIELDS = new Set(["text", "p", "describe", "other_converters"]);

/** A whole number of milliseconds in [low, high), from the browser's cryptographic source
 *  (Math.random's sequence could be read back from enough delays). */
export function humanDelay([low, high]) {
  const [word] = crypto.getRandomValues(new Uint32Array(1));
  return low + Math.floor((word / 2 ** 32) * (high - low));
}

/** Whether two moves are the same move, whatever the listing added to either. */
export function sameMove(one, other) {
  return JSON.stringify(withoutListing(one)) === JSON.stringify(withoutListing(other));
}

/** A listed move as it is sent: without what the listing adds (its sentence, its chance). */
export function withoutListing(listed) {
  return Object.fromEntries(Object.entries(listed).filter(([key]) => !HIDDEN_FIELDS.has(key)));
}

/** The words of a move a picture's elements may name: each field as "field=value" ("cell=3",
 *  "type=operate"; an array's items each under its field's name), and the bare values
 *  that older pictures' classes name ("a4", a card "c204"). */
export function tokensOf(move) {
  const out = new Set();
  const walk = (value, key) => {
    if (HIDDEN_FIELDS.has(key)) return;
    if (Array.isArray(value)) value.forEach((v) => walk(v, key));
    else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => walk(v, k));
    else {
      if (key) out.add(`${key}=${value}`);  // null too: Three Magic's "insert=null"
      if (key === "type" || key === "seat" || value === null || value === undefined) return;
      out.add(String(value));
      if (typeof value === "number") out.add(`c${value}`);
    }
  };
  walk(move, "");
  return out;
}

/** What an element of a picture stands for, as alternatives each of which a move may use:
 *  its data-uses ("seat=1,type=push,chip=5 …": space between alternatives, a comma between the
 *  words one needs), which the game's picture writes where a move names a thing by its
 *  place or value; else each of its classes alone (a plate "b2", a card "c117"). */
export function usesOf(node) {
  if (!node || !node.getAttribute) return [];
  const uses = node.getAttribute("data-uses");
  if (uses !== null) return uses.split(/\s+/).filter(Boolean).map((alt) => alt.split(","));
  return [...(node.classList || [])].map((name) => [name]);
}

/** Whether a move (its tokensOf) uses what one of these alternatives stands for. */
export function usedBy(alternatives, tokens) {
  return alternatives.some((alt) => alt.every((word) => tokens.has(word)));
}

/** A move as the filter reads it: its sentence, and the words of the components it names. */
export function searchText(move, words) {
  const named = [...tokensOf(move)].map((token) => words.get(token) || "");
  return [moveText(move), ...named].join(" ").toLowerCase();
}

/** {id → text} from a components catalog: each object with an id, all its strings (in both
 *  languages: {"en": …, "ja": …}) joined. */
export function indexComponents(catalog) {
  const index = new Map();
  const strings = (value) => (typeof value === "string" ? [value]
    : value && typeof value === "object" ? Object.values(value).flatMap(strings) : []);
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      if (typeof value.id === "string" || typeof value.id === "number") {
        const key = String(value.id);
        index.set(key, `${index.get(key) || ""} ${strings(value).join(" ")}`.toLowerCase());
      }
      Object.values(value).forEach(walk);
    }
  };
  walk(catalog);
  return index;
}

export function formatChance(p) {
  return `(${(p * 100).toFixed(p < 0.1 ? 1 : 0)} %)`;
}

/** A described move's pieces (counts by kind, lists of names) laid on its enum fields in
 *  order: a starting point the table corrects, not a guess at what happened. */
export function prefill(schema, named, listing) {
  const pool = [];
  for (const [key, value] of Object.entries(listing)) {
    if (HIDDEN_FIELDS.has(key) || key === "type" || key === "seat") continue;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) pool.push(...value);
    else if (value && typeof value === "object" && Object.values(value).every(Number.isInteger)) {
      for (const [name, count] of Object.entries(value)) for (let i = 0; i < count; i += 1) pool.push(name);
    }
  }
  const out = {};
  for (const [key, sub] of Object.entries(schema.properties || {})) {
    const fields = Object.entries((sub.$ref ? named[sub.$ref.split("/").pop()] : sub).properties || {});
    if (fields.length && fields.length === pool.length && fields.every(([, f]) => Array.isArray(f.enum))) {
      out[key] = Object.fromEntries(fields.map(([name], i) => [name, pool[i]]));
    }
  }
  return out;
}
