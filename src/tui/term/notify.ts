// Desktop notifications from a terminal app: OSC 9 (iTerm2, kitty, WezTerm, Ghostty, Windows
// Terminal) or OSC 777 (foot's form, also WezTerm's and Ghostty's) where the terminal is known to
// show them, BEL elsewhere (every terminal has a bell; most mark the tab or bounce the dock). The
// terminal is known from the environment: inside tmux TERM_PROGRAM names tmux, so the outer
// terminal is read from what it exports that tmux passes on (LC_TERMINAL, KITTY_WINDOW_ID,
// WT_SESSION). In tmux an OSC goes through tmux's passthrough (DCS tmux; …), which needs
// allow-passthrough; a BEL goes bare, since tmux has its own bell handling (bell-action, and it
// forwards the bell of the current window).
type Env = Record<string, string | undefined>;

export type NotificationMode = "auto" | "bell" | "osc" | "off";

type Kind = "osc9" | "osc777" | "bell";

export function notificationKind(mode: NotificationMode, env: Env): Kind | null {
  if (mode === "off") return null;
  if (mode === "bell") return "bell";
  const term = env.TERM ?? "";
  const prog = env.TERM_PROGRAM ?? "";
  if (term.startsWith("foot")) return "osc777";
  const osc9 =
    prog === "iTerm.app" || env.LC_TERMINAL === "iTerm2" || prog === "WezTerm" || prog === "ghostty" || term === "xterm-ghostty" ||
    term === "xterm-kitty" || Boolean(env.KITTY_WINDOW_ID) || Boolean(env.WT_SESSION);
  if (osc9) return "osc9";
  return mode === "osc" ? "osc9" : "bell";
}

/** The bytes that notify `title: body`; "" for mode "off". */
export function notificationSequence(title: string, body: string, mode: NotificationMode, env: Env, inTmux: boolean): string {
  const kind = notificationKind(mode, env);
  if (kind === null) return "";
  if (kind === "bell") return "\x07";
  // Control characters would end the sequence early; ';' separates OSC 777's fields.
  const clean = (s: string) => s.replace(/[\x00-\x1f\x7f]/g, " ");
  const seq = kind === "osc777" ? `\x1b]777;notify;${clean(title).replaceAll(";", ",")};${clean(body)}\x1b\\` : `\x1b]9;${clean(`${title}: ${body}`)}\x07`;
  return inTmux ? `\x1bPtmux;${seq.replaceAll("\x1b", "\x1b\x1b")}\x1b\\` : seq;
}
