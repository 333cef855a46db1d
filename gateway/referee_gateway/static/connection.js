// Whether the page reaches the server. A failed fetch or the browser's "offline" says it is
// lost; then /healthz is asked again with a growing, jittered pause (a room of phones coming
// back at once does not knock together) until it answers; the browser's "online" asks at once.
// Screens subscribe: the status line says so, a table resyncs when the connection is back.
const FIRST_PAUSE_MS = 500;
// the longest pause: a page is back at most this long (and one probe) after the network is
const LONGEST_PAUSE_MS = 3000;

const listeners = new Set();
let online = true;
let pause = FIRST_PAUSE_MS;
let timer = null;
let probing = false;

export function isOnline() { return online; }

/** listener(online) on every change; answers a function that unsubscribes. */
export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function tell() {
  for (const listener of [...listeners]) listener(online);
}

/** A request failed for want of a network: say so, and start asking whether it is back. */
export function lost() {
  if (!online) return;
  online = false;
  pause = FIRST_PAUSE_MS;
  tell();
  schedule();
}

function schedule() {
  clearTimeout(timer);
  const wait = pause * (0.5 + Math.random() / 2);
  pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  timer = setTimeout(probe, wait);
}

/** Ask the server now (the "Try now" button, the browser's online event). */
export async function probe() {
  if (online || probing) return;
  probing = true;
  clearTimeout(timer);
  let back = false;
  try {
    back = (await fetch("/healthz", { cache: "no-store" })).ok;
  } catch (error) {
    back = false;  // still no network: the next try comes later
  } finally {
    probing = false;
  }
  if (online) return;
  if (back) {
    online = true;
    tell();
  } else schedule();
}

window.addEventListener("offline", lost);
window.addEventListener("online", probe);
