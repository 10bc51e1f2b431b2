// Rewind's "fork from here" in the real app, in a pseudo-terminal: a new session holding the
// conversation before the picked message (listed by `khaelor sessions`), the original untouched;
// and a session resumed after a rewind shows its current branch, in the scrollback and the pager.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { FakeApi } from "../../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../../support/cli.ts";
import { idle, KEY, ptyFixtures, submit, type PtySession } from "./harness.ts";

const fixtures = ptyFixtures();
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });
const messagesOf = (fake: FakeApi) => fake.requests.filter((r) => r.outcome === "served").map((r) => (r.body as { messages: unknown[] }).messages);
type Listed = Array<{ id: string; path: string; title: string }>;

async function twoTurns(s: PtySession) {
  await submit(s, "the word is plum");
  await s.waitFor((sc) => sc.includes("PLUM-NOTED") && idle(sc), "the first answer");
  await submit(s, "no, the word is pear");
  await s.waitFor((sc) => sc.includes("PEAR-NOTED") && idle(sc), "the second answer");
}

/** Esc Esc, the newest message picked, then the restore option `downs` rows below the first. */
async function rewindOption(s: PtySession, downs: number, label: string) {
  s.send(KEY.esc);
  await s.waitForText("Esc again to rewind");
  s.send(KEY.esc);
  await s.waitForText("❯ no, the word is pear");
  s.send(KEY.enter);
  await s.waitForText("restore what?");
  for (let i = 0; i < downs; i++) s.send(KEY.down);
  await s.waitForText(`❯ ${label}`);
  s.send(KEY.enter);
}

test("fork from here: a new session with the conversation before the message, the message back in the prompt, the original as it was", async () => {
  const fake = await fixtures.api({ turns: [say("PLUM-NOTED"), say("PEAR-NOTED"), say("FORK-ANSWER")] });
  const env = isolatedEnv(fake.url);
  const dir = tempProject();
  const s = fixtures.pty([], { cwd: dir, env });
  await twoTurns(s);
  const original = (JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Listed)[0]!;
  const before = readFileSync(original.path);

  await rewindOption(s, 3, "Fork from here");
  await s.waitForText("Forked: new session");
  // The fork's transcript (the conversation before the message, the rewind's notice), then the prompt.
  await s.waitFor((sc) => new RegExp(`khaelor --resume ${original.id.slice(0, 8)}[\\s\\S]*session's log\\.› no, the word is pear`).test(sc.replace(/\n/g, "")), "the fork's notice, the message in the prompt");
  if (process.env.REWIND_CAPTURE) console.log(`\n----- after fork from here -----\n${s.screen()}\n-----`);
  s.send(KEY.ctrlU);
  await s.waitFor(idle, "the prompt cleared");
  await submit(s, "what is the word?");
  await s.waitFor((sc) => sc.includes("FORK-ANSWER") && idle(sc), "the fork's answer");
  const sent = messagesOf(fake)[2]!;
  expect(JSON.stringify(sent)).toContain("PLUM-NOTED");
  expect(JSON.stringify(sent)).not.toContain("pear");
  expect(JSON.stringify(sent.at(-1))).toContain("left the files as they are now");
  expect(JSON.stringify(sent.at(-1))).toContain("what is the word?");
  s.send(KEY.ctrlD);
  await s.exited;

  // Two sessions in the list; the original's log is byte for byte what it was.
  const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Listed;
  expect(listed).toHaveLength(2);
  expect(readFileSync(original.path).equals(before)).toBe(true);
  const fork = listed.find((x) => x.id !== original.id)!;
  const forkLog = readFileSync(fork.path, "utf8");
  expect(forkLog).toContain(`"forkedFrom":"${original.id}"`);
  expect(forkLog).not.toContain("PEAR-NOTED");
}, 90_000);

test("resumed after a rewind: the scrollback and the pager show the current branch, not the messages rewound away", async () => {
  const fake = await fixtures.api({ turns: [say("PLUM-NOTED"), say("PEAR-NOTED"), say("AGAIN-ANSWER")] });
  const env = isolatedEnv(fake.url);
  const dir = tempProject();
  const s = fixtures.pty([], { cwd: dir, env });
  await twoTurns(s);
  await rewindOption(s, 1, "Restore conversation");
  // The screen's last "› no, the word is pear" is the prompt's, below the notice.
  await s.waitFor((sc) => /session's log\.› no, the word is pear/.test(sc.replace(/\n/g, "")), "the message back in the prompt");
  s.send(KEY.ctrlU);
  await s.waitFor(idle, "the prompt cleared");
  await submit(s, "the word is fig");
  await s.waitFor((sc) => sc.includes("AGAIN-ANSWER") && idle(sc), "the answer after the rewind");
  s.send(KEY.ctrlD);
  await s.exited;
  const id = (JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Listed)[0]!.id;

  const r = fixtures.pty(["--resume", id], { cwd: dir, env });
  await r.waitFor((sc) => sc.includes("AGAIN-ANSWER") && idle(sc), "the resumed transcript");
  expect(r.all()).toContain("PLUM-NOTED");
  expect(r.all()).not.toContain("PEAR-NOTED");
  r.send(KEY.ctrlT);
  await r.waitFor((sc) => sc.includes("AGAIN-ANSWER") && sc.includes("PLUM-NOTED"), "the pager");
  expect(r.screen()).not.toContain("PEAR-NOTED");
  r.send("q");
  await r.waitFor(idle, "back from the pager");
  r.send(KEY.ctrlD);
  await r.exited;
}, 90_000);
