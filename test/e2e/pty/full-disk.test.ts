// A full disk in the app: the turn says the disk is full and what was not saved, the message the
// user typed comes back to the composer (never silently dropped), and once space is free, Enter
// sends it and the log holds both turns. The real CLI in a pty, on a real full tmpfs.
import { expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { smallFs } from "../../support/small-fs.ts";
import { KEY, SPINNER, idle, ptyFixtures, submit } from "./harness.ts";

const fs = smallFs("1m");
const fixtures = ptyFixtures();
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

test.skipIf(!fs)("a full disk: the app says what was not saved, keeps the typed message, and sends it once space is free", async () => {
  const fake = await fixtures.api({ turns: [text("FIRST-DONE"), text("SECOND-DONE")] });
  const env = isolatedEnv(fake.url);
  env.KHAELOR_HOME = join(fs!.dir, "data");
  mkdirSync(env.KHAELOR_HOME, { recursive: true });
  const s = fixtures.pty([], { env, cwd: tempProject() });
  await submit(s, "first message");
  await s.waitFor((sc) => sc.includes("FIRST-DONE") && idle(sc), "the first answer");

  fs!.fill();
  // Longer than a page: tmpfs hands out whole pages, so a short line could still fit in the log's last one.
  const second = `second message ${"y".repeat(4200)} END-OF-SECOND`;
  s.type(second);
  await s.waitForText("END-OF-SECOND");
  s.send(KEY.enter);
  await s.waitForText("the disk is full; nothing after");
  await s.waitFor((sc) => sc.includes("END-OF-SECOND") && !SPINNER.test(sc), "the message back in the composer");
  expect(s.all()).toMatch(/nothing after the end of the turn at \d\d:\d\d:\d\d was saved/);
  expect(fake.requests.filter((r) => r.path.startsWith("/v1/messages")).length).toBe(1);

  fs!.free();
  s.send(KEY.enter);
  await s.waitFor((sc) => sc.includes("SECOND-DONE") && idle(sc), "the second answer");
  s.send(KEY.ctrlD);
  expect(await s.exited).toBe(0);
  const dir = join(env.KHAELOR_HOME, "sessions");
  const [project] = readdirSync(dir);
  const log = readdirSync(join(dir, project!)).find((n) => n.endsWith(".jsonl"))!;
  const users = readFileSync(join(dir, project!, log), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; content?: unknown })
    .filter((e) => e.type === "user_message")
    .map((e) => e.content);
  expect(users).toEqual(["first message", second]);
}, 60_000);
