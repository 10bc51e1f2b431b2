// AWS's event-stream binary framing (application/vnd.amazon.eventstream), written from AWS's
// description of it: each message is
//   total length (u32) | headers length (u32) | prelude CRC32 (of the 8 bytes before)
//   | headers | payload | message CRC32 (of everything before)
// and each header is name length (u8) | name | value type (u8; 7 = string) | length (u16) | value.
// Bedrock's invoke-with-response-stream sends one `chunk` event per Messages API event, its JSON
// base64-encoded in `bytes`, and ends a failed stream with an `exception` message.

const enc = new TextEncoder();

export type Header = [name: string, value: string];

export function eventStreamMessage(headers: Header[], payload: Uint8Array): Uint8Array {
  const head = headers.flatMap(([name, value]) => {
    const n = enc.encode(name);
    const v = enc.encode(value);
    return [Uint8Array.of(n.length), n, Uint8Array.of(7, v.length >> 8, v.length & 0xff), v];
  });
  const headersBytes = concat(head);
  const total = 12 + headersBytes.length + payload.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersBytes.length);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  out.set(headersBytes, 12);
  out.set(payload, 12 + headersBytes.length);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

/** One Messages API event as Bedrock sends it: a `chunk` whose `bytes` are the event's JSON. */
export function chunkMessage(eventJson: string): Uint8Array {
  // Bedrock pads the payload with a `p` field of varying length (hides the chunk's size).
  const payload = JSON.stringify({ bytes: Buffer.from(eventJson).toString("base64"), p: "abcdefghijklmnopqrstuvwxyz".slice(0, eventJson.length % 26) });
  return eventStreamMessage(
    [
      [":event-type", "chunk"],
      [":content-type", "application/json"],
      [":message-type", "event"],
    ],
    enc.encode(payload),
  );
}

/** A modeled exception mid-stream (throttlingException, modelStreamErrorException, ...). */
export function exceptionMessage(exceptionType: string, message: string): Uint8Array {
  return eventStreamMessage(
    [
      [":exception-type", exceptionType],
      [":content-type", "application/json"],
      [":message-type", "exception"],
    ],
    enc.encode(JSON.stringify({ message })),
  );
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3), the checksum event-stream uses. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
