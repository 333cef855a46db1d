// A Server-Sent Events reader (the WHATWG event-stream format) over a fetch body.

export interface RawFrame {
  event: string;
  id?: string;
  data: string;
}

/** Frames (and `retry:` values, as numbers) from a stream of text chunks. */
export async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<RawFrame | number> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "message";
  let id: string | undefined;
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        if (line === "") {
          if (data.length) yield { event, id, data: data.join("\n") };
          event = "message";
          id = undefined;
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue; // a heartbeat comment
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let text = colon < 0 ? "" : line.slice(colon + 1);
        if (text.startsWith(" ")) text = text.slice(1);
        if (field === "event") event = text;
        else if (field === "data") data.push(text);
        else if (field === "id") id = text;
        else if (field === "retry" && /^\d+$/.test(text)) yield Number(text);
      }
    }
  } finally {
    // the caller stopped reading (or the stream ended): close the connection, or it stays
    // open, held by the server's heartbeats
    await reader.cancel().catch(() => undefined);
  }
}
