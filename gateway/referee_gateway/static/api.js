// The API as the page uses it: JSON over fetch with the caller's token, problems as errors,
// and the event stream read with fetch() (EventSource cannot send Authorization, and a
// token never goes into a query string).
import { isOnline, lost, onChange } from "./connection.js";
import { lang } from "./i18n.js";

export class Problem extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.code = this.body.code || "";
    this.rule = this.body.rule || "";
  }
}

function headersFor(token, extra = {}) {
  const headers = { "Accept-Language": lang(), ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** Call the API; answers the parsed JSON (null for 204) or throws a Problem. */
export async function call(method, path, { token, body, headers = {} } = {}) {
  const init = { method, headers: headersFor(token, headers), cache: "no-store" };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const answer = await reach(path, init);
  if (answer.status === 204) return null;
  const type = answer.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await answer.json() : await answer.text();
  if (!answer.ok) throw new Problem(answer.status, typeof data === "object" ? data : { detail: data });
  return data;
}

/** fetch(), where a failure to reach the server is an "offline" Problem and tells
 *  connection.js (which then watches for the network's return). */
async function reach(path, init) {
  try {
    return await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    lost();
    throw new Problem(0, { code: "offline", detail: String(error) });
  }
}

/** The session's picture as SVG text, or null when it has not changed (304). */
export async function picture(sid, token, etag) {
  const extra = etag ? { "If-None-Match": etag } : {};
  const answer = await reach(`/v1/sessions/${encodeURIComponent(sid)}/picture.svg`,
    { headers: headersFor(token, extra), cache: "no-store" });
  if (answer.status === 304) return null;
  if (!answer.ok) throw new Problem(answer.status, await answer.json().catch(() => ({})));
  return { svg: await answer.text(), etag: answer.headers.get("ETag") };
}

/**
 * Follow a session's events until stop() or the stream says revoked/end; resumes after the
 * last event seen (Last-Event-ID) when the connection drops. onEvent({id, event, data}).
 * A stream that fails tells connection.js; when the page loses the network the stream is
 * dropped too (it may hang on a dead connection), and when the network is back it resumes
 * at once instead of after its pause.
 */
export function follow(sid, token, onEvent, onEnd) {
  let lastId = null;
  let stopped = false;
  let connection = null;  // this attempt's AbortController
  let wake = () => {};    // ends the pause between two attempts
  const unsubscribe = onChange((online) => {
    if (online) wake();
    else if (connection) connection.abort();
  });
  (async () => {
    let pause = 500;
    while (!stopped) {
      connection = new AbortController();
      try {
        const headers = headersFor(token, { Accept: "text/event-stream" });
        if (lastId !== null) headers["Last-Event-ID"] = lastId;
        const answer = await reach(`/v1/sessions/${encodeURIComponent(sid)}/events`,
          { headers, signal: connection.signal, cache: "no-store" });
        if (answer.status === 401 || answer.status === 404) {
          stopped = true;
          onEnd(new Problem(answer.status, await answer.json().catch(() => ({}))));
          break;
        }
        if (!answer.ok) throw new Problem(answer.status, {});
        pause = 500;
        for await (const event of readEvents(answer.body)) {
          if (event.id !== "") lastId = event.id;
          if (event.event === "revoked" || event.event === "end") {
            stopped = true;
            onEnd(event);
            break;
          }
          onEvent(event);
        }
      } catch (error) {
        if (stopped) break;
        // a stream cut mid-read is a network failure too (a fetch's own failure told already)
        if (!(error instanceof Problem) && !connection.signal.aborted) lost();
      }
      if (stopped) break;
      // the stream ended or failed: resume after the last event, a little later each time,
      // or as soon as the network is back
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, isOnline() ? pause : 60000);
        wake = () => { clearTimeout(timer); resolve(); };
      });
      wake = () => {};
      pause = Math.min(pause * 2, 8000);
    }
    unsubscribe();
  })();
  return {
    stop() {
      stopped = true;
      unsubscribe();
      if (connection) connection.abort();
      wake();
    },
  };
}

/** Server-Sent Events from a byte stream, as the HTML standard parses them. */
export async function* readEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = { id: "", event: "message", data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop();  // an unfinished line waits for the next chunk
    for (const line of lines) {
      if (line === "") {
        if (event.data.length) yield { id: event.id, event: event.event, data: event.data.join("\n") };
        event = { id: event.id, event: "message", data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;  // a heartbeat comment
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let text = colon < 0 ? "" : line.slice(colon + 1);
      if (text.startsWith(" ")) text = text.slice(1);
      if (field === "data") event.data.push(text);
      else if (field === "event") event.event = text;
      else if (field === "id") event.id = text;
    }
  }
}

/** The OpenAPI document's schemas (fetched once): options and score-helper forms. */
let schemas = null;
export async function componentSchemas() {
  if (!schemas) schemas = call("GET", "/openapi.json").then((d) => d.components.schemas);
  return schemas;
}
