// grep over a directory when no rule names paths: nothing is listed first, ripgrep leaves the
// secret-bearing names out by itself, and those that hold a match are named. The real engine (no
// settings), the real embedded ripgrep behind a wrapper that records how it was called.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createPermissionEngine, type PermissionEngine } from "../../src/permissions/index.ts";
import { makeHarness, type Harness } from "./harness.ts";

let h: Harness;
let engine: PermissionEngine;
let home: string;
let log: string;

function put(rel: string, text: string) {
  mkdirSync(dirname(join(h.dir, rel)), { recursive: true });
  writeFileSync(join(h.dir, rel), text);
}

beforeAll(async () => {
  h = makeHarness("khaelor-search-secrets-", { searchGuard: (tool, dir) => engine.searchFilter(tool, dir) });
  home = mkdtempSync(join(tmpdir(), "khaelor-search-secrets-home-"));
  put("src/a.ts", "const needle = 1;\n");
  put(".env", "needle SECRET-ENV\n");
  put(".env.example", "needle TEMPLATE\n");
  put("config/prod.pem", "needle PEM-BODY\n");
  put("config/other.key", "nothing to see\n");
  put("deploy/id_rsa", "needle RSA-BODY\n");
  engine = await createPermissionEngine({ projectRoot: h.dir, home, configHome: join(home, ".config") });
  // every ripgrep run is recorded, one line of arguments each
  const real = h.ws.ripgrepPath();
  log = join(home, "rg.log");
  const wrapper = join(home, "rg-wrapper.sh");
  writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  h.ws.ripgrepPath = () => wrapper;
});
afterAll(async () => {
  await h.cleanup();
  rmSync(home, { recursive: true, force: true });
});

async function grep(input: Record<string, unknown>): Promise<{ text: string; runs: string[] }> {
  writeFileSync(log, "");
  expect(engine.decide({ tool: "grep", input, cwd: h.ws.cwd }).behavior).toBe("allow");
  const r = await h.call("grep", input);
  expect(r.isError).toBe(false);
  return { text: r.text, runs: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

test("with no rules, nothing is listed first; secret files are left out by ripgrep and the matching ones named", async () => {
  const { text, runs } = await grep({ pattern: "needle", output_mode: "content" });
  expect(runs.some((r) => r.includes("--files ") && !r.includes("--files-with-matches"))).toBe(false);
  expect(runs[0]).toContain("--glob !*.pem");
  expect(text).toContain("src/a.ts:1:const needle = 1;");
  expect(text).not.toContain("PEM-BODY");
  expect(text).not.toContain("RSA-BODY");
  expect(text).toContain("2 files were not searched because reading them asks the user first");
  expect(text).toContain("config/prod.pem");
  expect(text).toContain("deploy/id_rsa");
  // a secret file without a match is not mentioned: the names depend on the pattern, which an ask allows
  expect(text).not.toContain("other.key");
  const none = await grep({ pattern: "no such text" });
  expect(none.text).not.toContain("not searched");
});

test("hidden files searched on purpose: .env is named, not shown; a template is searched by its path", async () => {
  const { text } = await grep({ pattern: "needle", glob: ".env*", output_mode: "content" });
  expect(text).not.toContain("SECRET-ENV");
  expect(text).toContain(".env.example:1:needle TEMPLATE");
  expect(text).toContain("1 file was not searched because reading it asks the user first (.env files usually hold secrets): .env");
});

test("bypassPermissions asks nobody: the secret files are searched like the rest", async () => {
  engine.setMode("bypassPermissions");
  try {
    const { text } = await grep({ pattern: "needle", output_mode: "content" });
    expect(text).toContain("PEM-BODY");
    expect(text).not.toContain("not searched");
  } finally {
    engine.setMode("default");
  }
});

test("an ask rule on paths brings the listing back", async () => {
  engine.grant("Read(./src/**)", "session");
  const filter = engine.searchFilter("grep", h.dir);
  expect(filter.active).toBe(false);
  put(".khaelor/settings.json", JSON.stringify({ permissions: { ask: ["Read(./config/**)"] } }));
  engine.reload();
  try {
    const { runs } = await grep({ pattern: "needle" });
    expect(runs.some((r) => /--files (?!-)/.test(`${r} `) && !r.includes("--files-with-matches"))).toBe(true);
  } finally {
    rmSync(join(h.dir, ".khaelor"), { recursive: true, force: true });
    engine.reload();
  }
});
