// The real CLI starts a server in a terminal through the process tool, reads its ready line, and
// exits: nothing it started is left running. A real python3 -m http.server, a real exit.
import { expect, test } from "bun:test";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { leftovers } from "../tools/harness.ts";

const serve = fakeApiFixture();

test("a server started in a terminal is up while the run works and gone when it exits", async () => {
  const dir = tempProject("khaelor-exit-");
  const api = await serve({
    turns: [
      { content: [{ type: "tool_use", name: "process", input: { action: "start", name: "web", command: `python3 -m http.server 0 --bind 127.0.0.1 --directory ${dir}` } }] },
      { content: [{ type: "tool_use", name: "process", input: { action: "read", id: "web", wait_for: "Serving HTTP on", timeout: 30_000 } }] },
      { content: [{ type: "text", text: "It is up." }], expect: { lastHasToolResult: { isError: false, contentMatches: "Serving HTTP on 127\\.0\\.0\\.1 port \\d+" } } },
    ],
  });
  const r = await runCli(["-p", "start the server", "--permission-mode", "bypassPermissions"], { cwd: dir, env: isolatedEnv(api.url) });
  expect(api.checkFailures).toEqual([]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("It is up.");
  expect(await leftovers(dir)).toEqual([]);
}, 90_000);
