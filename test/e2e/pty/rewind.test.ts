// Rewind in the real app, in a pseudo-terminal: Esc Esc on an empty prompt opens the chooser of
// earlier messages, arrows move the marked row, Enter takes it; then what to restore. A real git
// project changed by the agent's real bash commands; the fake Messages API's request log shows
// what the model is sent after; and a kill -9 afterwards resumes with the rewind in the log.
import { expect, test } from "bun:test";
import { execSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeApi } from "../../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../../support/cli.ts";
import { idle, KEY, ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();
const bash = (command: string) => ({ content: [{ type: "tool_use" as const, name: "bash", input: { command } }] });
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });
const messagesOf = (fake: FakeApi) => fake.requests.filter((r) => r.outcome === "served").map((r) => (r.body as { messages: unknown[] }).messages);

test("Esc Esc: the chooser of earlier messages, then code and conversation restored; the message back in the prompt; a kill -9 resumes after the rewind", async () => {
  const fake = await fixtures.api({
    turns: [bash("echo one > notes.txt"), say("MADE-ONE"), bash("echo two >> notes.txt && echo x > extra.txt"), say("APPENDED-TWO"), say("DID-THREE"), say("AFTER-CRASH")],
  });
  const env = isolatedEnv(fake.url);
  const dir = tempProject();
  execSync("git init -q .", { cwd: dir });
  const s = fixtures.pty(["--permission-mode", "bypassPermissions"], { cwd: dir, env });
  await submit(s, "make the notes");
  await s.waitFor((sc) => sc.includes("MADE-ONE") && idle(sc), "the first answer");
  await submit(s, "append a second line");
  await s.waitFor((sc) => sc.includes("APPENDED-TWO") && idle(sc), "the second answer");
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("one\ntwo\n");

  s.send(KEY.esc);
  await s.waitForText("Esc again to rewind");
  s.send(KEY.esc);
  await s.waitForText("Rewind to before which message?");
  // Newest first, the newest marked; each with its time.
  await s.waitFor((sc) => /❯ append a second line +\d\d:\d\d/.test(sc) && /  make the notes +\d\d:\d\d/.test(sc), "both messages, the newest marked");
  if (process.env.REWIND_CAPTURE) console.log(`\n----- the rewind chooser -----\n${s.screen()}\n-----`);
  s.send(KEY.down);
  await s.waitForText("❯ make the notes");
  s.send(KEY.up);
  await s.waitForText("❯ append a second line");
  s.send(KEY.enter);
  await s.waitForText("restore what?");
  await s.waitForText("❯ Restore code and conversation");
  if (process.env.REWIND_CAPTURE) console.log(`\n----- restore what? -----\n${s.screen()}\n-----`);
  s.send(KEY.enter);
  await s.waitForText("Rewound to before an earlier message: the conversation and the code");
  // The screen's last "› append a second line" is the prompt's, below the notice.
  await s.waitFor((sc) => /restored notes\.txt[\s\S]*› append a second line/.test(sc.replace(/\n/g, "")), "the message back in the prompt");
  if (process.env.REWIND_CAPTURE) console.log(`\n----- after the rewind -----\n${s.screen()}\n-----`);
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("one\n");
  expect(existsSync(join(dir, "extra.txt"))).toBe(false);

  // Edited and sent again: the request holds exactly the history before the rewound message.
  s.send(KEY.ctrlU);
  await s.waitFor(idle, "the prompt cleared");
  await submit(s, "append a third line instead");
  await s.waitFor((sc) => sc.includes("DID-THREE") && idle(sc), "the answer after the rewind");
  const sent = messagesOf(fake);
  expect(sent[4]!.slice(0, -1)).toEqual(sent[2]!.slice(0, -1));
  expect(JSON.stringify(sent[4]!.at(-1))).toContain("append a third line instead");
  expect(JSON.stringify(sent[4])).not.toContain("APPENDED-TWO");

  // kill -9, then resume: the rewind is in the log, so the abandoned turn stays out.
  s.kill();
  await s.exited;
  const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ id: string }>;
  expect(listed).toHaveLength(1);
  const resumed = await runCli(["--resume", listed[0]!.id, "-p", "and after the crash?"], { cwd: dir, env });
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toContain("AFTER-CRASH");
  const last = JSON.stringify(messagesOf(fake).at(-1));
  expect(last).toContain("append a third line instead");
  expect(last).toContain("and after the crash?");
  expect(last).not.toContain("APPENDED-TWO");
  expect(last).not.toContain("append a second line");
}, 90_000);

test("/rewind with nothing said yet says so; Esc Esc with text in the prompt does not open the chooser", async () => {
  const fake = await fixtures.api({ turns: [say("HELLO")] });
  const s = fixtures.pty([], { cwd: tempProject(), env: isolatedEnv(fake.url) });
  await s.waitFor(idle, "the composer");
  s.type("/rewind");
  await s.waitForText("› /rewind");
  s.send(KEY.enter);
  await s.waitForText("Nothing to rewind to");
  await submit(s, "hi");
  await s.waitFor((sc) => sc.includes("HELLO") && idle(sc), "the answer");
  s.type("draft");
  await s.waitForText("› draft");
  s.send(KEY.esc);
  s.send(KEY.esc);
  s.type("!");
  await s.waitForText("› draft!");
  expect(s.screen()).not.toContain("Rewind to before which message?");
  s.send(KEY.ctrlD);
}, 60_000);
