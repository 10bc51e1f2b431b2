import { describe, expect, test } from "bun:test";
import { applyReplies, capsFromEnv, colorDepthFromEnv } from "../../../src/tui/term/caps.ts";
import { createInputDecoder } from "../../../src/tui/term/decoder.ts";

describe("colour depth from the environment", () => {
  test.each([
    [{ TERM: "dumb", COLORTERM: "truecolor" }, "plain"],
    [{ TERM: "xterm-256color", NO_COLOR: "1" }, "none"],
    [{ TERM: "xterm-256color", COLORTERM: "truecolor" }, "truecolor"],
    [{ TERM: "xterm-direct" }, "truecolor"],
    [{ TERM: "xterm-256color" }, "256"],
    [{ TERM: "xterm" }, "16"],
    [{ TERM: "xterm-256color", WT_SESSION: "x" }, "truecolor"],
  ] as const)("%o → %s", (env, depth) => {
    expect(colorDepthFromEnv(env)).toBe(depth);
  });
});

describe("synchronized output and keyboard protocol", () => {
  test("always on inside tmux, known terminals by name, off for an unknown xterm until it answers", () => {
    expect(capsFromEnv({ TERM: "screen-256color", TMUX: "/tmp/tmux-1/default,1,0" }).syncOutput).toBe(true);
    expect(capsFromEnv({ TERM: "xterm-256color", TERM_PROGRAM: "WezTerm" }).syncOutput).toBe(true);
    expect(capsFromEnv({ TERM: "xterm-256color", WT_SESSION: "abc" }).syncOutput).toBe(true);
    expect(capsFromEnv({ TERM: "xterm-256color" }).syncOutput).toBe(false);
    expect(capsFromEnv({ TERM: "xterm-256color", SSH_CONNECTION: "1 2 3 4" }).remote).toBe(true);
  });

  test("a DECRQM answer of set/reset turns DEC 2026 on; 'not recognised' (0) leaves it off", () => {
    const base = capsFromEnv({ TERM: "xterm-256color" });
    const d = createInputDecoder();
    expect(applyReplies(base, d.feed("\x1b[?2026;2$y\x1b[?62c")).syncOutput).toBe(true);
    expect(applyReplies(base, d.feed("\x1b[?2026;0$y\x1b[?62c")).syncOutput).toBe(false);
  });

  test("the kitty protocol is used only when the terminal answers its flags query", () => {
    const base = capsFromEnv({ TERM: "xterm-kitty" });
    const d = createInputDecoder();
    expect(applyReplies(base, d.feed("\x1b[?0u\x1b[?62c")).kittyKeyboard).toBe(true);
    expect(applyReplies(base, d.feed("\x1b[?62c")).kittyKeyboard).toBe(false);
  });
});
