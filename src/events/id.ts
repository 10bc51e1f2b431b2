// Event ids sort by creation time (log order is also id order within a process), and carry
// enough randomness that two processes never collide.
import { randomBytes } from "node:crypto";

let lastMs = 0;
let seq = 0;

export function newEventId(now = Date.now()): string {
  if (now === lastMs) seq++;
  else {
    lastMs = now;
    seq = 0;
  }
  return `${now.toString(36).padStart(9, "0")}${seq.toString(36).padStart(3, "0")}${randomBytes(4).toString("hex")}`;
}

/** A session id: random, url-safe, long enough that an 8-character prefix is almost always unique. */
export function newSessionId(): string {
  return randomBytes(16).toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
}
