// --fallback-model, as Claude Code: after three overload errors (529) in a row, the next attempt
// goes to the fallback model, and the run says so. The fake API answers 529 three times (with
// retry-after-ms, so nothing waits out a backoff), and its request log shows each attempt's model.
import { expect, test } from "bun:test";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();
const overloaded = { type: "overloaded" as const, retryAfterMs: 1 };

test("three overloads in a row: the fourth attempt uses the fallback model, and stderr says so", async () => {
  const server = await serve({ turns: [{ content: [{ type: "text", text: "answered" }], faults: [overloaded, overloaded, overloaded] }] });
  const r = await runCli(["-p", "hi", "--model", "claude-opus-4-7", "--fallback-model", "claude-sonnet-4-5", "--verbose"], { cwd: tempProject(), env: isolatedEnv(server.url) });
  expect(server.requests.map((q) => [(q.body as { model: string }).model, q.outcome])).toEqual([
    ["claude-opus-4-7", "fault"],
    ["claude-opus-4-7", "fault"],
    ["claude-opus-4-7", "fault"],
    ["claude-sonnet-4-5", "served"],
  ]);
  expect(r.stderr).toContain("claude-opus-4-7 was overloaded 3 times in a row: the next attempt uses claude-sonnet-4-5 (--fallback-model)");
  expect(r.stdout).toBe("answered\n");
  expect(r.code).toBe(0);
});

test("an overload broken by another error starts the count again; without the flag the model stays", async () => {
  const server = await serve({
    turns: [{ content: [{ type: "text", text: "a" }], faults: [overloaded, overloaded, { type: "rate_limit", retryAfterMs: 1 }, overloaded] }, { content: [{ type: "text", text: "b" }], faults: [overloaded, overloaded, overloaded] }],
  });
  await runCli(["-p", "hi", "--model", "claude-opus-4-7", "--fallback-model", "claude-sonnet-4-5"], { cwd: tempProject(), env: isolatedEnv(server.url) });
  expect(server.requests.map((q) => (q.body as { model: string }).model)).toEqual(Array(5).fill("claude-opus-4-7"));
  await runCli(["-p", "hi", "--model", "claude-opus-4-7"], { cwd: tempProject(), env: isolatedEnv(server.url) });
  expect(server.requests.slice(5).map((q) => (q.body as { model: string }).model)).toEqual(Array(4).fill("claude-opus-4-7"));
});
