// The API as the page uses it: JSON over fetch with the caller's token, problems as errors,
// and the event stream read with fetch() (EventSource cannot send Authorization, and a
// token never goes into a query string).
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
  let answer;
  try {
    answer = await fetch(path, init);
  } catch (error) {
    throw new Problem(0, { code: "offline", detail: String(error) });
  }
  if (answer.status === 204) return null;
  const type = answer.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await answer.json() : await answer.text();
  if (!answer.ok) throw new Problem(answer.status, typeof data === "object" ? data : { detail: data });
  return data;
}

/** The session's picture as SVG text, or null when it has not changed (304). */
export async function picture(sid, token, etag) {
  const extra = etag ? { "If-None-Match": etag } : {};
  const answer = await fetch(`/v1/sessions/${encodeURIComponent(sid)}/picture.svg`,
    { headers: headersFor(token, extra), cache: "no-store" });
  if (answer.status === 304) return null;
  if (!answer.ok) throw new Problem(answer.status, await answer.json().catch(() => ({})));
  return { svg: await answer.text(), etag: answer.headers.get("ETag") };
}

/**
 * Follow a session's events until stop() or the stream says revoked/end; resumes after the
 * last event seen (Last-Event-ID) when the connection drops. onEvent({id, event, data}).
 */
export function follow(sid, token, onEvent, onEnd) {
  const control = new AbortController();
  let lastId = null;
  let stopped = false;
  (async () => {
    let pause = 500;
    while (!stopped) {
      try {
        const headers = headersFor(token, { Accept: "text/event-stream" });
        if (lastId !== null) headers["Last-Event-ID"] = lastId;
        const answer = await fetch(`/v1/sessions/${encodeURIComponent(sid)}/events`,
          { headers, signal: control.signal, cache: "no-store" });
        if (answer.status === 401 || answer.status === 404) {
          onEnd(new Problem(answer.status, await answer.json().catch(() => ({}))));
          return;
        }
        if (!answer.ok) throw new Problem(answer.status, {});
        pause = 500;
        for await (const event of readEvents(answer.body)) {
          if (event.id !== "") lastId = event.id;
          if (event.event === "revoked" || event.event === "end") {
            stopped = true;
            onEnd(event);
            return;
          }
          onEvent(event);
        }
      } catch (error) {
        if (stopped || control.signal.aborted) return;
      }
      // the stream ended or failed: resume after the last event, a little later each time
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 8000);
    }
  })();
  return { stop() { stopped = true; control.abort(); } };
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
