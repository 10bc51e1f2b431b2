// Shell commands that walk a folder holding a denied path: what reaches it, what verifiably leaves
// it out, and what the reason tells the model, through the public engine and real files. The
// decision suite (decision-table.test.ts) has the same cases as rows in every mode.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createPermissionEngine, type PermissionMode } from "../../src/permissions/index.ts";
import { SECRET_NAME_GLOBS, sensitiveReason } from "../../src/permissions/paths/path-facts.ts";
import { SECRET_SCAN_LIMIT } from "../../src/permissions/walks/walk-secrets.ts";
import { addProject, makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());

async function setup(permissions: object, files: string[] = [], cliDeny: (f: Fixture) => string[] = () => []) {
  const f = (fx = makeFixture({ project: { permissions } }));
  for (const file of files) {
    const abs = join(f.root, file);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, "TOKEN\n");
  }
  const engine = await createPermissionEngine({ projectRoot: f.root, home: f.home, configHome: f.configHome, projectSettings: trustedProject, cliDeny: cliDeny(f) });
  const decide = (command: string, mode: PermissionMode = "default", cwd = f.root) => {
    engine.setMode(mode);
    return engine.decide({ tool: "bash", input: { command }, cwd });
  };
  const behavior = (command: string, mode: PermissionMode = "default", cwd?: string) => decide(command, mode, cwd).behavior;
  return { engine, f, decide, behavior };
}

/** The options a reason offers in "leave it out (…)" and "leave them out (…)", joined. */
function leaveOut(reason: string): string {
  const found = [...reason.matchAll(/leave (?:it|them) out \((.+?)\)(?: or |; |$)/g)].map((m) => m[1] as string);
  expect(found.length).toBeGreaterThan(0);
  return found.join(" ");
}

test("the exclusions a reason offers are ones the check accepts: with them, the command runs", async () => {
  const { decide, behavior } = await setup({ deny: ["Read(./secrets/**)"] });
  const cases: Array<[string, (option: string) => string]> = [
    ["grep -r TOKEN .", (o) => `grep -r ${o} TOKEN .`],
    ["rg TOKEN", (o) => `rg ${o} TOKEN`],
    ["rg --files", (o) => `rg --files ${o}`],
    ["tree", (o) => `tree ${o}`],
    ["git grep TOKEN -- .", (o) => `git grep TOKEN -- . ${o.replace(/the pathspecs? /g, "")}`],
    ["find . -name '*.txt' -exec cat {} +", (o) => `find . ${o.replace(/ before its tests/g, "")} -name '*.txt' -exec cat {} +`],
    ["rsync -a . /tmp/copy", (o) => `rsync -a ${o} . /tmp/copy`],
  ];
  for (const [command, withOption] of cases) {
    const d = decide(command);
    expect(d.behavior).toBe("ask");
    expect(d.reason).toContain("secrets/, which Read(./secrets/**) denies (project settings)");
    // contents walks of the project root are also told which secret-bearing names to leave out
    if (!/^(rg --files|tree)/.test(command)) expect(d.reason).toContain("would also ");
    const fixed = decide(withOption(leaveOut(d.reason)));
    // rsync and find -exec are outside the read-only set and still ask, but no longer about what they would read
    expect(fixed.reason).not.toContain("Read(./secrets/**)");
    expect(fixed.reason).not.toContain("usually hold secrets");
    if (!/^(rsync|find)/.test(command)) expect(fixed.behavior).toBe("allow");
  }
  expect(behavior("grep -r TOKEN .", "bypassPermissions")).toBe("deny");
  expect(behavior("grep -r --exclude-dir=secrets TOKEN .", "bypassPermissions")).toBe("allow");
});

test("the rules' own patterns find the denied folders: nothing has to exist, and absolute and home rules count", async () => {
  const { f, behavior, decide } = await setup({ deny: ["Read(./vault/**)"] }, ["docs/notes/a.md"], (f) => [`Read(/${f.outside}/vault/**)`, "Read(~/keys/**)"]);
  mkdirSync(join(f.outside, "docs"));
  expect(decide("grep -r TOKEN .").reason).toContain("would read vault/, which Read(./vault/**) denies");
  expect(behavior("grep -r TOKEN docs")).toBe("allow");
  // outside the project a walk asks anyway; bypass, which asks nobody, shows which walks reach a deny
  expect(decide(`grep -r TOKEN ${f.outside}`, "bypassPermissions").reason).toContain(`would read ${f.outside}/vault/`);
  expect(behavior(`grep -r TOKEN ${f.outside}/docs`, "bypassPermissions")).toBe("allow");
  expect(decide("grep -r TOKEN ~", "bypassPermissions").reason).toContain("would read ~/keys/, which Read(~/keys/**) denies (cli settings)");
  expect(behavior("cd src && grep -r TOKEN ../..", "bypassPermissions")).toBe("deny");
  expect(behavior("cd src && grep -r TOKEN ../docs", "bypassPermissions")).toBe("allow");
});

test("a listing reveals the entries of the folders it lists: a denied folder's, not those beside a denied file", async () => {
  const { behavior } = await setup({ deny: ["Read(./config/prod.json)", "Read(./secrets/**)"] }, ["config/prod.json", "config/dev.json"]);
  expect(behavior("ls config")).toBe("allow");
  expect(behavior("find config")).toBe("allow");
  expect(behavior("grep -r TOKEN config")).toBe("ask");
  expect(behavior("cat config/*.json")).toBe("deny");
  expect(behavior("find . -maxdepth 1")).toBe("allow");
  expect(behavior("find . -maxdepth 2")).toBe("ask");
  expect(behavior("tree -L 1")).toBe("allow");
  expect(behavior("tree -L 2")).toBe("ask");
});

test("folders that ask are left out of contents walks only, and bypass runs them", async () => {
  const { behavior, decide } = await setup({ ask: ["Read(./private/**)"] });
  expect(decide("grep -r TOKEN .").reason).toContain("would read private/, which Read(./private/**) asks about (project settings)");
  expect(behavior("find . -name '*.md'")).toBe("allow");
  expect(behavior("grep -r TOKEN .", "bypassPermissions")).toBe("allow");
});

test("a rule on a name at any depth: every walk may meet it, a name exclusion that covers files and folders leaves it out", async () => {
  const { behavior, decide } = await setup({ deny: ["Read(*.pem)"] });
  expect(decide("grep -r TOKEN src").reason).toContain("would read anything named *.pem, which Read(*.pem) denies");
  expect(behavior("grep -r --exclude='*.pem' TOKEN src")).toBe("ask"); // a folder named x.pem would still be read
  expect(behavior("grep -r --exclude='*.pem' --exclude-dir='*.pem' TOKEN src")).toBe("allow");
  expect(behavior("rg -g '!*.pem' TOKEN src")).toBe("allow");
  expect(behavior("find src -name '*.pem' -prune -o -print")).toBe("allow");
  expect(behavior("cat src/*.ts")).toBe("allow");
});

test("hidden folders: rg, tree and ls -R skip them unless told to show them; grep and find do not", async () => {
  const { behavior } = await setup({ deny: ["Read(./src/.cache/**)"] }, ["src/.cache/blob"]);
  for (const skips of ["rg TOKEN src", "tree src", "ls -R src", "rg --files src"]) expect(behavior(skips)).toBe("allow");
  for (const shows of ["rg --hidden TOKEN src", "rg -uu TOKEN src", "tree -a src", "ls -Ra src", "grep -r TOKEN src", "find src"]) expect(behavior(shows)).toBe("ask");
});

test("rg reads hidden files it is told to, by a flag, a positive glob, a type, or the ripgrep config in the environment", async () => {
  const { f, behavior, decide } = await setup({ deny: ["Read(./.env)", "Read(./secrets/**)"] }, ["src/.cache/blob"]);
  const keys = "-g '!*.pem' -g '!*.key' -g '!*.p12' -g '!*.pfx' -g '!*.keystore' -g '!*.jks' -g '!id_*' -g '!credentials.json' -g '!service-account.json'";
  expect(behavior(`rg -g '!secrets' ${keys} TOKEN`, "bypassPermissions")).toBe("allow");
  for (const reads of [`rg -g '*' -g '!secrets' ${keys} TOKEN`, `rg --hidden -g '!secrets' ${keys} TOKEN`, `rg -uu -g '!secrets' ${keys} TOKEN`, `rg -t sh -g '!secrets' ${keys} TOKEN`]) {
    expect({ reads, behavior: behavior(reads, "bypassPermissions") }).toEqual({ reads, behavior: "deny" });
    expect(decide(reads).reason).toContain("would read .env, which Read(./.env) denies");
  }
  // a whitelist that cannot match the denied file's name does not reach it
  expect(behavior(`rg -g '*.ts' -g '!secrets' ${keys} TOKEN`, "bypassPermissions")).toBe("allow");
  const config = join(f.outside, "rg.conf");
  writeFileSync(config, "# search everything\n--hidden\n");
  const saved = process.env.RIPGREP_CONFIG_PATH;
  process.env.RIPGREP_CONFIG_PATH = config;
  try {
    expect(behavior(`rg -g '!secrets' ${keys} TOKEN`, "bypassPermissions")).toBe("deny");
    expect(behavior(`rg --no-config -g '!secrets' ${keys} TOKEN`, "bypassPermissions")).toBe("allow");
    writeFileSync(config, "--smart-case\n");
    expect(behavior(`rg -g '!secrets' ${keys} TOKEN`, "bypassPermissions")).toBe("allow");
    // a config that cannot be read may say --hidden or --follow
    process.env.RIPGREP_CONFIG_PATH = join(f.outside, "missing.conf");
    const unread = decide(`rg -g '!secrets' ${keys} TOKEN src`);
    expect(unread.behavior).toBe("ask");
    expect(unread.reason).toContain("add --no-config");
    expect(behavior(`rg --no-config -g '!secrets' ${keys} TOKEN src`)).toBe("allow");
  } finally {
    if (saved === undefined) delete process.env.RIPGREP_CONFIG_PATH;
    else process.env.RIPGREP_CONFIG_PATH = saved;
  }
});

test("a walk that stops above a deep denied folder does not reach it", async () => {
  const { behavior } = await setup({ deny: ["Read(./a/b/c/**)"] }, ["a/b/c/x.txt"]);
  expect(behavior("find . -maxdepth 3")).toBe("allow");
  expect(behavior("find . -maxdepth 4")).toBe("ask");
  expect(behavior("rg --max-depth 2 TOKEN a")).toBe("allow");
  expect(behavior("rg --max-depth 3 TOKEN a")).toBe("ask");
  expect(behavior("du -d 3 .")).toBe("allow");
  expect(behavior("du .")).toBe("ask");
});

test("a rule with a pattern below its folder covers walks that start inside that folder", async () => {
  const { behavior, decide } = await setup({ deny: ["Read(./src/**/*.key)"] }, ["src/lib/x.ts", "docs/y.md"]);
  expect(behavior("grep -r TOKEN src/lib")).toBe("ask");
  expect(decide("grep -r TOKEN src/lib").reason).toContain("would read anything named *.key, which Read(./src/**/*.key) denies");
  expect(behavior("grep -r TOKEN docs")).toBe("allow");
  expect(behavior("grep -r TOKEN .")).toBe("ask");
  expect(behavior("grep -r --exclude='*.key' --exclude-dir='*.key' TOKEN src/lib")).toBe("allow");
  expect(decide("grep -r --exclude='*.key' --exclude-dir='*.key' TOKEN .").reason).not.toContain("Read(./src/**/*.key)");
});

// Where .env and key files conventionally live (the project root, above it, outside the project),
// a contents walk lists its start folder once and asks about the ones there it would read, like
// `cat .env` asks, unless it leaves them out. Subfolders of the project are searched freely.
test("a contents walk of the project root leaves out the secret files at its top or asks; a walk of a subfolder does not", async () => {
  const { f, behavior, decide } = await setup({}, ["src/lib/x.ts"]);
  for (const mode of ["default", "acceptEdits", "plan"] as const) expect(behavior("grep -r TOKEN .", mode)).toBe("ask");
  expect(behavior("grep -r TOKEN .", "bypassPermissions")).toBe("allow");
  const d = decide("grep -r TOKEN .");
  expect(d.source).toBe("sensitive-path");
  // .env.example holds no secrets
  expect(d.reason).toContain("would read files that usually hold secrets (.env, .env.local, deploy.pem), which asks like reading one does; leave them out (--exclude='.env*' --exclude='*.pem')");
  expect(decide(`grep -r ${leaveOut(d.reason)} TOKEN .`).behavior).toBe("allow");
  for (const free of ["grep -r TOKEN src", "rg TOKEN src/lib", "git grep TOKEN -- src", "find src -exec cat {} +", "ls -R", "find .", "rg --files", "tree"]) {
    expect(decide(free).reason).not.toContain("usually hold secrets");
  }
  // a glob in the root names what it matches: a secret file among them is read as named
  expect(decide("grep -r TOKEN *").reason).toContain("deploy.pem looks like a private key");
  expect(decide("tar czf out.tgz *").reason).toContain("would archive files that usually hold secrets (deploy.pem), which asks like reading one does; name only the paths it needs");
  expect(decide("grep -r TOKEN src/*").reason).not.toContain("secrets");
  // `..` from a subfolder is the root too
  expect(decide("grep -r TOKEN ..", "default", join(f.root, "src")).reason).toContain("would read files that usually hold secrets (../.env, ../.env.local, ../deploy.pem)");
  // rg skips hidden names, so only the key is left to exclude; git grep takes exclude pathspecs
  const rg = decide("rg TOKEN");
  expect(rg.reason).toContain("(deploy.pem), which asks like reading one does; leave them out (-g '!*.pem')");
  expect(behavior(`rg ${leaveOut(rg.reason)} TOKEN`)).toBe("allow");
  const git = decide("git grep TOKEN");
  expect(behavior(`git grep TOKEN -- ${leaveOut(git.reason).replace("the pathspecs ", "")}`)).toBe("allow");
  // copies and archives of the root are asked about too, where acceptEdits would run them
  expect(decide("cp -r . backup", "acceptEdits").reason).toContain("would copy files that usually hold secrets");
  expect(behavior("cp -r src backup", "acceptEdits")).toBe("allow");
});

/** A project beside the fixture's, at whose root commands are decided (a real git repository with `git`). */
async function project(files: Record<string, string>, git?: { add: string[]; force?: string[] }) {
  const f = (fx = makeFixture());
  const root = addProject(f, "other", files, git);
  for (const path of git?.force ?? []) expect(Bun.spawnSync(["git", "-C", root, "add", "-f", "--", path]).exitCode).toBe(0);
  const engine = await createPermissionEngine({ projectRoot: root, home: f.home, configHome: f.configHome, projectSettings: trustedProject });
  const decide = (command: string, mode: PermissionMode = "default") => {
    engine.setMode(mode);
    return engine.decide({ tool: "bash", input: { command }, cwd: root });
  };
  return { f, root, engine, decide, behavior: (command: string, mode?: PermissionMode) => decide(command, mode).behavior };
}

test("only the top of a walk's start is looked at: a secret file deeper down is the grep tool's to leave out", async () => {
  const { root, engine, behavior } = await project({ "src/a.ts": "TOKEN\n", "config/.env": "TOKEN=x\n", "deploy/keys/prod.pem": "KEY\n" });
  // the known limit of bash walks: nothing at the root, so nothing is asked
  for (const walk of ["grep -r TOKEN .", "rg --hidden TOKEN", "cp -r . /tmp/x"]) expect(behavior(walk, "acceptEdits")).toBe(walk.startsWith("cp") ? "ask" : "allow");
  expect(engine.searchFilter("grep", root).skip(join(root, "config/.env"))).toEqual({ kind: "asks", because: ".env files usually hold secrets" });
  expect(engine.searchFilter("grep", root).skip(join(root, "deploy/keys/prod.pem"))).toEqual({ kind: "asks", because: "prod.pem looks like a private key" });
});

test("a start that cannot be listed, or a walk that follows links anywhere, must leave out every secret-bearing name", async () => {
  const { root, decide, behavior } = await project({ "src/a.ts": "TOKEN\n" });
  expect(behavior("grep -r TOKEN .")).toBe("allow");
  expect(decide("grep -R TOKEN .").reason).toContain("would read files that usually hold secrets wherever they are below . (.env, .env.*, *.pem, *.key and 20 more)");
  // more entries than are looked at (folders, which are quicker to make than files)
  for (let i = 0; i < SECRET_SCAN_LIMIT; i++) mkdirSync(join(root, `n${i}`));
  const d = decide("grep -r TOKEN .");
  expect(d.behavior).toBe("ask");
  expect(d.reason).toContain("usually hold secrets wherever they are below .");
  expect(behavior(`grep -r ${leaveOut(d.reason)} TOKEN .`)).toBe("allow");
  expect(behavior("grep -r TOKEN src")).toBe("allow");
});

test("rg and ag leave out what git ignores, git grep what git does not track; a file git tracks is read whatever .gitignore says", async () => {
  const files = { "src/a.ts": "TOKEN\n", ".gitignore": ".env*\n/deploy.pem\nkeys/\n", ".env.local": "TOKEN=x\n", "deploy.pem": "KEY\n", "keys/id_rsa": "KEY\n", "id_rsa": "KEY\n" };
  const { engine, decide, behavior } = await project(files, { add: [".gitignore", "src"], force: ["id_rsa"] });
  // id_rsa is ignored by no pattern and tracked: read by all of them
  for (const walk of ["rg TOKEN", "git grep TOKEN", "rg --hidden TOKEN"]) expect(decide(walk).reason).toContain("would read files that usually hold secrets (id_rsa), which asks like reading one does");
  expect(decide("grep -r TOKEN .").reason).toContain("(.env.local, deploy.pem, id_rsa), which asks like reading one does; leave them out (--exclude='.env*' --exclude='*.pem' --exclude=id_rsa)");
  expect(behavior("rg -g '!id_rsa' --hidden TOKEN")).toBe("allow");
  expect(behavior("git grep TOKEN -- . ':!id_rsa'")).toBe("allow");
  expect(decide("rg -uu -g '!id_rsa' TOKEN").reason).toContain("(.env.local, deploy.pem), which asks like reading one does; leave them out (-g '!.env*' -g '!*.pem')");
  // ag reads .gitignore itself, partly: a pattern with a slash is not trusted to be understood
  engine.grant("Bash(ag:*)", "session");
  expect(decide("ag TOKEN").reason).toContain("would read files that usually hold secrets (deploy.pem, id_rsa)");
  expect(decide("ag -U TOKEN").reason).toContain("(.env.local, deploy.pem, id_rsa)");
});

test("the names a walk must leave out are the ones reading a file asks about", () => {
  for (const glob of SECRET_NAME_GLOBS) expect({ glob, flagged: !!sensitiveReason(`/p/${glob.replace(/\*/g, "x")}`, "/home/u") }).toEqual({ glob, flagged: true });
});

test("a walk over home also leaves out the credential folders there that exist", async () => {
  const { f, decide, behavior } = await setup({ allow: ["Read(~/**)"] });
  const d = decide(`grep -r ${leaveOut(decide("grep -r TOKEN src/..").reason)} TOKEN ~`);
  expect(d.behavior).toBe("ask");
  expect(d.reason).toContain("would read files that usually hold secrets below ~ (~/.ssh/, ~/.aws/)");
  expect(d.reason).toContain("--exclude-dir=.ssh --exclude-dir=.aws");
  expect(behavior(`grep -r ${leaveOut(decide("grep -r TOKEN src/..").reason)} ${leaveOut(d.reason)} TOKEN ~`)).toBe("allow");
  expect(behavior(`rg ${leaveOut(decide("rg TOKEN").reason)} TOKEN ${f.home}`)).toBe("allow");
});

test("links: a walk that follows them may reach anything; starts and glob matches are judged where they point", async () => {
  const { f, behavior, decide } = await setup({ deny: ["Read(./secrets/**)"] });
  const d = decide("grep -R TOKEN docs");
  expect(d.behavior).toBe("ask");
  expect(d.reason).toContain("follows symbolic links, so it may reach secrets/");
  expect(d.reason).toContain("use -r instead of -R");
  expect(behavior("grep -r TOKEN docs")).toBe("allow");
  symlinkSync(f.root, join(f.outside, "alias"));
  expect(behavior(`grep -r TOKEN ${f.outside}/alias`, "bypassPermissions")).toBe("deny");
  expect(behavior("grep -r TOKEN link-*", "bypassPermissions")).toBe("deny");
  expect(behavior("cat link-*/*", "bypassPermissions")).toBe("deny");
});

test("find's -prune leaves a folder out only as the first operand of a top-level -o, spelled as find prints it", async () => {
  const { behavior } = await setup({ deny: ["Read(./secrets/**)"] });
  for (const runs of ["find . -path ./secrets -prune -o -print", "find . -path './sec*' -prune -o -print", "find . -maxdepth 5 -name secrets -prune -o -type f -print"]) {
    expect(behavior(runs)).toBe("allow");
  }
  for (const asks of ["find . -print -o -path ./secrets -prune", "find . ! -path ./secrets", "find . -depth -name secrets -prune -o -print", "find src/.. -path ./secrets -prune -o -print", "find . -path secrets -prune -o -print"]) {
    expect(behavior(asks)).toBe("ask");
  }
});

test("copies, archives and moves of a tree holding a denied path ask, even where acceptEdits would run them", async () => {
  const { engine, behavior, decide } = await setup({ deny: ["Read(./secrets/**)"] });
  expect(decide("tar czf out.tgz .").reason).toContain("would archive secrets/, which Read(./secrets/**) denies");
  expect(behavior("cp -r . backup", "acceptEdits")).toBe("ask");
  expect(behavior("cp -r src backup", "acceptEdits")).toBe("allow");
  expect(behavior("mv secrets public", "acceptEdits")).toBe("ask");
  const copy = decide("cp secrets/key.txt /tmp/k");
  expect(copy.behavior).toBe("deny");
  expect(copy.reason).toContain("would copy secrets/key.txt");
  // bypass runs commands outside the read-only set whatever they touch, as before
  expect(behavior("cp -r . /tmp/x", "bypassPermissions")).toBe("allow");
  // an allow rule for the command does not outrank the deny it would cross
  engine.grant("Bash(tar:*)", "session");
  expect(behavior("tar czf out.tgz .")).toBe("ask");
  expect(behavior("tar czf out.tgz src")).toBe("allow");
});

test("a glob with more matches than are looked at one by one is judged by its pattern", async () => {
  const { f, behavior, decide } = await setup({ deny: ["Read(./vault/**)"] }, ["src/one.md"]);
  expect(behavior("cat */*.md")).toBe("allow");
  for (let i = 0; i < 600; i++) writeFileSync(join(f.root, "src", `n${i}.md`), "");
  const d = decide("cat */*.md");
  expect(d.behavior).toBe("ask");
  expect(d.reason).toContain("may match paths in vault/, which Read(./vault/**) denies");
  expect(behavior("cat src/*.md")).toBe("allow");
});

test("git's history views reach a denied folder only where git tracks files in it", async () => {
  const { f, behavior, decide } = await setup({ deny: ["Read(./secrets/**)", "Read(./vault/**)", "Read(*.pem)"] }, ["vault/v.txt", "config/prod.pem"]);
  const git = (...args: string[]) => {
    const r = Bun.spawnSync(["git", "-C", f.root, ...args], { env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
    expect(r.exitCode).toBe(0);
  };
  rmSync(join(f.root, ".git"), { recursive: true, force: true });
  git("init", "-q");
  writeFileSync(join(f.root, ".gitignore"), "secrets/\n*.pem\n");
  git("add", ".gitignore", "src", "vault", "docs");
  git("commit", "-qm", "x");
  // vault/ is tracked: its history is printed; secrets/ and *.pem are ignored, so no history holds them
  for (const view of ["git log -p", "git diff HEAD", "git show"]) {
    const d = decide(view);
    expect(d.reason).toContain("would read vault/, which Read(./vault/**) denies");
    expect(d.reason).not.toContain("secrets");
    expect(d.reason).not.toContain("pem");
    expect(behavior(view, "bypassPermissions")).toBe("deny");
  }
  expect(behavior("git log -p -- . ':!vault'", "bypassPermissions")).toBe("allow");
  expect(behavior("git log -p -- src")).toBe("allow");
  expect(behavior("git log -p -- vault")).toBe("deny");
  expect(behavior("git show HEAD:vault/v.txt")).toBe("deny");
  // the blob of a path is judged where it lies in the work tree, from any folder git runs in
  expect(behavior("git show HEAD:vault/v.txt", "default", join(f.root, "src"))).toBe("deny");
  expect(behavior("git show HEAD:src/a.ts", "default", join(f.root, "src"))).toBe("allow");
});

test("tar finds its members relative to the last -C before them", async () => {
  const { decide } = await setup({ deny: ["Read(./secrets/**)"] });
  expect(decide("tar -C src -czf out.tgz .").reason).not.toContain("secrets");
  expect(decide("tar -czf out.tgz -C src ../secrets").behavior).toBe("deny");
  expect(decide("tar -czf out.tgz -C src . -C .. .").reason).toContain("would archive secrets/");
  expect(decide("tar -C $DIR -czf out.tgz .").reason).toBe("running `tar -C $DIR -czf out.tgz .`");
});
