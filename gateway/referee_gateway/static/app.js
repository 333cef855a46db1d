// The page's entry: the header's language and sound controls, and the screen the URL
// fragment names — "" home, "calc=<game>" a score helper, "play=<id>[&token=…]" a table.
// The fragment is never sent to a server: it is where a seat's own token may live.
import { Problem } from "./api.js";
import { showCalculator } from "./calc.js";
import { isOnline, onChange, probe } from "./connection.js";
import { h } from "./dom.js";
import { lang, problemText, setLang, t, translatePage } from "./i18n.js";
import { showHome, tableKey } from "./home.js";
import { showPlay } from "./play.js";
import { setSound, soundOn } from "./sound.js";

const main = document.getElementById("app");
let leaving = null;  // stops the screen shown now (a table's event stream)

function go(fragment) {
  main.dataset.busy = "true";  // before the hashchange event: nothing reads the old screen as done
  if (`#${fragment}` === window.location.hash || (fragment === "" && !window.location.hash)) route();
  else window.location.hash = fragment;
}

async function route() {
  if (leaving) leaving();
  leaving = null;
  main.dataset.busy = "true";
  const params = new URLSearchParams(window.location.hash.slice(1));
  try {
    if (params.has("calc")) await showCalculator(main, params.get("calc"));
    else if (params.has("play")) {
      const sid = params.get("play");
      const token = params.get("token") || sessionStorage.getItem(tableKey(sid));
      if (!token) throw new Error(t("play.noToken"));
      leaving = await showPlay(main, sid, token, go);
    } else await showHome(main, go);
  } catch (error) {
    const offline = error instanceof Problem && error.code === "offline";
    if (offline) retryWhenBack();
    main.replaceChildren(h("h1", {}, t(offline ? "connection.title" : "error.title")),
      h("p", { class: "error", role: "alert" },
        error instanceof Problem ? problemText(error) : error.message || String(error)),
      h("p", {}, h("a", { href: "#" }, t("back"))));
    main.dataset.screen = "error";
    main.dataset.busy = "false";
  }
  main.focus({ preventScroll: true });
}

/** A screen that could not load for want of a network loads again when it is back. */
let waitingToRetry = false;
function retryWhenBack() {
  if (waitingToRetry) return;
  waitingToRetry = true;
  const unsubscribe = onChange((online) => {
    if (!online) return;
    unsubscribe();
    waitingToRetry = false;
    route();
  });
}

// The status line under the header: shown while the server cannot be reached, on any screen.
const connection = document.getElementById("connection");
function showConnection() {
  connection.hidden = isOnline();
  connection.replaceChildren(h("span", {}, t("connection.lost")), " ",
    h("button", { type: "button", class: "small secondary", onclick: probe },
      t("connection.retry")));
}
onChange(showConnection);

const language = document.getElementById("language");
language.value = lang();
language.addEventListener("change", () => {
  setLang(language.value);
  translatePage();
  showConnection();
  route();
});
const sound = document.getElementById("sound");
sound.checked = soundOn();
sound.addEventListener("change", () => setSound(sound.checked));
translatePage();
window.addEventListener("hashchange", route);
route();
