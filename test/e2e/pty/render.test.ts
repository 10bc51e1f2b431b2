// The renderer end to end: the real CLI in a pty, answers streamed by the fake API, the history
// read back from a real emulator's scrollback. Each case once lost or garbled history.
import { describe, expect, test } from "bun:test";
import { type ScenarioInput } from "../../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { type PtySession, idle, ptyFixtures } from "./harness.ts";
import { demoScenario } from "../../../src/demo/index.ts";

const fixtures = ptyFixtures();

/** Runs one prompt against `text` streamed 4 characters per delta; returns the session once idle. */
async function answer(text: string, cols: number, rows: number): Promise<PtySession> {
  const scenario: ScenarioInput = { turns: [{ content: [{ type: "text", text }] }], pacing: { textChunk: 4, delayMs: 4 } };
  const api = await fixtures.api(scenario);
  const s = fixtures.pty([], { cwd: tempProject(), env: isolatedEnv(api.url), cols, rows });
  await s.waitFor(idle, "the composer");
  s.type("go");
  s.send("\r");
  // Logical lines, not screen rows: at narrow widths prose wraps mid-word, so the mark may straddle rows.
  await s.waitFor((sc) => s.all().includes("END-MARK") && idle(sc), "the end of the answer");
  return s;
}

/** The history's lines that mention `re`'s items, in order. */
const matching = (s: PtySession, re: RegExp) => s.all().split("\n").filter((l) => re.test(l));

const CODE = Array.from({ length: 30 }, (_, i) => `line_${String(i + 1).padStart(2, "0")} = ${i + 1}`);
const FENCED = `Intro paragraph.\n\n\`\`\`python\n${CODE.join("\n")}\n\`\`\`\nAfter the code END-MARK.\n`;
const ITEMS = Array.from({ length: 30 }, (_, i) => `item_${String(i + 1).padStart(2, "0")}`);
const LIST = `Intro paragraph.\n\n${ITEMS.map((t) => `- ${t}`).join("\n")}\n\nAfter the list END-MARK.\n`;

describe("a block taller than the screen while it streams", () => {
  for (const [cols, rows] of [[80, 24], [80, 10], [20, 6]] as const) {
    test(`a 30-line code block at ${cols}×${rows}: every line once, in order`, async () => {
      const s = await answer(FENCED, cols, rows);
      const lines = matching(s, /line_|END-MARK|Intro|After/);
      // At 20 columns the last paragraph wraps, between words.
      expect(lines).toEqual(["Intro paragraph.", ...CODE, ...(cols < 24 ? ["After the code", "END-MARK."] : ["After the code END-MARK."])]);
      s.kill();
    }, 60_000);
  }

  test("a 30-item list at 80×10: every item once, in order", async () => {
    const s = await answer(LIST, 80, 10);
    const lines = matching(s, /item_|END-MARK|Intro/);
    expect(lines.map((l) => l.replace(/^\s*\S\s+(?=item)/, "").trim())).toEqual(["Intro paragraph.", ...ITEMS, "After the list END-MARK."]);
    s.kill();
  }, 60_000);

  test("the demo's opening answer (quote, table) at 80×10: each table row once", async () => {
    const first = demoScenario.turns[0]!.content.find((b) => b.type === "text");
    const intro = first && first.type === "text" ? first.text : "";
    expect(intro).toContain("| Step | Tool | Why |");
    const s = await answer(`${intro}\n\nAfter the table END-MARK.\n`, 80, 10);
    const rows = matching(s, /│ (\d|Step) |END-MARK/);
    expect(rows.map((l) => /│ (\d|Step) |(END-MARK)/.exec(l)!.slice(1).find(Boolean))).toEqual(["Step", "1", "2", "3", "4", "END-MARK"]);
    s.kill();
  }, 60_000);
});
