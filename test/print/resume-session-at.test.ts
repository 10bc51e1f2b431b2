// Hosts name messages by the `uuid` stream-json prints for them: it is the id the session log keeps,
// and `--resume <id> --resume-session-at <uuid>` continues from that message (the real CLI against
// the fake Messages API, whose request log shows what the model was sent).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { readSessionLog } from "../../src/session/log.ts";
import { fakeApiFixture, type FakeApi } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });
const served = (api: FakeApi) => api.requests.filter((r) => r.outcome === "served").map((r) => r.body as { messages: Array<{ role: string; content: unknown }> });
const STREAM = ["--output-format", "stream-json", "--verbose"];

describe("message ids", () => {
  test("the uuid of every message line stream-json prints is that message's id in the log", async () => {
    const dir = tempProject();
    const api = await serve({
      turns: [{ content: [{ type: "text", text: "Making it." }, { type: "tool_use", id: "toolu_u1", name: "bash", input: { command: "echo hi > f.txt" } }] }, say("DONE")],
    });
    const env = isolatedEnv(api.url);
    const run = await runCli(["-p", "make f.txt", "--permission-mode", "bypassPermissions", ...STREAM], { cwd: dir, env });
    expect(run.code).toBe(0);
    const lines = parseNdjson(run.stdout);
    const init = lines.find((l) => l.type === "system")!;
    const messages = lines.filter((l) => l.type === "assistant" || l.type === "user");
    expect(messages.map((l) => l.type)).toEqual(["assistant", "user", "assistant"]);
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ id: string; path: string }>;
    expect(listed[0]!.id).toBe(String(init.session_id));
    const logged = readSessionLog(listed[0]!.path).events.filter((e) => e.type === "assistant_message" || e.type === "tool_result");
    expect(messages.map((l) => l.uuid)).toEqual(logged.map((e) => e.id));
    for (const l of messages) expect(String(l.uuid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("--resume <id> --resume-session-at <uuid>", () => {
  /** Two turns in one session: the word is plum, then pear. Returns the session, its log and the printed lines. */
  async function twoTurns(api: FakeApi, env: Record<string, string>, dir: string) {
    const first = parseNdjson((await runCli(["-p", "the word is plum", ...STREAM], { cwd: dir, env })).stdout);
    const id = String(first[0]!.session_id);
    const second = parseNdjson((await runCli(["--resume", id, "-p", "no, the word is pear", ...STREAM], { cwd: dir, env })).stdout);
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ id: string; path: string }>;
    return { id, path: listed[0]!.path, first, second };
  }

  test("continues from that message: the next request holds the history through it, and the log keeps the rest", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [say("Noted: plum."), say("Noted: pear."), say("It is plum.")] });
    const env = isolatedEnv(api.url);
    const { id, path, first } = await twoTurns(api, env, dir);
    const plumAnswer = first.find((l) => l.type === "assistant")!;
    const run = await runCli(["--resume", id, "--resume-session-at", String(plumAnswer.uuid), "-p", "what is the word?", ...STREAM], { cwd: dir, env });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("resume-session-at");
    const body = served(api)[2]!;
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(body.messages)).not.toContain("pear");
    expect(JSON.stringify(body.messages[1])).toContain("Noted: plum.");
    expect(JSON.stringify(body.messages[2])).toContain("what is the word?");
    // The same session (no new one in the list), and the abandoned turn is still in its log.
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ id: string }>;
    expect(listed.map((s) => s.id)).toEqual([id]);
    const events = readSessionLog(path).events;
    expect(JSON.stringify(events)).toContain("no, the word is pear");
    expect(events.find((e) => e.type === "rewind")).toMatchObject({ to: plumAnswer.uuid, keep: "through", conversation: true });
  });

  test("an unknown uuid, or one rewound away: a clear error, exit 1, and the log untouched", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [say("Noted: plum."), say("Noted: pear."), say("It is plum.")] });
    const env = isolatedEnv(api.url);
    const { id, path, first, second } = await twoTurns(api, env, dir);
    const before = readFileSync(path);
    const unknown = await runCli(["--resume", id, "--resume-session-at", "0190aaaa-0000-7000-8000-000000000000", "-p", "x"], { cwd: dir, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no message of session");
    expect(readFileSync(path).equals(before)).toBe(true);
    // Rewound to the plum answer: the pear answer is no longer in the conversation.
    const plum = String(first.find((l) => l.type === "assistant")!.uuid);
    expect((await runCli(["--resume", id, "--resume-session-at", plum, "-p", "hm"], { cwd: dir, env })).code).toBe(0);
    const afterRewind = readFileSync(path);
    const pear = String(second.find((l) => l.type === "assistant")!.uuid);
    const gone = await runCli(["--resume", id, "--resume-session-at", pear, "-p", "x"], { cwd: dir, env });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("rewound away");
    expect(readFileSync(path).equals(afterRewind)).toBe(true);
    expect(served(api)).toHaveLength(3);
  });

  test("needs --resume or --continue", async () => {
    const r = await runCli(["--resume-session-at", "abc", "-p", "x"], { cwd: tempProject(), env: isolatedEnv(null) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--resume-session-at needs --continue or --resume");
  });
});

describe("--resume <id> --fork-session --resume-session-at <uuid>", () => {
  test("a new session holding exactly the history through that message: the request has nothing after it, the fork's log neither, and the original log is untouched", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [say("Noted: plum."), say("Noted: pear."), say("It is plum.")] });
    const env = isolatedEnv(api.url);
    const first = parseNdjson((await runCli(["-p", "the word is plum", ...STREAM], { cwd: dir, env })).stdout);
    const id = String(first[0]!.session_id);
    expect((await runCli(["--resume", id, "-p", "no, the word is pear", ...STREAM], { cwd: dir, env })).code).toBe(0);
    const original = (JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ id: string; path: string }>)[0]!;
    const before = readFileSync(original.path);
    const plum = String(first.find((l) => l.type === "assistant")!.uuid);

    const run = await runCli(["--resume", id, "--fork-session", "--resume-session-at", plum, "-p", "what is the word?", ...STREAM], { cwd: dir, env });
    expect(run.code).toBe(0);
    const forkId = String(parseNdjson(run.stdout)[0]!.session_id);
    expect(forkId).not.toBe(id);
    const body = served(api)[2]!;
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(body.messages[0])).toContain("the word is plum");
    expect(JSON.stringify(body.messages[1])).toContain("Noted: plum.");
    expect(JSON.stringify(body.messages)).not.toContain("pear");
    expect(JSON.stringify(body.messages[2])).toContain("what is the word?");

    expect(readFileSync(original.path).equals(before)).toBe(true);
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ id: string; path: string }>;
    expect(listed.map((s) => s.id).sort()).toEqual([id, forkId].sort());
    // The fork holds the conversation up to the message, not the branch it left behind.
    const forkLog = readSessionLog(listed.find((s) => s.id === forkId)!.path).events;
    expect(JSON.stringify(forkLog)).not.toContain("pear");
    expect(forkLog.find((e) => e.type === "session_header")).toMatchObject({ forkedFrom: id });
  });
});
