// A cloned repository whose .git/config (or a file it includes) names commands for git to run: an
// fsmonitor, hooks, a pager, ssh, an external diff, textconv and filter drivers that its
// .gitattributes pick, a credential helper, editors, a proxy, gpg. Whoever can write .git/config
// (an archive, a shared folder) would run them as the user the moment KHAELOR runs git. KHAELOR's
// own git (the start-up status, the snapshots behind /diff and /undo, the status line's branch,
// the permission checks' ls-files) must run none of them, and must still work. Each command
// writes a marker file; none may appear.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { fakeApiFixture, type ScenarioInput } from "../support/fake-api.ts";
import { KEY, idle, ptyFixtures, type PtySession } from "../e2e/pty/harness.ts";
import { createPermissionEngine } from "../../src/permissions/index.ts";

const serve = fakeApiFixture();
const fx = ptyFixtures();

type Hostile = { dir: string; markers: string; env: Record<string, string> };

const HOOKS = ["pre-commit", "post-commit", "post-checkout", "post-merge", "post-index-change", "reference-transaction", "pre-auto-gc", "post-rewrite", "pre-push", "fsmonitor-watchman", "push-to-checkout"];

function sh(cwd: string, script: string): void {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  const r = Bun.spawnSync(["bash", "-c", script], { cwd, env });
  if (r.exitCode !== 0) throw new Error(`${script}: ${r.stderr.toString()}`);
}

/**
 * A clone of a clean repository, then the hostile config written into the clone's .git (as an
 * archive or a shared folder would carry it). `where` puts it in .git/config itself or in a file
 * that .git/config includes. The user's own global config defines a filter driver too (as git-lfs
 * does), which the repository's .gitattributes picks for its own files.
 */
function hostileClone(where: "config" | "include", api: string | null): Hostile {
  const root = realpathSync(tempProject("khaelor-gitcfg-"));
  const markers = join(root, "markers");
  const bin = join(root, "bin");
  mkdirSync(markers);
  mkdirSync(bin);
  const cmd = (name: string, passThrough = false): string => {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/sh\n: > '${markers}/${name}'\n${passThrough ? "exec cat\n" : "exit 0\n"}`);
    chmodSync(path, 0o755);
    return path;
  };
  const origin = join(root, "origin");
  mkdirSync(join(origin, "vault"), { recursive: true });
  writeFileSync(join(origin, "notes.txt"), "alpha\nbeta\ngamma\n");
  writeFileSync(join(origin, "doc.md"), "# doc\n");
  writeFileSync(join(origin, "data.bin"), "binary-ish\n");
  writeFileSync(join(origin, "vault", "v.txt"), "kept\n");
  writeFileSync(join(origin, ".gitattributes"), "*.txt filter=userdriver diff=conv\n*.md filter=evil diff=cmd\n*.bin filter=evilproc\n");
  sh(origin, "git init -q -b main . && git add -A && git commit -qm init");
  const dir = join(root, "proj");
  sh(root, `git clone -q '${origin}' '${dir}'`);
  // A submodule with a filter of its own: `git status` looks inside submodules with their config.
  const subOrigin = join(root, "sub-origin");
  mkdirSync(subOrigin);
  writeFileSync(join(subOrigin, "s.txt"), "s\n");
  writeFileSync(join(subOrigin, ".gitattributes"), "*.txt filter=subfilter\n");
  sh(subOrigin, "git init -q -b main . && git add -A && git commit -qm s");
  sh(dir, `git -c protocol.file.allow=always submodule add -q '${subOrigin}' sub`);
  const subConfig = join(dir, ".git", "modules", "sub", "config");
  writeFileSync(subConfig, readFileSync(subConfig, "utf8") + `[filter "subfilter"]\n\tclean = ${cmd("sub-clean", true)}\n[core]\n\tfsmonitor = ${cmd("sub-fsmonitor")}\n`);
  const hooks = join(dir, ".git", "evil-hooks");
  mkdirSync(hooks);
  for (const h of HOOKS) writeFileSync(join(hooks, h), `#!/bin/sh\n: > '${markers}/hook-${h}'\n`, { mode: 0o755 });
  const hostile = [
    "[core]",
    `\tfsmonitor = ${cmd("fsmonitor")}`,
    `\thooksPath = ${hooks}`,
    `\tpager = ${cmd("pager", true)}`,
    `\tsshCommand = ${cmd("ssh")}`,
    `\teditor = ${cmd("editor")}`,
    `\taskPass = ${cmd("askpass")}`,
    `\tgitProxy = ${cmd("proxy")}`,
    "[sequence]",
    `\teditor = ${cmd("sequence-editor")}`,
    "[credential]",
    `\thelper = !${cmd("credential")}`,
    "[diff]",
    `\texternal = ${cmd("external-diff")}`,
    '[diff "conv"]',
    `\ttextconv = ${cmd("textconv", true)}`,
    '[diff "cmd"]',
    `\tcommand = ${cmd("diff-command")}`,
    '[filter "evil"]',
    `\tclean = ${cmd("clean", true)}`,
    `\tsmudge = ${cmd("smudge", true)}`,
    "\trequired = true",
    '[filter "evilproc"]',
    `\tprocess = ${cmd("process")}`,
    "\trequired = true",
    "[log]",
    "\tshowSignature = true",
    "[gpg]",
    `\tprogram = ${cmd("gpg")}`,
    '[protocol "file"]',
    "\tallow = always",
    '[remote "origin"]',
    `\tuploadpack = ${cmd("uploadpack")}`,
    "[status]",
    "\tsubmoduleSummary = true",
    "[pager]",
    `\tstatus = ${cmd("pager-status", true)}`,
    "",
  ].join("\n");
  const config = join(dir, ".git", "config");
  if (where === "config") writeFileSync(config, readFileSync(config, "utf8") + hostile);
  else {
    writeFileSync(join(dir, ".git", "hostile.conf"), hostile);
    writeFileSync(config, readFileSync(config, "utf8") + "[include]\n\tpath = hostile.conf\n");
  }
  // Same bytes, a newer mtime: git must read these files to tell whether they changed, through
  // whatever filter their attributes name.
  const later = new Date(Date.now() + 3_600_000);
  for (const f of ["notes.txt", "doc.md", "data.bin", "sub/s.txt"]) {
    writeFileSync(join(dir, f), readFileSync(join(dir, f)));
    utimesSync(join(dir, f), later, later);
  }
  const env = isolatedEnv(api);
  writeFileSync(join(env.HOME!, ".gitconfig"), `[filter "userdriver"]\n\tclean = ${cmd("user-clean", true)}\n\tsmudge = ${cmd("user-smudge", true)}\n`);
  return { dir, markers, env };
}

const ran = (h: Hostile): string[] => readdirSync(h.markers).sort();

const editTurns: ScenarioInput = {
  turns: [
    { content: [{ type: "tool_use", name: "read", input: { file_path: "notes.txt" } }] },
    { content: [{ type: "tool_use", name: "edit", input: { file_path: "notes.txt", old_string: "beta", new_string: "BETA-EDITED" } }] },
    { content: [{ type: "text", text: "EDIT-DONE" }] },
  ],
};

describe.each([
  ["in .git/config", "config"],
  ["in a file .git/config includes", "include"],
] as const)("hostile git config %s", (_what, where) => {
  test("`khaelor -p` that edits a file: KHAELOR's git runs none of its commands; the edit lands", async () => {
    const api = await serve(editTurns);
    const h = hostileClone(where, api.url);
    const r = await runCli(["-p", "edit it", "--permission-mode", "acceptEdits"], { cwd: h.dir, env: h.env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("EDIT-DONE");
    expect(readFileSync(join(h.dir, "notes.txt"), "utf8")).toBe("alpha\nBETA-EDITED\ngamma\n");
    expect(ran(h)).toEqual([]);
    // The start-up status still reached the model.
    const system = JSON.stringify((api.requests.find((q) => q.outcome === "served")!.body as { system: unknown }).system);
    expect(system).toContain("Branch: main");
  }, 60_000);

  test("the app: a turn that edits, /diff and /undo run none of its commands, and /undo puts the file back", async () => {
    const api = await fx.api(editTurns);
    const h = hostileClone(where, api.url);
    const s = fx.pty(["--permission-mode", "acceptEdits"], { cwd: h.dir, env: h.env });
    await s.waitFor(idle, "the composer");
    s.type("edit it");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("EDIT-DONE") && idle(sc), "the edit");
    expect(readFileSync(join(h.dir, "notes.txt"), "utf8")).toBe("alpha\nBETA-EDITED\ngamma\n");
    await command(s, "/diff", "Changes since the session started: 1 file");
    await s.waitForText("BETA-EDITED");
    s.send(KEY.esc);
    await s.waitFor(idle, "the pager to close");
    await command(s, "/undo", "Undid the last turn: restored notes.txt");
    expect(readFileSync(join(h.dir, "notes.txt"), "utf8")).toBe("alpha\nbeta\ngamma\n");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    expect(ran(h)).toEqual([]);
  }, 60_000);

  test("the permission checks' own git (what a history view or a search would reach) runs none of its commands", async () => {
    const h = hostileClone(where, null);
    writeFileSync(join(h.dir, ".env"), "TOKEN=x\n");
    const engine = await createPermissionEngine({ projectRoot: h.dir, home: h.env.HOME!, configHome: h.env.XDG_CONFIG_HOME!, cliDeny: ["Read(./vault/**)"] });
    // vault/ is tracked: git's history holds it (one ls-files to know)
    expect(engine.decide({ tool: "bash", input: { command: "git log -p" }, cwd: h.dir }).reason).toContain("vault/");
    engine.decide({ tool: "bash", input: { command: "rg TOKEN ." }, cwd: h.dir });
    expect(existsSync(join(h.dir, ".git", "index.lock"))).toBe(false);
    expect(ran(h)).toEqual([]);
  });
});

async function command(s: PtySession, line: string, shows: string): Promise<void> {
  s.type(line);
  await s.waitForText(`› ${line}`);
  s.send(KEY.enter);
  await s.waitForText(shows);
}
