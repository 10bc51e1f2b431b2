// Snapshots and /undo against real git repositories (and a plain directory) in temp dirs. The agent's
// changes are made the two ways tools make them: direct file writes and a real bash process.
import { expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRepo, read, sh, tempDir, userGitState, write } from "./support.ts";
import { commitChange } from "../../../src/tools/file-change.ts";
import { createGitProtection } from "../../../src/workspace/git/index.ts";
import { createWorkspace } from "../../../src/workspace/local.ts";

test("in a repository: baseline, then undo puts back a write, a bash delete and bash-created files, leaving git alone", async () => {
  const root = makeRepo();
  const data = tempDir();
  const before = userGitState(root);
  const protection = await createGitProtection({ projectRoot: join(root, "dir"), dataDir: data });

  expect(protection.workTree).toBe(root);
  const b = protection.baseline!;
  expect(b.root).toBe(root);
  expect(b.branch).toBe("main");
  expect(b.head).toBe(sh(root, "git rev-parse HEAD"));
  expect(b.dirty).toEqual([
    { path: "a.txt", hash: sh(root, "git hash-object a.txt") },
    { path: "notes.md", hash: sh(root, "git hash-object notes.md") },
  ]);

  await protection.beginTurn();
  write(root, "a.txt", "agent rewrote a\n"); // like the write tool
  write(root, "dir/c.txt", "c edited\n"); // like the edit tool
  sh(root, "rm b.txt run.sh && echo new > new.txt && mkdir -p gen/deep && echo x > gen/deep/y.txt");
  await protection.endTurn();

  const diff = await protection.diff();
  expect(diff.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
    "added gen/deep/y.txt", "added new.txt", "deleted b.txt", "deleted run.sh", "modified a.txt", "modified dir/c.txt",
  ]);
  expect(diff.patch).toContain("+agent rewrote a");

  const result = await protection.undo();
  expect(result).toEqual({
    snapshot: expect.any(String),
    restored: ["a.txt", "b.txt", "dir/c.txt", "gen/deep/y.txt", "new.txt", "run.sh"],
    removed: ["gen/deep/y.txt", "new.txt"],
    skipped: [],
  });
  expect(read(root, "a.txt")).toBe("a1 staged\n");
  expect(read(root, "b.txt")).toBe("b1\n");
  expect(read(root, "dir/c.txt")).toBe("c1\n");
  expect(statSync(join(root, "run.sh")).mode & 0o111).not.toBe(0);
  expect(existsSync(join(root, "new.txt"))).toBe(false);
  expect(existsSync(join(root, "gen"))).toBe(false);
  expect(read(root, "notes.md")).toBe("mine\n");
  expect(userGitState(root)).toEqual(before);
  expect((await protection.diff()).files).toEqual([]);
  expect(await protection.undo()).toBeNull();
});

test("undo goes back turn by turn", async () => {
  const root = makeRepo();
  const protection = await createGitProtection({ projectRoot: root, dataDir: tempDir() });
  await protection.beginTurn();
  write(root, "a.txt", "turn 1\n");
  await protection.endTurn();
  await protection.beginTurn();
  await protection.endTurn(); // a turn that changed nothing is no undo step
  await protection.beginTurn();
  write(root, "a.txt", "turn 2\n");
  sh(root, "echo two > two.txt");
  await protection.endTurn();
  expect(protection.undoableTurns()).toBe(2);

  await protection.undo();
  expect(read(root, "a.txt")).toBe("turn 1\n");
  expect(existsSync(join(root, "two.txt"))).toBe(false);
  await protection.undo();
  expect(read(root, "a.txt")).toBe("a1 staged\n");
  expect(await protection.undo()).toBeNull();
});

test("the user's own changes after the turn are kept, and reported where they collide", async () => {
  const root = makeRepo();
  const protection = await createGitProtection({ projectRoot: root, dataDir: tempDir() });
  await protection.beginTurn();
  write(root, "a.txt", "agent a\n");
  write(root, "b.txt", "agent b\n");
  sh(root, "rm dir/c.txt");
  await protection.endTurn();
  // the user, between the turn and /undo
  write(root, "b.txt", "user b\n");
  write(root, "dir/c.txt", "user recreated c\n");
  write(root, "user.txt", "user file\n");

  const result = await protection.undo();
  expect(result?.restored).toEqual(["a.txt"]);
  expect(result?.skipped.map((s) => s.path)).toEqual(["b.txt", "dir/c.txt"]);
  expect(result?.skipped[0]?.reason).toContain("changed again after the agent's turn");
  expect(read(root, "a.txt")).toBe("a1 staged\n");
  expect(read(root, "b.txt")).toBe("user b\n");
  expect(read(root, "dir/c.txt")).toBe("user recreated c\n");
  expect(read(root, "user.txt")).toBe("user file\n");
});

test("outside git: snapshots and undo work in a plain directory, symlinks included", async () => {
  const root = tempDir();
  write(root, "keep.txt", "keep\n");
  write(root, "doomed.txt", "doomed\n");
  symlinkSync("keep.txt", join(root, "link"));
  const protection = await createGitProtection({ projectRoot: root, dataDir: tempDir() });
  expect(protection.baseline).toBeNull();
  expect(existsSync(join(root, ".git"))).toBe(false);

  await protection.beginTurn();
  write(root, "keep.txt", "changed\n");
  sh(root, "rm doomed.txt link && echo fresh > fresh.txt");
  await protection.endTurn();
  const result = await protection.undo();
  expect(result?.restored).toEqual(["doomed.txt", "fresh.txt", "keep.txt", "link"]);
  expect(read(root, "keep.txt")).toBe("keep\n");
  expect(read(root, "doomed.txt")).toBe("doomed\n");
  expect(lstatSync(join(root, "link")).isSymbolicLink()).toBe(true);
  expect(readlinkSync(join(root, "link"))).toBe("keep.txt");
  expect(existsSync(join(root, "fresh.txt"))).toBe(false);
  expect(existsSync(join(root, ".git"))).toBe(false);
});

test("an interrupted turn (no end snapshot) is undone up to now; history survives a restart", async () => {
  const root = makeRepo();
  const data = tempDir();
  const first = await createGitProtection({ projectRoot: root, dataDir: data });
  await first.beginTurn();
  write(root, "a.txt", "done\n");
  await first.endTurn();
  await first.beginTurn();
  sh(root, "echo partial > partial.txt");
  // crash: no endTurn
  const second = await createGitProtection({ projectRoot: root, dataDir: data, resume: true });
  expect(second.sessionStart).toBe(first.sessionStart);
  expect(second.undoableTurns()).toBe(2);
  expect((await second.undo())?.restored).toEqual(["partial.txt"]);
  expect((await second.undo())?.restored).toEqual(["a.txt"]);
  expect(read(root, "a.txt")).toBe("a1 staged\n");
});

test("diff from a given snapshot shows only what came after it", async () => {
  const root = makeRepo();
  const protection = await createGitProtection({ projectRoot: root, dataDir: tempDir() });
  await protection.beginTurn();
  write(root, "a.txt", "one\n");
  const mid = await protection.endTurn();
  await protection.beginTurn();
  write(root, "b.txt", "two\n");
  await protection.endTurn();
  expect((await protection.diff(mid)).files).toEqual([{ path: "b.txt", status: "modified" }]);
  expect((await protection.diff()).files.map((f) => f.path)).toEqual(["a.txt", "b.txt"]);
});

test("outside git, a directory too big to snapshot turns protection off with a reason instead of stalling", async () => {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-big-"));
  for (let d = 0; d < 51; d++) {
    mkdirSync(join(dir, `d${d}`));
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `d${d}`, `f${f}`), "x");
  }
  const data = mkdtempSync(join(tmpdir(), "khaelor-big-data-"));
  const p = await createGitProtection({ projectRoot: dir, dataDir: data });
  expect(p.unavailable).toContain("more than 5,000 files");
  expect(await p.beginTurn()).toBe("");
  expect(await p.undo()).toBeNull();
  expect(existsSync(join(data, "shadow.git"))).toBe(false);
  rmSync(dir, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

test("sessions of one project share the shadow objects: a second session outside git stores nothing new", async () => {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-share-"));
  for (let i = 0; i < 200; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n${"x".repeat(2000)}\n`);
  const data = mkdtempSync(join(tmpdir(), "khaelor-share-data-"));
  const size = () => Number(Bun.spawnSync(["du", "-sk", join(data, "shadow.git", "objects")]).stdout.toString().split("\t")[0]);
  const first = await createGitProtection({ projectRoot: dir, dataDir: data, sessionId: "one" });
  await first.beginTurn();
  const afterFirst = size();
  const second = await createGitProtection({ projectRoot: dir, dataDir: data, sessionId: "two" });
  await second.beginTurn();
  expect(second.sessionStart).toBe(first.sessionStart);
  // The first session stored ~400 KB of file contents; the second adds at most a tree or two.
  expect(size() - afterFirst).toBeLessThan(afterFirst / 10);
  // Each session undoes only its own turns.
  writeFileSync(join(dir, "f0.txt"), "changed by session two\n");
  await second.endTurn();
  expect(first.undoableTurns()).toBe(1);
  expect((await second.undo())?.restored).toEqual(["f0.txt"]);
  rmSync(dir, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

test("KHAELOR's own settings are not the agent's work: /diff does not list them, /undo does not remove them", async () => {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-settings-"));
  writeFileSync(join(dir, "a.txt"), "a\n");
  const data = mkdtempSync(join(tmpdir(), "khaelor-settings-data-"));
  const p = await createGitProtection({ projectRoot: dir, dataDir: data });
  await p.beginTurn();
  mkdirSync(join(dir, ".khaelor"));
  writeFileSync(join(dir, ".khaelor", "settings.local.json"), '{"permissions":{"allow":["Edit(./a.txt)"]}}');
  writeFileSync(join(dir, "a.txt"), "changed\n");
  await p.endTurn();
  expect((await p.diff()).files.map((f) => f.path)).toEqual(["a.txt"]);
  expect((await p.undo())?.restored).toEqual(["a.txt"]);
  expect(existsSync(join(dir, ".khaelor", "settings.local.json"))).toBe(true);
  rmSync(dir, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

test("files git ignores are undone too once a tool changed them; other ignored files are never touched", async () => {
  const root = makeRepo();
  write(root, ".gitignore", "node_modules/\n.env\n");
  write(root, ".env", "TOKEN=old\n");
  write(root, "node_modules/keep.js", "theirs\n");
  const before = userGitState(root);
  // Opened through a symlink, as on macOS (/tmp → /private/tmp): git reports the real path.
  const link = join(tempDir(), "project-link");
  symlinkSync(root, link);
  const protection = await createGitProtection({ projectRoot: link, dataDir: tempDir() });
  const ws = createWorkspace({ root: link, spillDir: tempDir() });
  ws.onFileChanged = (abs, was) => protection.adopt(abs, was);

  await protection.beginTurn();
  // Through the code write and edit share: the change, then the adoption.
  await commitChange(ws, join(link, ".env"), readFileSync(join(root, ".env")), Buffer.from("TOKEN=new\n"), "edit", "t1");
  await commitChange(ws, join(link, "node_modules/made.js"), null, Buffer.from("agent\n"), "write", "t2");
  await commitChange(ws, join(link, ".khaelor/settings.local.json"), null, Buffer.from("{}\n"), "write", "t3");
  await protection.endTurn();

  expect((await protection.diff()).files.map((f) => `${f.status} ${f.path}`).sort()).toEqual(["added node_modules/made.js", "modified .env"]);
  const result = await protection.undo();
  expect(result?.restored).toEqual([".env", "node_modules/made.js"]);
  expect(read(root, ".env")).toBe("TOKEN=old\n");
  expect(existsSync(join(root, "node_modules/made.js"))).toBe(false);
  expect(read(root, "node_modules/keep.js")).toBe("theirs\n");
  expect(read(root, ".khaelor/settings.local.json")).toBe("{}\n");
  rmSync(join(root, ".khaelor"), { recursive: true }); // written by this test, not part of the user's state
  expect(userGitState(root)).toEqual(before);

  // Adopted for good: a later turn's change to .env is an undo step even without the tool.
  await protection.beginTurn();
  write(root, ".env", "TOKEN=by bash\n");
  await protection.endTurn();
  await protection.undo();
  expect(read(root, ".env")).toBe("TOKEN=old\n");
});
