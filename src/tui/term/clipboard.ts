// Copying to the user's clipboard from a terminal app: OSC 52 first, since it reaches the
// clipboard of the machine the user sits at (over SSH, through tmux); the platform's clipboard
// command (src/platform/clipboard.ts) where the terminal is known to ignore OSC 52 or the text is
// too big for it. Nothing tells us whether an OSC 52 arrived, so the caller says where it was sent.
//
// In tmux the sequence goes twice: bare, for tmux's own clipboard handling (set-clipboard, on by
// default, forwards it to the outer terminal), and wrapped in tmux's passthrough (DCS tmux; …, ESC
// doubled) for a tmux with allow-passthrough on and set-clipboard off. The outer terminal may set
// its clipboard twice to the same text, which is harmless.
import { clipboardHelper, copyText, type ClipboardHelper } from "../../platform/clipboard.ts";

type Env = Record<string, string | undefined>;

/** Base64 characters an OSC 52 may carry: xterm's default and tmux cap near here, kitty and others higher. */
export const OSC52_MAX_BASE64 = 100_000;

export type CopyResult = { ok: true; where: string } | { ok: false; error: string };

export function osc52(text: string, inTmux: boolean): string {
  const seq = `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
  return inTmux ? seq + tmuxPassthrough(seq) : seq;
}

export function tmuxPassthrough(seq: string): string {
  return `\x1bPtmux;${seq.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`;
}

/**
 * Terminals that ignore OSC 52 (so a copy through it would silently do nothing): Apple's
 * Terminal, the VTE family (GNOME Terminal, Tilix, …) and the Linux console. Inside tmux the
 * outer terminal is unknown (tmux sets TERM_PROGRAM to itself), and tmux takes OSC 52 itself.
 */
export function lacksOsc52(env: Env): boolean {
  if (env.TMUX) return false;
  return env.TERM_PROGRAM === "Apple_Terminal" || Boolean(env.VTE_VERSION) || env.TERM === "linux";
}

export type CopyIo = {
  write(data: string): void;
  env: Env;
  inTmux: boolean;
  /** The platform's clipboard command (default: looked up on PATH). */
  helper?: ClipboardHelper | null;
};

export async function copyToClipboard(text: string, io: CopyIo): Promise<CopyResult> {
  const base64Length = Math.ceil(Buffer.byteLength(text, "utf8") / 3) * 4;
  const fits = base64Length <= OSC52_MAX_BASE64;
  const lacks = lacksOsc52(io.env);
  if (fits && !lacks) {
    io.write(osc52(text, io.inTmux));
    return { ok: true, where: `the terminal's clipboard (OSC 52${io.inTmux ? " through tmux" : ""})` };
  }
  const helper = io.helper === undefined ? clipboardHelper(process.platform, io.env) : io.helper;
  if (helper) {
    try {
      await copyText(text, helper, io.env);
      return { ok: true, where: `the clipboard (${helper.copy[0]})` };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }
  if (!fits) return { ok: false, error: `too large to copy through the terminal (${Math.round(base64Length / 1024)} KB encoded; terminals take about ${OSC52_MAX_BASE64 / 1000} KB) and no clipboard command (pbcopy, wl-copy, xclip, xsel) was found` };
  return { ok: false, error: "this terminal does not take OSC 52 copies and no clipboard command (pbcopy, wl-copy, xclip, xsel) was found" };
}
