// Emoji sequences stay whole in the terminal's own widths (issue 18): the real CLI in a pty whose
// emulator measures per code point (xterm.js with Unicode 11, as xterm) or in grapheme clusters
// (xterm.js's graphemes addon, as kitty, WezTerm, Ghostty), and inside a real tmux. The app learns
// which at start-up by the cursor-position probe; nothing of the probe shows.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { isolatedEnv, tempProject, cliCommand } from "../../support/cli.ts";
import type { WidthModel } from "../../tui/support/terminal.ts";
import { KEY, idle, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();
const ANSWER = [
  "Developer at work: 👩‍💻 (woman + ZWJ + laptop)",
  "Family: 👨‍👩‍👧 (three people, two ZWJ)",
  "Heart: ❤️ (VS16) and thumbs 👍🏽 (skin tone), flag 🇫🇷 END",
].join("\n\n");
const LINES = ANSWER.split("\n\n");

describe("emoji sequences in the terminal's widths", () => {
  for (const model of ["unicode11", "xterm-graphemes"] as const satisfies readonly WidthModel[]) {
    test(`${model}: every ZWJ line of the answer reads whole, and no probe answer reached the screen or the composer`, async () => {
      const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: ANSWER }] }] });
      const s = fixtures.pty([], { cwd: tempProject(), env: isolatedEnv(fake.url), widths: model });
      await s.waitFor(idle, "the composer");
      s.type("go");
      s.send(KEY.enter);
      await s.waitFor((sc) => sc.includes("END") && idle(sc), "the answer");
      const shown = s.term.lines().map((l) => l.trim());
      for (const line of LINES) expect(shown).toContain(line);
      // The request carried what was typed, and nothing else: no stray report became a key.
      expect(JSON.stringify(fake.requests[0]?.body)).toContain('"go"');
      expect(s.screen()).not.toMatch(/\d+;\d+R|\[\?|rgb:/);
    });
  }
});

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

describe.skipIf(!hasTmux)("inside tmux", () => {
  test("tmux's own rules (ZWJ joined, VS16 not widened): every line reads whole in capture-pane", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: ANSWER }] }] });
    const sock = `khaelor-widths-${process.pid}`;
    const env = { ...isolatedEnv(fake.url), TERM: "xterm-256color", LANG: "C.UTF-8", LC_ALL: "C.UTF-8", KHAELOR_PROBE_TIMEOUT_MS: "20000" };
    const tmux = (...args: string[]) => spawnSync("tmux", ["-L", sock, "-f", "/dev/null", ...args], { env, encoding: "utf8" });
    const capture = () => tmux("capture-pane", "-p", "-J", "-S", "-100", "-t", "w").stdout;
    /** tmux has no event for "the pane shows X": poll its grid, with a deadline that shows it. */
    const waitPane = async (pred: (pane: string) => boolean, what: string) => {
      const end = Date.now() + 20_000;
      while (!pred(capture())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; pane:\n${capture()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const cmd = cliCommand([]).map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    try {
      expect(tmux("new-session", "-d", "-s", "w", "-x", "100", "-y", "30", "-c", tempProject(), cmd).status).toBe(0);
      await waitPane((p) => p.includes("ask anything"), "the composer");
      tmux("send-keys", "-t", "w", "-l", "go");
      tmux("send-keys", "-t", "w", "Enter");
      await waitPane((p) => p.includes("END") && p.includes("ask anything"), "the answer");
      const shown = capture().split("\n").map((l) => l.trim());
      for (const line of LINES) expect(shown).toContain(line);
      expect(capture()).not.toMatch(/\d+;\d+R|\[\?|rgb:/);
    } finally {
      tmux("kill-server");
    }
  }, 60_000);
});
