// Grants, scopes, settings problems and suggestions, through the public engine and real files.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPermissionEngine } from "../../src/permissions/index.ts";
import { compileCommandPattern } from "../../src/permissions/rules/command-pattern.ts";
import { compilePathPattern } from "../../src/permissions/rules/path-pattern.ts";
import { makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

const open = (f: Fixture, extra: Partial<Parameters<typeof createPermissionEngine>[0]> = {}) =>
  createPermissionEngine({ projectRoot: f.root, home: f.home, configHome: f.configHome, projectSettings: trustedProject, ...extra });
const bash = (command: string, cwd: string) => ({ tool: "bash", input: { command }, cwd });

test("an 'allow always' grant persists across a restart, in the chosen file, and is kept out of git", async () => {
  fx = makeFixture();
  const first = await open(fx);
  const asked = first.decide(bash("cargo build --release", fx.root));
  expect(asked.behavior).toBe("ask");
  expect(asked.suggestion?.rule).toBe("Bash(cargo build *)");
  expect(first.grant(asked.suggestion!.rule, "local")).toMatchObject({ ok: true });
  expect(first.decide(bash("cargo build", fx.root)).behavior).toBe("allow");

  const localFile = join(fx.root, ".khaelor", "settings.local.json");
  expect(JSON.parse(readFileSync(localFile, "utf8")).permissions.allow).toEqual(["Bash(cargo build *)"]);
  expect(readFileSync(join(fx.root, ".git", "info", "exclude"), "utf8")).toContain("/.khaelor/settings.local.json");

  const second = await open(fx);
  expect(second.decide(bash("cargo build --release", fx.root)).behavior).toBe("allow");
  expect(second.rules()).toContainEqual({ rule: "Bash(cargo build *)", behavior: "allow", scope: "local", file: localFile });
});

test("a grant never overrides a configured deny or ask, from any scope", async () => {
  fx = makeFixture({ user: { permissions: { deny: ["Bash(git push *)"] } }, project: { permissions: { ask: ["Bash(npm publish:*)"] } } });
  const engine = await open(fx);
  expect(engine.decide(bash("npm publish", fx.root)).suggestion).toBeUndefined();
  for (const scope of ["session", "local", "user"] as const) {
    engine.grant("Bash(git push *)", scope);
    engine.grant("Bash(npm publish *)", scope);
    engine.grant("Bash", scope);
  }
  expect(engine.decide(bash("git push origin main", fx.root)).behavior).toBe("deny");
  expect(engine.decide(bash("npm publish", fx.root)).behavior).toBe("ask");
  expect(engine.decide(bash("npm install", fx.root)).behavior).toBe("allow");
});

test("session grants live in memory only; user grants go to the XDG config file", async () => {
  fx = makeFixture();
  const saved = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = join(fx.home, "xdg");
  try {
    const engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, projectSettings: trustedProject });
    engine.grant("Bash(make *)", "session");
    const r = engine.grant("Bash(just *)", "user");
    expect(r).toEqual({ ok: true, rule: "Bash(just *)", file: join(fx.home, "xdg", "khaelor", "settings.json") });
    const again = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, projectSettings: trustedProject });
    expect(again.decide(bash("make", fx.root)).behavior).toBe("ask");
    expect(again.decide(bash("just test", fx.root)).behavior).toBe("allow");
  } finally {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
  }
});

test("removing a rule takes effect at once and leaves the file's other keys alone", async () => {
  fx = makeFixture({ project: { model: "keep-me", permissions: { deny: ["Bash(ls *)"], allow: ["Bash(make *)"] } } });
  const engine = await open(fx);
  expect(engine.decide(bash("ls", fx.root)).behavior).toBe("deny");
  expect(engine.removeRule({ rule: "Bash(ls *)", behavior: "deny", scope: "project" })).toMatchObject({ ok: true });
  expect(engine.decide(bash("ls", fx.root)).behavior).toBe("allow");
  const file = JSON.parse(readFileSync(join(fx.root, ".khaelor", "settings.json"), "utf8"));
  expect(file).toEqual({ model: "keep-me", permissions: { deny: [], allow: ["Bash(make *)"] } });
  expect(engine.removeRule({ rule: "Bash(ls *)", behavior: "deny", scope: "project" })).toMatchObject({ ok: false });
  engine.grant("Bash(make *)", "session");
  engine.removeRule({ rule: "Bash(make *)", behavior: "allow", scope: "session" });
  expect(engine.rules().map((r) => `${r.scope}:${r.rule}`)).toEqual(["project:Bash(make *)"]);
});

test("bad rules are reported with file and position and ignored; nothing throws", async () => {
  fx = makeFixture({
    user: {},
    project: { permissions: { allow: ["Bash(make *)", 42, "Frobnicate(x)", "Bash(", "Bash(git push:* --force)"], defaultMode: "bypassPermissions" } },
  });
  writeFileSync(join(fx.configHome, "khaelor", "settings.json"), "{ not json");
  const engine = await open(fx, { cliAllow: ["Read", "Nope(x)"] });
  const problems = engine.problems();
  const projectFile = join(fx.root, ".khaelor", "settings.json");
  expect(problems.filter((p) => p.file === projectFile).map((p) => p.position)).toEqual([
    "permissions.allow[1]", "permissions.allow[2]", "permissions.allow[3]", "permissions.allow[4]", "permissions.defaultMode",
  ]);
  expect(problems.find((p) => p.position === "permissions.allow[2]")?.message).toContain('unknown tool "Frobnicate"');
  expect(problems.find((p) => p.file.endsWith(join("khaelor", "settings.json")) && p.file !== projectFile)?.message).toContain("not valid JSON");
  expect(problems.find((p) => p.file === "--allowedTools")).toMatchObject({ position: "1", rule: "Nope(x)" });
  expect(engine.mode).toBe("default");
  // The user file that is not JSON may have held deny rules: everything asks until it is fixed.
  expect(engine.decide(bash("make", fx.root))).toMatchObject({ behavior: "ask", source: "broken rule" });
  expect(engine.decide({ tool: "read", input: null, cwd: fx.root }).behavior).toBe("ask");
  writeFileSync(join(fx.configHome, "khaelor", "settings.json"), "{}");
  engine.reload();
  expect(engine.decide(bash("make", fx.root)).behavior).toBe("allow");
  expect(engine.decide({ tool: "read", input: null, cwd: fx.root }).behavior).toBe("allow");
  expect(engine.grant("Bash(", "session")).toMatchObject({ ok: false });
});

test("defaultMode comes from the most local file; --permission-mode wins", async () => {
  fx = makeFixture({ user: { permissions: { defaultMode: "plan" } }, local: { permissions: { defaultMode: "acceptEdits" } } });
  expect((await open(fx)).mode).toBe("acceptEdits");
  expect((await open(fx, { mode: "plan" })).mode).toBe("plan");
});

test("suggestions are the narrowest useful rule, and granting them stops the asking", async () => {
  fx = makeFixture();
  const engine = await open(fx);
  const cases: Array<[string, string[]]> = [
    ["git push origin main", ["Bash(git push *)"]],
    ["npm run test -- --watch", ["Bash(npm run test *)"]],
    ["docker compose up -d", ["Bash(docker compose up *)"]],
    ["python -m pytest -x", ["Bash(python -m pytest *)"]],
    ["git --version", ["Bash(git --version)"]],
    ["./scripts/deploy.sh staging", ["Bash(./scripts/deploy.sh *)"]],
    ["sh run-js.sh test/a.test.js", ["Bash(sh run-js.sh *)"]],
    ["bash -c 'make all'", ["Bash(make all *)"]],
    ["npm install && git commit -m wip", ["Bash(npm install *)", "Bash(git commit *)"]],
    ["echo done > build.log", ["Edit(./build.log)"]],
    ["cat ~/notes/todo.txt", ["Read(~/notes/**)"]],
    // One key must not allow every future rm: destructive commands get the exact command only.
    ["rm -rf build/tmp", ["Bash(rm -rf build/tmp)"]],
    ["pkill -f webpack", ["Bash(pkill -f webpack)"]],
    // ... however it is spelled; and never a rule whose action word is an elevator or wrapper
    ["sudo rm -rf build", ["Bash(sudo rm -rf build)"]],
    ["/bin/rm -rf dist", ["Bash(/bin/rm -rf dist)"]],
    ["/usr/bin/kill 1", ["Bash(/usr/bin/kill 1)"]],
    ["/usr/bin/env rm -rf out", ["Bash(/usr/bin/env rm -rf out)"]],
    ["sudo npm install", ["Bash(sudo npm install)"]],
    ["doas make install", ["Bash(doas make install)"]],
    ["/usr/bin/git push origin main", ["Bash(/usr/bin/git push *)"]],
    // `exit` is no command worth a rule
    ["printf 'a\\n' | sort && make test; exit 3", ["Bash(make test *)"]],
  ];
  for (const [command, rules] of cases) {
    const d = engine.decide(bash(command, fx.root));
    expect(d.behavior).toBe("ask");
    expect(d.suggestion?.rules).toEqual(rules);
    for (const r of rules) engine.grant(r, "session");
    expect(engine.decide(bash(command, fx.root)).behavior).toBe("allow");
  }
  expect(engine.decide({ tool: "edit", input: { file_path: "src/a.ts" }, cwd: fx.root }).suggestion?.rule).toBe("Edit(./src/**)");
  expect(engine.decide({ tool: "read", input: { file_path: "~/.ssh/id_rsa" }, cwd: fx.root }).suggestion?.rule).toBe("Read(~/.ssh/id_rsa)");
  expect(engine.decide(bash("$TOOL run", fx.root)).suggestion).toBeUndefined();
});

test("a background process asks about what it runs, not about the loop around it", async () => {
  const f = (fx = makeFixture());
  const engine = await open(f);
  const start = (command: string) => engine.decide({ tool: "process", input: { action: "start", command }, cwd: f.root });
  const served = start("while true; do python3 -m http.server 8000; sleep 1; done");
  expect(served.behavior).toBe("ask");
  expect(served.suggestion?.rules).toEqual(["Process(python3 -m http.server *)"]);
  expect(served.reason).not.toContain("sleep");
  const ticker = start("while true; do echo tick; sleep 1; done");
  expect(ticker.behavior).toBe("ask");
  expect(ticker.reason).toBe("starting `while true; do echo tick; sleep 1; done` in the background");
  expect(ticker.suggestion).toBeUndefined();
});

test("cwd carries: a relative path is judged where the shell runs", async () => {
  fx = makeFixture();
  const engine = await open(fx);
  expect(engine.decide(bash("cat a.ts", join(fx.root, "src"))).behavior).toBe("allow");
  expect(engine.decide(bash("cat ../../x", join(fx.root, "src"))).behavior).toBe("ask");
  expect(engine.decide(bash("rm -rf ..", join(fx.root, "src"))).behavior).toBe("deny");
  expect(engine.decide({ tool: "read", input: { file_path: "a.ts" }, cwd: join(fx.root, "src") }).behavior).toBe("allow");
});

test("Bash patterns: trailing ' *' is a word boundary, ':*' a prefix, '*' anywhere else any text", () => {
  const m = (spec: string, cmd: string) => compileCommandPattern(spec)(cmd);
  expect([m("git push *", "git push"), m("git push *", "git push origin"), m("git push *", "git pushx")]).toEqual([true, true, false]);
  expect([m("git push:*", "git push -f"), m("git push:*", "git pushy")]).toEqual([true, false]);
  expect([m("npm run *:ci", "npm run test:ci"), m("npm run *:ci", "npm run test")]).toEqual([true, false]);
  expect([m("npm test", "npm test"), m("npm test", "npm test --watch")]).toEqual([true, false]);
  expect([m("ls*", "lsof"), m("ls *", "lsof")]).toEqual([true, false]);
});

test("path patterns: anchors and gitignore globs", () => {
  const anchors = { root: "/p", home: "/h" };
  const m = (spec: string, path: string) => compilePathPattern(spec, anchors)(path);
  expect([m("./src/**", "/p/src/a/b.ts"), m("./src/**", "/p/lib/a.ts"), m("src/*.ts", "/p/src/a.ts"), m("src/*.ts", "/p/src/x/a.ts")]).toEqual([true, false, true, false]);
  expect([m("//etc/**", "/etc/passwd"), m("~/.ssh/**", "/h/.ssh/id_rsa"), m("/docs", "/p/docs/a.md")]).toEqual([true, true, true]);
  expect([m(".env", "/p/a/b/.env"), m(".env", "/elsewhere/.env"), m("*.pem", "/x/k.pem"), m(".env", "/p/.envrc")]).toEqual([true, true, true, false]);
  expect([m("./src/**/test/*.ts", "/p/src/test/a.ts"), m("./src/**/test/*.ts", "/p/src/a/b/test/a.ts"), m("./[ab].ts", "/p/a.ts")]).toEqual([true, true, true]);
});

test("writing settings.local.json twice adds one exclude entry", async () => {
  fx = makeFixture();
  const engine = await open(fx);
  engine.grant("Bash(make *)", "local");
  engine.grant("Bash(just *)", "local");
  const exclude = readFileSync(join(fx.root, ".git", "info", "exclude"), "utf8");
  expect(exclude.split("\n").filter((l) => l === "/.khaelor/settings.local.json")).toHaveLength(1);
  expect(existsSync(join(fx.root, ".gitignore"))).toBe(false);
});

test("dontAsk (from the settings' defaultMode) denies what would ask and keeps what is allowed; the reason says what it would have asked", async () => {
  fx = makeFixture({ local: { permissions: { defaultMode: "dontAsk", allow: ["Bash(npm test)"] } } });
  const engine = await open(fx);
  expect(engine.mode).toBe("dontAsk");
  const denied = engine.decide(bash("cargo build", fx.root));
  expect(denied).toMatchObject({ behavior: "deny", source: "mode:dontAsk" });
  expect(denied.reason).toContain("cargo");
  expect(engine.decide(bash("npm test", fx.root)).behavior).toBe("allow");
  expect(engine.decide({ tool: "read", input: { path: join(fx.root, "README.md") }, cwd: fx.root }).behavior).toBe("allow");
});
