// kill -9 while two subagents run, then --resume: the next request is valid (every tool_use has
// its tool_result, which the fake API checks as the real one does), the children's logs are kept
// beside the parent's, and the session list still holds the parent alone.
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readSessionLog } from "../../src/session/log.ts";
import { projectSessionsDir } from "../../src/session/paths.ts";
import { messageProblems } from "../../src/session/validate.ts";
import type { Message } from "../../src/model/types.ts";
import { cliCommand, isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { fakeApiFixture } from "../support/fake-api.ts";

const serve = fakeApiFixture();

const child = (tag: string) => ({
  firstMessage: `^${tag}:`,
  // The child's command outlives the process: it is killed while both run it.
  turns: [{ content: [{ type: "tool_use" as const, name: "bash", input: { command: `sleep 120 # ${tag}` } }] }, { content: [{ type: "text" as const, text: "never" }] }],
});

test("kill -9 while two children run, then --resume: every tool_use has its tool_result", async () => {
  const dir = tempProject();
  const api = await serve({
    turns: [
      {
        content: [
          { type: "tool_use", id: "toolu_k1", name: "agent", input: { description: "one", prompt: "CHILD-K1: wait" } },
          { type: "tool_use", id: "toolu_k2", name: "agent", input: { description: "two", prompt: "CHILD-K2: wait" } },
        ],
      },
    ],
    routes: [child("CHILD-K1"), child("CHILD-K2")],
  });
  const env = isolatedEnv(api.url);
  const proc = Bun.spawn(cliCommand(["-p", "go", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"]), { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  // Killed once both children's bash calls are out (printed under the parent's calls, after the log has them).
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const running = new Set<string>();
  while (running.size < 2) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the run ended before both children ran:\n${text}`);
    text += decoder.decode(value, { stream: true });
    for (const l of parseNdjson(text.slice(0, text.lastIndexOf("\n") + 1)))
      if (l.type === "assistant" && typeof l.parent_tool_use_id === "string" && JSON.stringify(l).includes('"name":"Bash"')) running.add(l.parent_tool_use_id);
  }
  proc.kill("SIGKILL");
  await proc.exited;

  const sessions = projectSessionsDir(dir, env);
  const logs = readdirSync(sessions).filter((n) => n.endsWith(".jsonl"));
  expect(logs.length).toBe(1);
  const id = logs[0]!.replace(/\.jsonl$/, "");
  expect(readdirSync(join(sessions, `${id}.agents`)).filter((n) => n.endsWith(".jsonl")).length).toBe(2);

  const next = await serve({ turns: [{ content: [{ type: "text", text: "RESUMED" }] }] });
  const r = await runCli(["--resume", id, "-p", "where were we?"], { cwd: dir, env: { ...env, ANTHROPIC_BASE_URL: next.url } });
  expect(next.requests.map((q) => q.outcome)).toEqual(["served"]);
  const messages = (next.requests[0]!.body as { messages: Message[] }).messages;
  expect(messageProblems(messages)).toEqual([]);
  const answered = JSON.stringify(messages);
  expect(answered).toContain('"tool_use_id":"toolu_k1"');
  expect(answered).toContain('"tool_use_id":"toolu_k2"');
  expect(r.stdout).toBe("RESUMED\n");
  // Each child's log is whole up to the kill: its prompt, its call.
  for (const n of readdirSync(join(sessions, `${id}.agents`)).filter((x) => x.endsWith(".jsonl"))) {
    const types = readSessionLog(join(sessions, `${id}.agents`, n)).events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(["session_header", "user_message", "assistant_message"]);
  }
});
