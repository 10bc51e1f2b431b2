// Terminal capabilities: what the environment says, then what the terminal itself answers.
//
// Colour depth comes from the environment only (NO_COLOR, TERM=dumb, COLORTERM, TERM). Synchronized
// output (DEC 2026) is known for some terminals by name, and otherwise asked with DECRQM; inside
// tmux it is always emitted (tmux ≥ 3.4 understands it, older tmux ignores an unknown private mode
// harmlessly, and the query would be answered by tmux rather than the outer terminal anyway).
// The kitty keyboard protocol is used when the terminal answers its query; xterm's
// modifyOtherKeys is requested otherwise (terminals that lack it ignore the request).
import type { ColorDepth } from "../render/colors.ts";
import type { InputEvent } from "./decoder.ts";

export type Caps = {
  colorDepth: ColorDepth;
  syncOutput: boolean;
  kittyKeyboard: boolean;
  bracketedPaste: boolean;
  focusEvents: boolean;
  /** Over SSH: frames are spaced further apart. */
  remote: boolean;
  inTmux: boolean;
};

type Env = Record<string, string | undefined>;

export function colorDepthFromEnv(env: Env): ColorDepth {
  const term = (env.TERM ?? "").toLowerCase();
  if (term === "dumb") return "plain";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return "none";
  const ct = (env.COLORTERM ?? "").toLowerCase();
  if (ct === "truecolor" || ct === "24bit" || term.endsWith("-direct")) return "truecolor";
  if (env.WT_SESSION || env.TERM_PROGRAM === "iTerm.app" || env.TERM_PROGRAM === "WezTerm" || env.TERM_PROGRAM === "ghostty" || term === "xterm-kitty" || term === "xterm-ghostty") return "truecolor";
  if (term.includes("256")) return "256";
  if (term === "" && !env.WT_SESSION) return "16";
  return "16";
}

/** Terminals known to implement DEC 2026 (so no query round trip is needed). */
function knownSync(env: Env): boolean {
  const tp = env.TERM_PROGRAM ?? "";
  const term = env.TERM ?? "";
  return Boolean(env.WT_SESSION) || Boolean(env.KITTY_WINDOW_ID) || term === "xterm-kitty" || term === "xterm-ghostty" || term.startsWith("foot") ||
    ["iTerm.app", "WezTerm", "ghostty", "vscode", "contour", "rio"].includes(tp);
}

/** Capabilities decidable from the environment alone. */
export function capsFromEnv(env: Env): Caps {
  const inTmux = Boolean(env.TMUX) || (env.TERM ?? "").startsWith("tmux");
  const dumb = (env.TERM ?? "") === "dumb";
  return {
    colorDepth: colorDepthFromEnv(env),
    syncOutput: !dumb && (inTmux || knownSync(env)),
    kittyKeyboard: false,
    bracketedPaste: !dumb,
    focusEvents: !dumb,
    remote: Boolean(env.SSH_CONNECTION || env.SSH_TTY || env.SSH_CLIENT),
    inTmux,
  };
}

/** The queries we send: DECRQM for mode 2026, the kitty flags query, and DA1 as a sentinel every terminal answers. */
export const CAPABILITY_QUERY = "\x1b[?2026$p\x1b[?u\x1b[c";

/**
 * Folds the terminal's replies into `caps`. Call with the events decoded until the DA1 answer
 * arrives (terminals answer in order, so DA1 means no other answer is coming) or a short timeout.
 */
export function applyReplies(caps: Caps, replies: InputEvent[]): Caps {
  const out = { ...caps };
  for (const r of replies) {
    if (r.type !== "reply") continue;
    // DECRQM value 1 (set) or 2 (reset) means "recognised"; 0 and 4 mean not supported.
    if (r.kind === "mode" && r.mode === 2026 && (r.value === 1 || r.value === 2)) out.syncOutput = true;
    if (r.kind === "kitty-flags") out.kittyKeyboard = true;
  }
  return out;
}

export type ProbeIo = {
  write(data: string): void;
  /** Subscribe to decoded input events; returns an unsubscribe function. */
  onEvents(listener: (events: InputEvent[]) => void): () => void;
};

/** Sends the capability queries and resolves with the updated caps after DA1 or `timeoutMs`. */
export function probeCaps(caps: Caps, io: ProbeIo, timeoutMs = 150): Promise<{ caps: Caps; replies: InputEvent[]; timedOut: boolean }> {
  if (caps.colorDepth === "plain") return Promise.resolve({ caps, replies: [], timedOut: false });
  return new Promise((resolve) => {
    const replies: InputEvent[] = [];
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      off();
      resolve({ caps: applyReplies(caps, replies), replies, timedOut });
    };
    const off = io.onEvents((events) => {
      for (const e of events) {
        if (e.type !== "reply") continue;
        replies.push(e);
        if (e.kind === "device-attributes") finish(false);
      }
    });
    const timer = setTimeout(() => finish(true), timeoutMs);
    io.write(CAPABILITY_QUERY);
  });
}
