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
