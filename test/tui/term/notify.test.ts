// Which bytes notify the user, by terminal, tmux and the "notifications" setting: a pure table.
// The app's part (only while the window is away, a turn's end only past the threshold, the
// setting read at start) stays end to end in test/e2e/pty/daily.test.ts.
import { describe, expect, test } from "bun:test";
import { notificationKind, notificationSequence, type NotificationMode } from "../../../src/tui/term/notify.ts";

const BEL = "\x07";
const osc9 = (text: string) => `\x1b]9;${text}\x07`;
const osc777 = (title: string, body: string) => `\x1b]777;notify;${title};${body}\x1b\\`;
const tmux = (seq: string) => `\x1bPtmux;${seq.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`;

type Row = { env: Record<string, string>; mode?: NotificationMode; inTmux?: boolean; want: string };

describe("notificationSequence", () => {
  const rows: Array<[string, Row]> = [
    ["an unknown terminal rings the bell", { env: { TERM: "xterm-256color" }, want: BEL }],
    ["WezTerm gets OSC 9", { env: { TERM_PROGRAM: "WezTerm" }, want: osc9("KHAELOR: waiting for your permission") }],
    ["iTerm2 by TERM_PROGRAM", { env: { TERM_PROGRAM: "iTerm.app" }, want: osc9("KHAELOR: waiting for your permission") }],
    ["iTerm2 by LC_TERMINAL (what tmux passes on)", { env: { TERM_PROGRAM: "tmux", LC_TERMINAL: "iTerm2" }, want: osc9("KHAELOR: waiting for your permission") }],
    ["ghostty by TERM_PROGRAM", { env: { TERM_PROGRAM: "ghostty" }, want: osc9("KHAELOR: waiting for your permission") }],
    ["ghostty by TERM", { env: { TERM: "xterm-ghostty" }, want: osc9("KHAELOR: waiting for your permission") }],
    ["kitty by TERM", { env: { TERM: "xterm-kitty" }, want: osc9("KHAELOR: waiting for your permission") }],
    ["Windows Terminal by WT_SESSION", { env: { WT_SESSION: "1" }, want: osc9("KHAELOR: waiting for your permission") }],
    ["foot gets OSC 777", { env: { TERM: "foot" }, want: osc777("KHAELOR", "waiting for your permission") }],
    ["foot-extra too", { env: { TERM: "foot-extra" }, want: osc777("KHAELOR", "waiting for your permission") }],
    ["in tmux, kitty's OSC 9 goes through the passthrough", { env: { TMUX: "/tmp/tmux-1000/default,1,0", KITTY_WINDOW_ID: "1" }, inTmux: true, want: tmux(osc9("KHAELOR: waiting for your permission")) }],
    ["in tmux, foot's OSC 777 too", { env: { TERM: "foot" }, inTmux: true, want: tmux(osc777("KHAELOR", "waiting for your permission")) }],
    ["in tmux, the bell goes bare (tmux has its own bell handling)", { env: { TERM: "tmux-256color" }, inTmux: true, want: BEL }],
    ['"off": nothing, even in WezTerm', { env: { TERM_PROGRAM: "WezTerm" }, mode: "off", want: "" }],
    ['"bell": the bell, even in WezTerm', { env: { TERM_PROGRAM: "WezTerm" }, mode: "bell", want: BEL }],
    ['"osc": OSC 9 where the terminal is not known to show it', { env: { TERM: "xterm-256color" }, mode: "osc", want: osc9("KHAELOR: waiting for your permission") }],
    ['"osc" in foot: its own OSC 777', { env: { TERM: "foot" }, mode: "osc", want: osc777("KHAELOR", "waiting for your permission") }],
  ];
  for (const [name, row] of rows)
    test(name, () => {
      expect(notificationSequence("KHAELOR", "waiting for your permission", row.mode ?? "auto", row.env, row.inTmux ?? false)).toBe(row.want);
    });

  test("control characters cannot end the sequence early; ';' cannot add an OSC 777 field", () => {
    expect(notificationSequence("KHAELOR", "done\x07\x1b]0;evil\x1b\\", "auto", { TERM_PROGRAM: "WezTerm" }, false)).toBe(osc9("KHAELOR: done  ]0;evil \\"));
    expect(notificationSequence("K;H", "a;b\nc", "auto", { TERM: "foot" }, false)).toBe(osc777("K,H", "a;b c"));
  });

  test("notificationKind names the kind the sequence is built from", () => {
    expect(notificationKind("auto", {})).toBe("bell");
    expect(notificationKind("auto", { KITTY_WINDOW_ID: "3" })).toBe("osc9");
    expect(notificationKind("auto", { TERM: "foot" })).toBe("osc777");
    expect(notificationKind("off", { TERM: "foot" })).toBeNull();
  });
});
