// Snapshot cost in a repository of 10,000 files: the first snapshot (shadow repo created, user's
// index copied, objects borrowed through alternates), an unchanged re-snapshot, one after 10 files
// changed; outside git, the first snapshot of a tree at the size limit (everything hashed and
// stored), a second session's first snapshot of it (objects shared), and how fast a tree over the
// limit is turned down.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGitProtection } from "../src/workspace/git/index.ts";
import { PLAIN_DIRECTORY_FILE_LIMIT } from "../src/workspace/git/git-protection.ts";

const FILES = 10_000;

function populate(root: string, files = FILES): void {
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${i % 50}`, `mod${i % 7}`);
    if (i < 350) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i}.ts`), `export const value${i} = ${i};\n// ${"x".repeat(i % 200)}\n`);
  }
}

function sh(cwd: string, cmd: string[]): void {
  const r = Bun.spawnSync(cmd, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" } });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

export async function run(_opts: { json: boolean }) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "khaelor-snapbench-")));
  try {
    const repo = join(base, "repo");
    mkdirSync(repo);
    populate(repo);
    sh(repo, ["git", "init", "-q"]);
    sh(repo, ["git", "add", "-A"]);
    sh(repo, ["git", "commit", "-q", "-m", "init"]);

    const [first, protection] = await time(() => createGitProtection({ projectRoot: repo, dataDir: join(base, "data-repo") }));
    const [again] = await time(() => protection.snapshot());
    for (let i = 0; i < 10; i++) writeFileSync(join(repo, `pkg${i}`, `mod${i % 7}`, `file${i}.ts`), `changed ${i}\n`);
    const [tenChanged] = await time(() => protection.snapshot());
    const [undo] = await time(async () => {
      await protection.beginTurn();
      writeFileSync(join(repo, "pkg1", "mod1", "file1.ts"), "turn\n");
      await protection.endTurn();
      return protection.undo();
    });

    const plain = join(base, "plain");
    mkdirSync(plain);
    populate(plain, PLAIN_DIRECTORY_FILE_LIMIT);
    const plainData = join(base, "data-plain");
    const [plainFirst, plainProtection] = await time(() => createGitProtection({ projectRoot: plain, dataDir: plainData, sessionId: "a" }));
    const [plainAgain] = await time(() => plainProtection.snapshot());
    const [plainSecondSession] = await time(() => createGitProtection({ projectRoot: plain, dataDir: plainData, sessionId: "b" }));

    const big = join(base, "big");
    mkdirSync(big);
    populate(big, FILES);
    const [refused, off] = await time(() => createGitProtection({ projectRoot: big, dataDir: join(base, "data-big") }));
    if (!off.unavailable) throw new Error("a plain tree over the limit should turn snapshots off");

    const ms = (n: number) => Math.round(n * 10) / 10;
    return [
      {
        name: `snapshot: git repository of ${FILES} files`,
        firstSnapshotMs: ms(first),
        unchangedSnapshotMs: ms(again),
        tenFilesChangedSnapshotMs: ms(tenChanged),
        turnThenUndoMs: ms(undo),
        firstPerFileUs: ms((first * 1000) / FILES),
      },
      {
        name: `snapshot: plain directory of ${PLAIN_DIRECTORY_FILE_LIMIT} files (the limit outside git; nothing to borrow)`,
        firstSnapshotMs: ms(plainFirst),
        firstPerFileUs: ms((plainFirst * 1000) / PLAIN_DIRECTORY_FILE_LIMIT),
        unchangedSnapshotMs: ms(plainAgain),
        secondSessionFirstSnapshotMs: ms(plainSecondSession),
      },
      {
        name: `snapshot: plain directory of ${FILES} files (over the limit: snapshots off)`,
        decideMs: ms(refused),
      },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
