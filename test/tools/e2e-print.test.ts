// Every tool end to end through the real CLI in print mode against the fake Messages API: scripted
// tool calls in, files, outputs and the results the model was sent checked. Includes a dev server
// started with process, waited for, queried with curl through bash, and stopped.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeApi, type FakeApi, type TurnInput } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { leftovers } from "./harness.ts";

let api: FakeApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

const use = (name: string, input: Record<string, unknown>, expect?: TurnInput["expect"]): TurnInput => ({
  content: [{ type: "tool_use", name, input }],
  ...(expect ? { expect } : {}),
});
const okResult = (contentMatches: string) => ({ lastHasToolResult: { isError: false, contentMatches } });

test("print mode drives read, write, edit, grep, glob, bash and process on a real project", async () => {
  const dir = tempProject("khaelor-e2e-tools-");
  writeFileSync(join(dir, "notes.txt"), "alpha\nbeta\ngamma\n");
  const server = `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("pong") });\nawait Bun.write("port.txt", String(s.port));\nconsole.log("Listening on " + s.port);\n`;
  const turns: TurnInput[] = [
    use("read", { file_path: "notes.txt" }),
    use("edit", { file_path: "notes.txt", old_string: "beta", new_string: "BETA" }, okResult("     2\\talpha|     2\\tbeta")),
    use("write", { file_path: "src/server.ts", content: server }, okResult("\\+    2  BETA")),
    use("grep", { pattern: "Listening", output_mode: "content" }, okResult("Created src/server.ts")),
    use("glob", { pattern: "**/*.ts" }, okResult("src/server.ts:3:")),
    use("bash", { command: "cd src && ls" }, okResult("^src/server.ts$")),
    use("process", { action: "start", command: `${process.execPath} server.ts`, name: "api" }, okResult("server.ts[\\s\\S]*cwd: src \\(changed\\)")),
    use("process", { action: "read", id: "api", wait_for: "Listening on \\d+", timeout: 20000 }, okResult('Started "api"')),
    use("bash", { command: 'curl -s "http://127.0.0.1:$(cat port.txt)/"' }, okResult("appeared")),
    use("process", { action: "list" }, okResult("^pong")),
    use("process", { action: "stop", id: "api" }, okResult("\\tapi\\tpid \\d+\\trunning")),
    use("process", { action: "start", command: "echo bye; exit 3", name: "oneshot" }, okResult("Stopped api")),
    use("process", { action: "read", id: "oneshot", wait_for: "never printed" }, okResult("Started")),
    // The process tool's read said it ended; the exit is also announced with the next request.
    { content: [{ type: "text", text: "All tools worked." }], expect: { lastTextMatches: "process oneshot \\(p\\d+\\) exited with code 3" } },
    // The verification policy may ask for a test run after edits; this answers it either way.
    { content: [{ type: "text", text: "Nothing to test: notes.txt is prose." }] },
  ];
  api = await startFakeApi({ scenario: { turns } });
  const r = await runCli(["-p", "exercise the tools", "--output-format", "stream-json", "--permission-mode", "bypassPermissions"], {
    cwd: dir,
    env: isolatedEnv(api.url),
  });
  expect(api.checkFailures).toEqual([]);
  const lines = parseNdjson(r.stdout);
  if (process.env.E2E_DEBUG) for (const l of lines.slice(-8)) console.log(JSON.stringify(l).slice(0, 400));
  expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success" });
  expect(String(lines.at(-1)!.result)).toMatch(/^(All tools worked\.|Nothing to test: notes\.txt is prose\.)$/);
  const results = lines.filter((l) => l.type === "user").map((l) => JSON.stringify(l));
  expect(results.filter((l) => l.includes('"is_error":true')).length).toBe(1); // only the wait for "never printed"
  expect(r.code).toBe(0);
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
  expect(readFileSync(join(dir, "src/server.ts"), "utf8")).toBe(server);
  expect(await leftovers(dir)).toEqual([]);
});
