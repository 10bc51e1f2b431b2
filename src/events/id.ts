// Event ids are UUIDs (version 7: the creation time first), because hosts name messages by them:
// stream-json prints a message's event id as its `uuid`, and --resume-session-at takes it back.
// They sort by creation time (log order is also id order within a process: the 12 bits after the
// version count events within one millisecond), and carry 62 random bits so two processes never
// collide.
import { randomBytes } from "node:crypto";

let lastMs = 0;
let seq = 0;

export function newEventId(now = Date.now()): string {
  // A clock that steps back (or a millisecond borrowed below) never makes an id sort earlier.
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
  } else if (++seq > 0xfff) {
    lastMs++;
    seq = 0;
  }
  const time = lastMs.toString(16).padStart(12, "0").slice(-12);
  const rand = randomBytes(8);
  rand[0] = (rand[0]! & 0x3f) | 0x80; // the RFC 9562 variant
  const r = rand.toString("hex");
  return `${time.slice(0, 8)}-${time.slice(8)}-7${seq.toString(16).padStart(3, "0")}-${r.slice(0, 4)}-${r.slice(4, 16)}`;
}

/** A session id: random, url-safe, long enough that an 8-character prefix is almost always unique. */
export function newSessionId(): string {
  return randomBytes(16).toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
}
