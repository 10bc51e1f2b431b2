// --add-dir and Claude Code's permissions.additionalDirectories: more directories the tools may use,
// permission-wise as the project (reads unasked; writes ask in the default mode and run in
// acceptEdits). A project's file adding one widens what is reachable: held until trusted.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-added-"));
  writeFileSync(join(dir, "notes.txt"), "ADDED-DIR-CONTENT\n");
  return dir;
}

async function run(call: { name: string; input: Record<string, unknown> }, args: string[], expectResult: { isError: boolean; contentMatches: string }, project?: (dir: string) => void) {
  const server = await serve({
    turns: [{ content: [{ type: "tool_use", ...call }] }, { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: expectResult } }],
  });
  const dir = tempProject();
  project?.(dir);
  const r = await runCli(["-p", "go", ...args], { cwd: dir, env: isolatedEnv(server.url) });
  expect(server.checkFailures).toEqual([]);
  return r;
}

describe("--add-dir", () => {
  test("a file there is read unasked; without it the read asks (a denial in print mode)", async () => {
    const out = outside();
    const read = { name: "read", input: { file_path: join(out, "notes.txt") } };
    expect((await run(read, ["--add-dir", out], { isError: false, contentMatches: "ADDED-DIR-CONTENT" })).code).toBe(0);
    await run(read, [], { isError: true, contentMatches: "outside the project" });
  });

  test("a write there asks in the default mode and runs in acceptEdits", async () => {
    const out = outside();
    const write = { name: "write", input: { file_path: join(out, "new.txt"), content: "written\n" } };
    await run(write, ["--add-dir", out], { isError: true, contentMatches: "new.txt" });
    expect(existsSync(join(out, "new.txt"))).toBe(false);
    await run(write, ["--add-dir", out, "--permission-mode", "acceptEdits"], { isError: false, contentMatches: "" });
    expect(readFileSync(join(out, "new.txt"), "utf8")).toBe("written\n");
  });

  test("a directory that does not exist is a usage error", async () => {
    const r = await runCli(["-p", "go", "--add-dir", "/nonexistent/khaelor-dir"], { cwd: tempProject(), env: isolatedEnv("http://127.0.0.1:9") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--add-dir /nonexistent/khaelor-dir: no such directory");
  });
});

describe("permissions.additionalDirectories", () => {
  const inSettings = (out: string) => (dir: string) => {
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ permissions: { additionalDirectories: [out] } }));
  };

  test("a project's file adding a directory is held until the project is trusted", async () => {
    const out = outside();
    const read = { name: "read", input: { file_path: join(out, "notes.txt") } };
    const held = await run(read, [], { isError: true, contentMatches: "outside the project" }, inSettings(out));
    expect(held.stderr).toContain(`permissions.additionalDirectories ${out}`);
    await run(read, ["--trust-project"], { isError: false, contentMatches: "ADDED-DIR-CONTENT" }, inSettings(out));
  });
});
