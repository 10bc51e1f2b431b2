// PostToolUse's tool_response is made by each tool from what it did, not parsed back out of the
// text it wrote for the model: a file whose name looks like one of that text's notes is still a
// file. The real CLI in print mode, real hook scripts, the fake Messages API.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { runCli } from "../support/cli.ts";
import { hookProject } from "./support.ts";

const serve = fakeApiFixture();

describe("PostToolUse tool_response", () => {
  test("glob's and grep's filenames are the files found, whatever their names look like", async () => {
    const call = (name: string, input: Record<string, unknown>) => ({ content: [{ type: "tool_use" as const, name, input }] });
    const server = await serve({ turns: [call("glob", { pattern: "*.tsx" }), call("grep", { pattern: "needle" }), { content: [{ type: "text", text: "done" }] }] });
    const p = hookProject(server.url);
    // A Next.js route file, and a file named like grep's "nothing found" line.
    writeFileSync(join(p.dir, "[slug].tsx"), "export default 1;\n");
    writeFileSync(join(p.dir, "No matches.txt"), "a needle here\n");
    p.hooks({ PostToolUse: [{ command: p.script("log", "exit 0") }] });
    const r = await runCli(["-p", "go", "--permission-mode", "bypassPermissions"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    const [glob, grep] = p.received().map((j) => j.tool_response as Record<string, unknown>);
    expect(glob).toMatchObject({ filenames: [join(resolve(p.dir), "[slug].tsx")], numFiles: 1, truncated: false });
    expect(grep).toEqual({ mode: "files_with_matches", filenames: [join(resolve(p.dir), "No matches.txt")], numFiles: 1 });
  });
});
