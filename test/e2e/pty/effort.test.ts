// /effort in the app: the level shows in the status line (only once one is set), and the next
// request carries it as Claude Code sends it (output_config.effort); a command's `effort`
// frontmatter holds for its own turn, as its `model:` does.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { idle, KEY, ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();

type Body = { output_config?: { effort?: string } };
const efforts = (api: { requests: Array<{ outcome: string; body: unknown }> }) => api.requests.filter((q) => q.outcome === "served").map((q) => (q.body as Body).output_config?.effort ?? null);

describe("/effort", () => {
  test("sets the level for the next requests and shows it in the status line; a command's effort holds for its turn", async () => {
    const dir = tempProject();
    const api = await fixtures.api({ turns: [{ content: [{ type: "text", text: "ANSWER-ONE" }] }, { content: [{ type: "text", text: "ANSWER-TWO" }] }, { content: [{ type: "text", text: "ANSWER-THREE" }] }] });
    const env = isolatedEnv(api.url);
    mkdirSync(join(env.HOME!, ".claude", "commands"), { recursive: true });
    writeFileSync(join(env.HOME!, ".claude", "commands", "deep.md"), "---\ndescription: think hard\neffort: max\n---\nThink hard about it.\n");
    const s = fixtures.pty(["--model", "claude-opus-4-7"], { cwd: dir, env, cols: 120, rows: 30 });
    await s.waitFor(idle, "the composer");
    expect(s.screen()).not.toContain("effort");
    await submit(s, "/effort");
    await s.waitForText("Effort: not set");
    await submit(s, "/effort xhigh");
    await s.waitForText("effort xhigh");
    await submit(s, "first");
    await s.waitForText("ANSWER-ONE");
    await submit(s, "/deep");
    await s.waitForText("ANSWER-TWO");
    await s.waitFor(idle, "the composer");
    await submit(s, "/effort low");
    await s.waitForText("effort low");
    await submit(s, "third");
    await s.waitForText("ANSWER-THREE");
    expect(efforts(api)).toEqual(["xhigh", "max", "low"]);
    await submit(s, "/effort extreme");
    await s.waitForText("extreme is not an effort level");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});
