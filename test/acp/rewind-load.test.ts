// session/load after a rewind: the editor is shown the conversation as it stands, not the branch
// a rewind left behind (the log keeps it). The session is written by the real CLI; the real ACP
// client library loads it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { initialize, startAgent, text } from "./client.ts";

const serve = fakeApiFixture();
const say = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const STREAM = ["--output-format", "stream-json", "--verbose"];

test("session/load replays the current branch only: a message rewound away (--resume-session-at) is not replayed", async () => {
  const dir = tempProject();
  const api = await serve({ turns: [say("Noted: plum."), say("Noted: pear."), say("It is plum.")] });
  const env = isolatedEnv(api.url);
  const first = parseNdjson((await runCli(["-p", "the word is plum", ...STREAM], { cwd: dir, env })).stdout);
  const sessionId = String(first[0]!.session_id);
  expect((await runCli(["--resume", sessionId, "-p", "no, the word is pear"], { cwd: dir, env })).code).toBe(0);
  const plum = String(first.find((l) => l.type === "assistant")!.uuid);
  expect((await runCli(["--resume", sessionId, "--resume-session-at", plum, "-p", "what is the word?"], { cwd: dir, env })).code).toBe(0);
  const path = (JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ path: string }>)[0]!.path;
  expect(readFileSync(path, "utf8")).toContain("Noted: pear.");

  const b = startAgent(dir, env);
  await b.run(async (ctx) => {
    await initialize(ctx);
    await ctx.request("session/load", { sessionId, cwd: dir, mcpServers: [] });
  });
  await b.proc.exited;
  const replay = b.updates.filter((u) => u.sessionId === sessionId);
  expect(text(replay, "user_message_chunk")).toBe("the word is plumwhat is the word?");
  expect(text(replay, "agent_message_chunk")).toBe("Noted: plum.It is plum.");
}, 60_000);
