// grep and glob over a directory leave out what the permission rules hide below it: a real
// project, the real permission engine (settings file on disk), the real embedded ripgrep. Every
// call goes through engine.decide() first, as the kernel's gate does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createPermissionEngine, type PermissionEngine } from "../../src/permissions/index.ts";
import { makeHarness, type Harness } from "./harness.ts";

let h: Harness;
let engine: PermissionEngine;
let home: string;
let outside: string;

function put(abs: string, text: string) {
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

/** What the model would see: the engine's decision first, the tool only when it allows. */
async function call(name: string, input: Record<string, unknown>): Promise<{ behavior: string; text: string }> {
  const d = engine.decide({ tool: name, input, cwd: h.ws.cwd });
  if (d.behavior !== "allow") return { behavior: d.behavior, text: d.reason };
  const r = await h.call(name, input);
  expect(r.isError).toBe(false);
  return { behavior: "allow", text: r.text };
}

beforeAll(async () => {
  h = makeHarness("khaelor-search-perm-", { searchGuard: (tool, dir) => engine.searchFilter(tool, dir) });
  home = mkdtempSync(join(tmpdir(), "khaelor-search-home-"));
  outside = mkdtempSync(join(tmpdir(), "khaelor-search-out-"));
  const p = (rel: string) => join(h.dir, rel);
  put(p(".khaelor/settings.json"), JSON.stringify({
    permissions: {
      deny: ["Read(./secrets/**)", `Read(/${outside}/vault/**)`, "Read(*.secret)"],
      ask: ["Read(./private/**)"],
    },
  }));
  put(p("src/a.ts"), "const needle = 1;\n");
  put(p("src/b.ts"), "before\nneedle two\nafter\n");
  put(p("secrets/key.txt"), "needle SECRET-TOKEN-1\n");
  put(p("secrets/deep/more.txt"), "needle SECRET-TOKEN-2\n");
  put(p("secrets/we[i]rd *.txt"), "needle SECRET-TOKEN-3\n");
  put(p("private/notes.md"), "needle private note\n");
  put(p("config/prod.pem"), "needle PEM-BODY\n");
  symlinkSync(join(h.dir, "secrets"), p("link-secrets"));
  symlinkSync(join(h.dir, "secrets", "key.txt"), p("link-key"));
  put(join(outside, "notes.txt"), "needle outside\n");
  put(join(outside, "vault/keys.txt"), "needle VAULT-TOKEN\n");
  engine = await createPermissionEngine({ projectRoot: h.dir, home, configHome: join(home, ".config") });
});
afterAll(async () => {
  await h.cleanup();
  rmSync(home, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const noSecrets = (text: string) => {
  expect(text).not.toContain("SECRET-TOKEN");
  expect(text).not.toMatch(/^(secrets|link-secrets)\//m);
  expect(text).not.toContain("we[i]rd");
  expect(text).not.toContain("more.txt");
};

describe("grep over a parent of a denied folder", () => {
  test("no mode shows what is inside the denied folder, and the result says how many files were left out", async () => {
    const content = await call("grep", { pattern: "needle", output_mode: "content" });
    expect(content.behavior).toBe("allow");
    noSecrets(content.text);
    expect(content.text).toContain("src/a.ts:1:const needle = 1;");
    expect(content.text).toContain("3 files under . were not searched: denied by Read(./secrets/**) (project settings)");
    const files = await call("grep", { pattern: "needle" });
    noSecrets(files.text);
    expect(files.text.split("\n").slice(0, 2).sort()).toEqual(["src/a.ts", "src/b.ts"]);
    const count = await call("grep", { pattern: "SECRET-TOKEN", output_mode: "count" });
    expect(count.text).toContain("No matches");
    expect(count.text).toContain("3 files under . were not searched");
  });

  test("the number left out does not depend on the pattern, so it says nothing about the contents", async () => {
    const hit = await call("grep", { pattern: "SECRET-TOKEN-2" });
    const miss = await call("grep", { pattern: "no such text anywhere" });
    for (const r of [hit, miss]) expect(r.text).toContain("3 files under . were not searched: denied by");
  });

  test("files that reading directly would ask about are left out and named, so the model can ask for them", async () => {
    const r = await call("grep", { pattern: "needle", output_mode: "content" });
    expect(r.text).not.toContain("private note");
    expect(r.text).not.toContain("PEM-BODY");
    expect(r.text).toContain("2 files were not searched because reading them asks the user first");
    expect(r.text).toContain("private/notes.md");
    expect(r.text).toContain("config/prod.pem");
    // searching the ask folder itself asks; once the user said yes, its files are not asked about again
    expect((await call("grep", { pattern: "needle", path: "private" })).behavior).toBe("ask");
    const approved = await h.call("grep", { pattern: "needle", path: "private", output_mode: "content" });
    expect(approved.text).toBe("private/notes.md:1:needle private note");
  });

  test("bypassPermissions searches what would ask, never what is denied", async () => {
    engine.setMode("bypassPermissions");
    try {
      const r = await call("grep", { pattern: "needle", output_mode: "content" });
      expect(r.text).toContain("private note");
      expect(r.text).toContain("PEM-BODY");
      noSecrets(r.text);
      expect(r.text).toContain("3 files under . were not searched");
    } finally {
      engine.setMode("default");
    }
  });

  test("a search rooted in the denied folder, however spelled, is denied before it runs", async () => {
    for (const path of ["secrets", "secrets/../secrets", "src/../secrets/deep", "link-secrets", "./secrets/"]) {
      const r = await call("grep", { pattern: "needle", path });
      expect(r.behavior).toBe("deny");
      expect(r.text).toContain("Read(./secrets/**)");
    }
    expect((await call("read", { file_path: "link-key" })).behavior).toBe("deny");
    expect((await call("read", { file_path: "link-secrets/deep/more.txt" })).behavior).toBe("deny");
  });

  test("a deny outside the project is kept out of a search there too", async () => {
    engine.grant(`Read(/${outside}/**)`, "session");
    const r = await call("grep", { pattern: "needle", path: outside, output_mode: "content" });
    expect(r.text).toContain("notes.txt:1:needle outside");
    expect(r.text).not.toContain("VAULT-TOKEN");
    expect(r.text).toContain(`1 file under ${outside} was not searched: denied by Read(/${outside}/vault/**)`);
  });

  test("denied files scattered among searchable ones are left out one by one, also past the exclusion limit", async () => {
    for (let i = 0; i < 520; i++) {
      put(join(h.dir, "mixed", `f${i}.secret`), `needle SCATTERED-${i}\n`);
      if (i % 10 === 0) put(join(h.dir, "mixed", `f${i}.txt`), "needle plain\n");
    }
    try {
      const r = await call("grep", { pattern: "needle", path: "mixed", output_mode: "content", head_limit: 1000 });
      expect(r.text).not.toContain("SCATTERED");
      expect(r.text.split("\n").filter((l) => l.startsWith("mixed/")).length).toBe(52);
      expect(r.text).toContain("520 files under mixed were not searched: denied by Read(*.secret) (project settings)");
    } finally {
      rmSync(join(h.dir, "mixed"), { recursive: true, force: true });
    }
  });
});

describe("glob over a parent of a denied folder", () => {
  test("names inside the denied folder are not listed, and the result says how many were left out", async () => {
    const r = await call("glob", { pattern: "**/*" });
    noSecrets(r.text);
    expect(r.text).toContain("src/a.ts");
    expect(r.text).toContain("private/notes.md"); // an ask hides contents, not names
    expect(r.text).toContain("3 files under . were not listed: denied by Read(./secrets/**) (project settings)");
    const none = await call("glob", { pattern: "**/key.txt" });
    expect(none.text).toContain("No files match");
    expect(none.text).toContain("3 files under . were not listed");
  });

  test("a pattern that names the denied folder is denied before it runs", async () => {
    for (const input of [{ pattern: "secrets/**" }, { pattern: "link-secrets/*" }, { pattern: "../secrets/*", path: "src" }]) {
      expect((await call("glob", input)).behavior).toBe("deny");
    }
  });
});
