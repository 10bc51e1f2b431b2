// The link's measure in the real CLI: while an answer streams, device-attributes requests ride
// behind frames (src/tui/screen/link.ts) and the terminal (here xterm.js, which answers DA1 as real
// terminals do) answers each; the answers go to the screen and never reach the composer or the
// transcript, even while the user types.
import { expect, test } from "bun:test";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { idle, ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();

test("DA1 requests ride behind the streamed frames and their answers never type into the composer", async () => {
  const text = Array.from({ length: 60 }, (_, i) => `Line ${i} of a streamed answer, long enough to take a few frames.`).join("\n\n") + "\n\nLINK-END";
  const fake = await fixtures.api({ pacing: { textChunk: 8, delayMs: 3 }, turns: [{ content: [{ type: "text", text }] }] });
  const s = fixtures.pty([], { env: isolatedEnv(fake.url), cwd: tempProject(), cols: 100, rows: 30 });
  await submit(s, "go");
  // Typing while the answer streams: the composer holds exactly what was typed.
  await s.waitForText("Line 3 of");
  s.type("typed while streaming");
  await s.waitFor((sc) => sc.includes("LINK-END") && sc.includes("› typed while streaming"), "the answer's end and the typed text", 60_000);
  const requests = s.output().split("\x1b[c").length - 1;
  expect(requests).toBeGreaterThan(1); // the start-up probe sends one
  const composer = s.screen().split("\n").find((l) => l.startsWith("› "))!;
  expect(composer.trimEnd()).toBe("› typed while streaming");
  expect(s.all()).not.toMatch(/\?\d+(;\d+)*c/);
  s.send("\x15"); // Ctrl-U: the composer empties, back to the placeholder
  await s.waitFor(idle, "the idle composer");
  s.send("\x04");
  expect(await s.exited).toBe(0);
}, 90_000);
