// Hook text for the model goes through the tool-output budget: a hook that prints a megabyte costs
// the request what a tool result would (head, tail and a pointer), and the whole text is in the
// spill file the pointer names. The real CLI in print mode, real hook scripts, the fake Messages API.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fakeApiFixture } from "../support/fake-api.ts";
import { runCli } from "../support/cli.ts";
import { hookProject } from "./support.ts";
import { RESULT_BUDGET_CHARS } from "../../src/tools/output-budget.ts";

const serve = fakeApiFixture();
const bypass = ["--permission-mode", "bypassPermissions"];

/** A shell snippet printing about 960 KB between two marks, on stdout (or `>&2`). */
const megabyte = (tag: string, to = "") => `{ echo "START-${tag}"; yes "${tag} said something long enough to count" | head -n 24000; echo "END-${tag}"; } ${to}`;

/** Every string in a request's messages (text blocks, tool results), however nested. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === "object") for (const x of Object.values(v)) strings(x, out);
  return out;
}

/** The text carrying `tag`'s output: within the budget, its head and tail kept, the whole in the spill file it names. */
function expectBudgeted(body: unknown, tag: string) {
  const found = strings((body as { messages: unknown }).messages).filter((s) => s.includes(`START-${tag}`));
  expect(found.length).toBe(1);
  // The hook's part of the text it travels in (a tool result carries the tool's output too).
  const from = found[0]!.indexOf(`START-${tag}`);
  const to = found[0]!.indexOf(`END-${tag}`);
  expect(to).toBeGreaterThan(from);
  const part = found[0]!.slice(from, to);
  const pointer = /the full output \([\d,]+ characters\) is in (\S+) — read or grep it/.exec(part);
  expect(pointer).not.toBeNull();
  // The budget, and the notice around the spill file's path (as long as the machine's TMPDIR makes it).
  expect(part.length).toBeLessThanOrEqual(RESULT_BUDGET_CHARS + 200 + pointer![1]!.length);
  const spilled = readFileSync(pointer![1]!, "utf8");
  expect(spilled.length).toBeGreaterThan(900_000);
  expect(spilled).toContain(`START-${tag}`);
  expect(spilled).toContain(`END-${tag}`);
}

describe("hook output and the budget", () => {
  test("a megabyte from UserPromptSubmit, PreToolUse's additionalContext, PostToolUse's block and Stop's block reaches the model budgeted, with a pointer to the whole", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo hi" } }] },
        { content: [{ type: "text", text: "Done." }] },
        { content: [{ type: "text", text: "Really done." }] },
      ],
    });
    const p = hookProject(server.url);
    const json = `printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"%s"}}' "$(${megabyte("PRE")} | tr '\\n' ' ')"`;
    p.hooks({
      UserPromptSubmit: [{ command: p.script("ups", megabyte("UPS")) }],
      PreToolUse: [{ matcher: "Bash", command: p.script("pre", json) }],
      PostToolUse: [{ matcher: "Bash", command: p.script("post", `${megabyte("POST", ">&2")}\nexit 2`) }],
      Stop: [{ command: p.script("stop", `case "$IN" in *'"stop_hook_active":true'*) exit 0;; esac\n${megabyte("STOP", ">&2")}\nexit 2`) }],
    });
    const r = await runCli(["-p", "go", ...bypass], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Really done.");
    const served = server.requests.filter((q) => q.outcome === "served");
    expect(served.length).toBe(3);
    expectBudgeted(served[0]!.body, "UPS");
    expectBudgeted(served[1]!.body, "PRE");
    expectBudgeted(served[1]!.body, "POST");
    expectBudgeted(served[2]!.body, "STOP");
    // No request carries a hook's megabyte whole.
    for (const q of served) expect(JSON.stringify(q.body).length).toBeLessThan(400_000);
  });
});
