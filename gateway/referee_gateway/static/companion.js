// Companion mode (issue 32): a physical game whose hands are secret. Each seat's phone enters
// what goes into its own hand (the card it really drew, picked from its legal-moves: what it
// could have drawn, counted over what it sees); the table device, or any seat, enters what is
// turned up. Every view says whose entry is awaited ("awaiting": a seat or "table"), never
// what: the banner says that much and no more. play.js asks this module what a device may
// do now, what its banner says, and draws a seat's picker for a deal of several cards.
import { h, uid } from "./dom.js";
import { moveText, t } from "./i18n.js";
import { withoutListing } from "./moves.js";

/** Whether this device enters something now: a seat its own private entry or its own move,
 *  any device a public entry ("awaiting": "table"). */
export function companionCanMove(table) {
  if (table.role === "seat" && table.toMove.includes(table.seat)) return true;
  if (!table.toMove.includes("chance")) return false;
  if (table.awaiting === "table") return table.role === "table" || table.role === "seat";
  return table.role === "seat" && table.awaiting === table.seat;
}

/** The banner while an entry is awaited: {text, mine}, or null when none is. Whose entry,
 *  never what: who receives a card is public at the table anyway. */
export function awaitingBanner(table) {
  if (!table.toMove.includes("chance") || table.awaiting === undefined) return null;
  if (table.awaiting === "table") return { text: t("companion.table"), mine: false };
  if (table.role === "seat" && table.awaiting === table.seat) return { text: t("companion.yours"), mine: true };
  return { text: t("companion.seat", { n: table.awaiting }), mine: false };
}

/** The listing is this seat's own private entries (what it may have drawn). */
export function isOwnEntry(table, moves) {
  return table.role === "seat" && table.awaiting === table.seat && moves.length > 0
    && moves.every((m) => m.seat === "chance");
}

const same = (one, other) => JSON.stringify(withoutListing(one)) === JSON.stringify(withoutListing(other));

/**
 * A seat's cards of a deal, picked on one screen and entered one after the other as the
 * deal comes round to the seat (a deal goes seat by seat: seat 1's card, seat 2's, …). The
 * server takes one entry per request, so each is sent in its turn, each while the seat's
 * listing still offers it. Kept in this page's memory only: the cards are secret.
 */
export class EntryQueue {
  constructor() {
    this.chosen = [];    // picked, not yet entered, in the order picked
    this.armed = false;  // "Enter": sent as the seat's turns come
    this.sending = false;
  }

  clear() {
    this.chosen = [];
    this.armed = false;
  }

  /** The picker: a button per card listed adds it (again: a deal may hold two copies);
   *  the chosen, each removable; "Enter the N chosen" starts entering them. */
  picker(table, listed) {
    const tray = h("ol", { class: "items tray", id: "hand-chosen" });
    const enter = h("button", { type: "button", class: "primary", id: "hand-enter" });
    const draw = () => {
      tray.replaceChildren(...this.chosen.map((m, i) => h("li", {}, moveText(m), " ",
        h("button", { type: "button", class: "small secondary", "aria-label": t("companion.remove", { move: moveText(m) }),
          onclick: () => { this.chosen.splice(i, 1); draw(); } }, "×"))));
      enter.textContent = t("companion.enter", { n: this.chosen.length });
      enter.disabled = !this.chosen.length;
    };
    enter.addEventListener("click", () => {
      this.armed = true;
      this.next(table);
    });
    draw();
    const picks = listed.map((m) => h("li", {}, h("button", { type: "button", class: "pick",
      id: uid("pick"), onclick: () => { this.chosen.push(m); draw(); } }, "+ ", moveText(m))));
    return h("details", { class: "group several", id: "hand-picker", open: this.chosen.length > 0 },
      h("summary", {}, t("companion.several")), h("p", { class: "hint" }, t("companion.severalHint")),
      h("ul", { class: "move-list picks" }, picks),
      h("h3", {}, t("companion.chosen")), tray, h("div", { class: "actions" }, enter));
  }

  /** The status of an armed queue, for the moves box: how many are still to be entered. */
  status(table) {
    if (!this.armed || !this.chosen.length) return null;
    return h("p", { class: "notice", id: "hand-queued" }, t("companion.queued", { n: this.chosen.length }), " ",
      h("button", { type: "button", class: "small secondary", onclick: () => { this.clear(); table.refresh(); } },
        t("companion.cancelQueue")));
  }

  /** Enter the next chosen card if the seat's entry is awaited now (called after every
   *  screen's refresh; never awaited inside one: play() refreshes the screen itself). */
  next(table) {
    if (!this.armed || this.sending || !this.chosen.length || table.pending || table.left) return;
    if (!isOwnEntry(table, table.moves)) return;
    const wanted = this.chosen[0];
    const listed = table.moves.find((m) => !m.describe && same(m, wanted));
    if (!listed) {
      this.clear();
      table.notice(t("companion.queueStopped", { move: moveText(wanted) }), true);
      table.refresh();
      return;
    }
    this.chosen.shift();
    if (!this.chosen.length) this.armed = false;
    this.sending = true;
    table.play(listed).then((ok) => {
      this.sending = false;
      if (!ok) this.clear();  // refused (the message says why): the seat picks again
      else this.next(table);
    }, () => { this.sending = false; });
  }
}
