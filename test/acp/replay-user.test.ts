// session/load replays what the user did as the user did it: a `!` command as its command and its
// output (not dropped), /review as typed (not the prompt made from it); and print mode resumes a
// session that ends with a `!` command without calling it a crash, the output reaching the model
// with the next prompt.
import { expect, test } from "bun:test";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { startFakeApi } from "../../src/fakeapi/server.ts";
import { writeSession } from "../export/support.ts";
import { assistant, text as textBlock, turnEnd, user } from "../session/make-events.ts";
import { shellMessage } from "../../src/events/user-shell.ts";
import { initialize, startAgent, text } from "./client.ts";

test("a resumed session with a ! command: ACP's session/load shows it, print mode sends its output with the next prompt", async () => {
  const fake = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "ANSWER" }] }] } as never });
  const env = isolatedEnv(fake.url);
  const dir = tempProject();
  const s = writeSession(dir, { KHAELOR_HOME: env.KHAELOR_HOME! }, [
    user("the long review prompt with the diff", { display: "/review main" }),
    assistant([textBlock("Looks fine.")]),
    turnEnd(),
    user(shellMessage({ command: "git status", stdout: "On branch ```main```\n", stderr: "", exitCode: 0 }), { synthetic: "shell", shell: { runId: "r1", command: "git status", exitCode: 0, durationMs: 4 } }),
  ]);

  const b = startAgent(dir, env);
  await b.run(async (ctx) => {
    await initialize(ctx);
    await ctx.request("session/load", { sessionId: s.id, cwd: dir, mcpServers: [] });
  });
  await b.proc.exited;
  expect(text(b.updates, "user_message_chunk")).toBe("/review main! git status\n````\nOn branch ```main```\n````");

  const r = await runCli(["-p", "--resume", s.id, "what now?"], { cwd: dir, env });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("ANSWER");
  expect(r.stderr).not.toContain("stopped unexpectedly");
  const last = JSON.stringify((fake.requests[0]!.body as { messages: unknown[] }).messages.at(-1));
  expect(last).toContain("<bash-input>git status</bash-input>");
  expect(last).toContain("what now?");
  await fake.close();
}, 60_000);
