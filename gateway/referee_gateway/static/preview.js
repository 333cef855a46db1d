// A move whose effect its sentence does not make plain (the game's previewed_moves: a
// payment, a card's path, where a chip lands) is shown before it is sent: the position it
// leads to, drawn by the referee before any chance after it, with Confirm and Back.
import { call, Problem } from "./api.js";
import { h } from "./dom.js";
import { moveText, problemText, t } from "./i18n.js";
import { withoutListing } from "./moves.js";

/** An SVG document's text as an element sized as the page's pictures are (or null). */
export function pictureElement(text) {
  const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (svg.nodeName !== "svg") return null;
  svg.setAttribute("width", "100%");
  svg.removeAttribute("height");
  // scaled to fit --picture-height (app.css); set through CSSOM: the page's policy
  // allows no inline style attribute
  Object.assign(svg.style, { display: "block", maxHeight: "var(--picture-height)" });
  return document.importNode(svg, true);
}

/** The panel that stands in for the moves while ``move`` waits: its sentence, the
 *  picture of what it leads to (or why there is none), Confirm and Back; and the other
 *  ways to make the same move (``others``: a Gizmos spend's other Converter sets), each
 *  previewed in its place when chosen (``pick``). */
export async function previewPanel(path, token, move, { confirm, back, others = [], pick }) {
  let drawn = null;
  let why = "";
  try {
    drawn = pictureElement(await call("POST", `${path}/preview.svg`,
      { token, body: { move: withoutListing(move) } }));
  } catch (problem) {
    if (!(problem instanceof Problem) || problem.code === "offline") throw problem;
    why = problemText(problem);  // no picture: the sentence and the confirm still stand
  }
  const host = h("div", { class: "preview-picture" });
  // its own shadow root: the picture's ids (defs) never meet the main picture's
  if (drawn) host.attachShadow({ mode: "open" }).append(drawn);
  return h("div", { class: "preview", id: "preview" },
    h("p", { class: "hint" }, t("play.previewHint")),
    h("p", { class: "preview-move" }, moveText(move)),
    drawn ? host : h("p", { class: "hint" }, why),
    others.length ? h("div", { class: "other-ways" },
      h("p", { class: "hint" }, t("play.otherWays")),
      h("ul", { class: "move-list" }, others.map((m) => h("li", {},
        h("button", { type: "button", class: "move", onclick: () => pick(m) }, moveText(m)))))) : null,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", id: "preview-confirm", onclick: confirm },
        t("play.previewConfirm")),
      h("button", { type: "button", class: "secondary", id: "preview-back", onclick: back },
        t("play.previewBack"))));
}
