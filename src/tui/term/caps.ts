// Terminal capabilities: what the environment says, then what the terminal itself answers.
//
// Colour depth comes from the environment only (NO_COLOR, TERM=dumb, COLORTERM, TERM). Synchronized
// output (DEC 2026) is known for some terminals by name, and otherwise asked with DECRQM; inside
// tmux it is always emitted (tmux ≥ 3.4 understands it, older tmux ignores an unknown private mode
// harmlessly, and the query would be answered by tmux rather than the outer terminal anyway).
// The kitty keyboard protocol is used when the terminal answers its query; xterm's
// modifyOtherKeys is requested otherwise (terminals that lack it ignore the request).
// The same round trip learns how the terminal draws emoji sequences (grapheme-cluster mode 2027,
// else a measurement: ./width-probe.ts) and its background colour (OSC 11, for the theme).
import type { ColorDepth } from "../render/colors.ts";
import { GRAPHEME, SAFE, type WidthRule } from "../render/width-rules.ts";
import type { InputEvent } from "./decoder.ts";
import { WIDTH_PROBE, WIDTH_PROBE_REPORTS, widthRuleFromReports } from "./width-probe.ts";

export type Caps = {
  colorDepth: ColorDepth;
  syncOutput: boolean;
  kittyKeyboard: boolean;
  bracketedPaste: boolean;
  focusEvents: boolean;
  /** Over SSH: frames are spaced further apart. */
  remote: boolean;
  inTmux: boolean;
  /** How this terminal draws emoji sequences; SAFE until (or unless) it answers. */
  widths: WidthRule;
  /** Mode 2027 (grapheme clusters) is off but switchable: we turn it on, and off again on the way out. */
  graphemeMode: boolean;
  /** The terminal's background colour (OSC 11), when it said. */
  background: { r: number; g: number; b: number } | null;
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
    widths: SAFE,
    graphemeMode: false,
    background: null,
  };
}

/**
 * The queries we send: DECRQM for modes 2026 and 2027, the kitty flags query, the background
 * colour (not without colour: nothing would use it), the width probe, and DA1 as a sentinel every
 * terminal answers.
 */
export function capabilityQuery(caps: Caps): string {
  return "\x1b[?2026$p\x1b[?2027$p\x1b[?u" + (caps.colorDepth === "none" ? "" : "\x1b]11;?\x1b\\") + WIDTH_PROBE + "\x1b[c";
}
export { WIDTH_PROBE_REPORTS };

/**
 * Folds the terminal's replies into `caps`. Call with the events decoded until the DA1 answer
 * arrives (terminals answer in order, so DA1 means no other answer is coming) or a short timeout.
 */
export function applyReplies(caps: Caps, replies: InputEvent[]): Caps {
  const out = { ...caps };
  const cursors: Array<{ row: number; col: number }> = [];
  let grapheme = 0;
  for (const r of replies) {
    if (r.type !== "reply") continue;
    // DECRQM value 1 (set) or 2 (reset) means "recognised"; 0 and 4 mean not supported, 3 permanently set.
    if (r.kind === "mode" && r.mode === 2026 && (r.value === 1 || r.value === 2)) out.syncOutput = true;
    if (r.kind === "mode" && r.mode === 2027) grapheme = r.value;
    if (r.kind === "kitty-flags") out.kittyKeyboard = true;
    if (r.kind === "cursor") cursors.push({ row: r.row, col: r.col });
    if (r.kind === "background") out.background = { r: r.r, g: r.g, b: r.b };
  }
  if (grapheme === 1 || grapheme === 2 || grapheme === 3) {
    out.widths = GRAPHEME;
    out.graphemeMode = grapheme === 2;
  } else if (cursors.length > 0) out.widths = widthRuleFromReports(cursors);
  return out;
}

export type ProbeIo = {
  write(data: string): void;
  /** The decoder is told how many cursor position reports to read as replies. */
  expectCursorReports(n: number): void;
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
    io.expectCursorReports(WIDTH_PROBE_REPORTS);
    io.write(capabilityQuery(caps));
  });
}
