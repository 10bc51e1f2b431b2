// The hardening every git KHAELOR runs goes through (run-git.ts), tested on the commands that
// would run what a repository's config names: a commit (hooks, the editor), a porcelain diff
// (diff.external, textconv), transports (uploadpack, ssh, a proxy), credentials, a signed commit
// in the log (gpg). KHAELOR runs few of these today; a caller added tomorrow gets the same
// guarantee. Each command the config names writes a marker file; none may appear.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, gitSync } from "../../../src/workspace/git/run-git.ts";

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function sh(cwd: string, script: string): string {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" };
  const r = Bun.spawnSync(["bash", "-c", script], { cwd, env });
  if (r.exitCode !== 0) throw new Error(`${script}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

function hostileRepo(): { dir: string; markers: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "khaelor-harden-")));
  temps.push(root);
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
  const dir = join(root, "repo");
  mkdirSync(dir);
  writeFileSync(join(dir, "a.txt"), "one\n");
  writeFileSync(join(dir, ".gitattributes"), "*.txt diff=conv\n");
  sh(dir, "git init -q -b main . && git config user.name t && git config user.email t@t && git add -A && git commit -qm init");
  // A commit carrying a signature header: a log that shows signatures asks gpg.program about it.
  const tree = sh(dir, "git rev-parse HEAD^{tree}");
  const head = sh(dir, "git rev-parse HEAD");
  const signed = `tree ${tree}\nparent ${head}\nauthor t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\nsigned\n`;
  writeFileSync(join(root, "signed"), signed);
  sh(dir, `git update-ref HEAD $(git hash-object -t commit -w '${join(root, "signed")}')`);
  writeFileSync(join(dir, "a.txt"), "two\n");
  const hooks = join(dir, ".git", "evil-hooks");
  mkdirSync(hooks);
  for (const h of ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "reference-transaction", "post-index-change"]) {
    writeFileSync(join(hooks, h), `#!/bin/sh\n: > '${markers}/hook-${h}'\n`, { mode: 0o755 });
  }
  const config = [
    "[core]",
    `\thooksPath = ${hooks}`,
    `\tfsmonitor = ${cmd("fsmonitor")}`,
    `\teditor = ${cmd("editor")}`,
    `\tpager = ${cmd("pager", true)}`,
    `\tsshCommand = ${cmd("ssh")}`,
    `\tgitProxy = ${cmd("proxy")}`,
    `\taskPass = ${cmd("askpass")}`,
    "[credential]",
    `\thelper = !${cmd("credential")}`,
    "[diff]",
    `\texternal = ${cmd("external-diff")}`,
    '[diff "conv"]',
    `\ttextconv = ${cmd("textconv", true)}`,
    "[log]",
    "\tshowSignature = true",
    "[gpg]",
    `\tprogram = ${cmd("gpg")}`,
    '[protocol "file"]',
    "\tallow = always",
    '[protocol "ext"]',
    "\tallow = always",
    '[remote "local"]',
    `\turl = ${dir}`,
    `\tuploadpack = ${cmd("uploadpack")}`,
    '[remote "extish"]',
    `\turl = ext::${cmd("ext")}`,
    "",
  ].join("\n");
  writeFileSync(join(dir, ".git", "config"), `${readFileSync(join(dir, ".git", "config"), "utf8")}${config}`);
  return { dir, markers };
}

/** The commands, each one a caller might run; output is not the point, only what git starts. */
const COMMANDS: Array<{ args: string[]; stdin?: string }> = [
  { args: ["status", "--porcelain"] },
  { args: ["commit", "-a"] },
  { args: ["diff"] },
  { args: ["diff", "--no-ext-diff"] },
  { args: ["log", "-1"] },
  { args: ["ls-remote", "local"] },
  { args: ["ls-remote", "extish"] },
  { args: ["ls-remote", "ssh://example.invalid/x"] },
  { args: ["ls-remote", "git://127.0.0.1:9/x"] },
  { args: ["credential", "fill"], stdin: "protocol=https\nhost=example.invalid\n\n" },
];

describe("a repository's config runs nothing through KHAELOR's git", () => {
  test("async git(): every command", async () => {
    const h = hostileRepo();
    for (const c of COMMANDS) await git(c.args, { cwd: h.dir, ...(c.stdin ? { stdin: c.stdin } : {}), allowExit: [1, 128, 129] });
    expect(readdirSync(h.markers).sort()).toEqual([]);
  });

  test("gitSync(): every command", () => {
    const h = hostileRepo();
    for (const c of COMMANDS) gitSync(c.args, { cwd: h.dir, timeoutMs: 10_000, ...(c.stdin ? { stdin: c.stdin } : {}) });
    expect(readdirSync(h.markers).sort()).toEqual([]);
  });

  test("what still works: the diff is git's own, the log shows the commit", async () => {
    const h = hostileRepo();
    const diff = await git(["diff"], { cwd: h.dir });
    expect(diff).toContain("-one\n+two\n");
    expect(gitSync(["log", "-1", "--format=%s"], { cwd: h.dir, timeoutMs: 10_000 })).toBe("signed\n");
    expect(readdirSync(h.markers)).toEqual([]);
  });

  test("status with blankFilters reads changed files without the filters the config defines; a name git cannot be told about stops it", async () => {
    const h = hostileRepo();
    const clean = (name: string) => {
      const path = join(h.markers, "..", "bin", name);
      writeFileSync(path, `#!/bin/sh\n: > '${h.markers}/${name}'\nexec cat\n`, { mode: 0o755 });
      return path;
    };
    sh(h.dir, `git config filter.plain.clean '${clean("plain-clean")}' && git config filter.plain.required true`);
    writeFileSync(join(h.dir, ".gitattributes"), "*.txt filter=plain\n*.cfg filter=a=b\n");
    writeFileSync(join(h.dir, "a.txt"), "one\n");
    // same size as the index's copy, newer mtime: git must read it to tell
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(join(h.dir, "a.txt"), later, later);
    expect(gitSync(["status", "--porcelain"], { cwd: h.dir, timeoutMs: 10_000, blankFilters: true })).toBe(" M .gitattributes\n");
    expect(await git(["status", "--porcelain"], { cwd: h.dir, blankFilters: true })).toBe(" M .gitattributes\n");
    expect(readdirSync(h.markers)).toEqual([]);
    // `-c filter.a=b.clean=` would blank another key: nothing is run at all
    sh(h.dir, `git config 'filter.a=b.clean' '${clean("odd-clean")}'`);
    writeFileSync(join(h.dir, "x.cfg"), "x\n");
    sh(h.dir, "git add x.cfg");
    utimesSync(join(h.dir, "x.cfg"), later, later);
    // what the plain git just used to set up ran
    for (const m of readdirSync(h.markers)) rmSync(join(h.markers, m));
    expect(gitSync(["status", "--porcelain"], { cwd: h.dir, timeoutMs: 10_000, blankFilters: true })).toBeNull();
    await expect(git(["status", "--porcelain"], { cwd: h.dir, blankFilters: true })).rejects.toThrow('a filter driver\'s name holds "="');
    expect(readdirSync(h.markers)).toEqual([]);
  });

  test("the same commands run by a plain git do run them (the repository is as hostile as it looks)", () => {
    const h = hostileRepo();
    for (const c of COMMANDS) Bun.spawnSync(["git", ...c.args], { cwd: h.dir, stdin: c.stdin ? new TextEncoder().encode(c.stdin) : "ignore", env: { PATH: process.env.PATH ?? "", HOME: h.dir, GIT_TERMINAL_PROMPT: "0" }, timeout: 10_000 });
    const ran = readdirSync(h.markers);
    for (const m of ["fsmonitor", "editor", "external-diff", "textconv", "gpg", "uploadpack", "ext", "ssh", "proxy", "credential", "askpass", "hook-pre-commit", "hook-post-index-change"]) expect(ran).toContain(m);
  });
});
