// Rewind of the work tree to before an earlier message: every agent turn since put back at once,
// bash-made changes included, and nothing the user changed after the agent touched.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createGitProtection } from "../../../src/workspace/git/index.ts";
import { makeRepo, read, sh, tempDir, write } from "./support.ts";

test("back to before a message: the agent's turns since are undone together, bash changes included", async () => {
  const root = makeRepo();
  const p = await createGitProtection({ projectRoot: root, dataDir: tempDir() });
  await p.beginTurn("m1");
  write(root, "a.txt", "turn 1\n");
  await p.endTurn();
  await p.beginTurn("m2");
  sh(root, "echo two > two.txt && rm b.txt && echo 'turn 2' > a.txt");
  await p.endTurn();
  await p.beginTurn("m3");
  sh(root, "mkdir -p gen && echo three > gen/three.txt");
  await p.endTurn();

  const r = await p.rewind(["m2", "m3"]);
  expect(r).toEqual({ snapshot: expect.any(String), restored: ["a.txt", "b.txt", "gen/three.txt", "two.txt"], removed: ["gen/three.txt", "two.txt"], skipped: [] });
  expect(read(root, "a.txt")).toBe("turn 1\n");
  expect(read(root, "b.txt")).toBe("b1\n");
  expect(existsSync(join(root, "two.txt"))).toBe(false);
  expect(existsSync(join(root, "gen"))).toBe(false);
  // The turns rewound are gone: /undo now takes back turn 1.
  expect(p.undoableTurns()).toBe(1);
  expect((await p.undo())?.restored).toEqual(["a.txt"]);
});

test("what the user changed after the agent is kept and reported, between turns as well as after the last", async () => {
  const root = makeRepo();
  const p = await createGitProtection({ projectRoot: root, dataDir: tempDir() });
  await p.beginTurn("m1");
  write(root, "a.txt", "agent a\n");
  write(root, "b.txt", "agent b\n");
  await p.endTurn();
  write(root, "b.txt", "user b, between the turns\n"); // the user, before the next message
  await p.beginTurn("m2");
  sh(root, "echo 'agent b again' >> b.txt && echo agent > c.txt");
  await p.endTurn();
  write(root, "c.txt", "user took c over\n"); // and after the last turn
  write(root, "mine.txt", "a file of the user's\n");

  const r = await p.rewind(["m1", "m2"]);
  expect(r?.restored).toEqual(["a.txt"]);
  expect(r?.skipped.map((s) => s.path)).toEqual(["b.txt", "c.txt"]);
  expect(r?.skipped[0]?.reason).toContain("you changed it after the agent");
  expect(read(root, "a.txt")).toBe("a1 staged\n");
  expect(read(root, "b.txt")).toBe("user b, between the turns\nagent b again\n");
  expect(read(root, "c.txt")).toBe("user took c over\n");
  expect(read(root, "mine.txt")).toBe("a file of the user's\n");
});

test("a message whose turn changed nothing: the turns after it are rewound; no turn after it: nothing to do", async () => {
  const root = makeRepo();
  const p = await createGitProtection({ projectRoot: root, dataDir: tempDir() });
  await p.beginTurn("m1");
  await p.endTurn(); // changed nothing: no undo step
  await p.beginTurn("m2");
  write(root, "a.txt", "turn 2\n");
  await p.endTurn();
  expect((await p.rewind(["m1", "m2"]))?.restored).toEqual(["a.txt"]);
  expect(await p.rewind(["m9"])).toBeNull();
});

test("after a crash (no end snapshot, a new process): the rewind covers the interrupted turn too", async () => {
  const root = makeRepo();
  const data = tempDir();
  const first = await createGitProtection({ projectRoot: root, dataDir: data, sessionId: "s" });
  await first.beginTurn("m1");
  write(root, "a.txt", "done\n");
  await first.endTurn();
  await first.beginTurn("m2");
  sh(root, "echo partial > partial.txt");
  // kill -9 here: no endTurn
  const second = await createGitProtection({ projectRoot: root, dataDir: data, sessionId: "s", resume: true });
  expect((await second.rewind(["m1", "m2"]))?.restored).toEqual(["a.txt", "partial.txt"]);
  expect(read(root, "a.txt")).toBe("a1 staged\n");
  expect(existsSync(join(root, "partial.txt"))).toBe(false);
});
