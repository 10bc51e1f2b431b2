// The promise: kill -9 at any moment, and `--resume` succeeds, shows every completed turn, and
// sends a valid next request. The real CLI (print mode, stream-json with partial messages) runs
// scripted turns with tool calls against the fake Messages API, which rejects any request the real
// API would reject (tool_use/tool_result pairing), and is SIGKILLed after a random number of output
// lines (events are logged before they are printed).
import { describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { DurableEvent } from "../../src/events/types.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { projectSessionsDir } from "../../src/session/paths.ts";
import { messageProblems } from "../../src/session/validate.ts";
import type { Message } from "../../src/model/types.ts";
import { cliCommand, isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { startFakeApi, type ScenarioInput } from "../support/fake-api.ts";
import { seededRandom } from "../support/prng.ts";

// By default one kill after each line the turn prints (2 to the last; 58 for this turn), so every
// moment between two lines is covered once; 100 uniformly random kills, what this ran before, cost
// 100 process starts and covered about 48 of them. CRASH_KILLS=n draws n random moments instead.
const RANDOM_KILLS = process.env.CRASH_KILLS ? Number(process.env.CRASH_KILLS) : null;
const PARALLEL = 2;
const ARGS = ["-p", "--output-format", "stream-json", "--include-partial-messages", "--permission-mode", "bypassPermissions"];

const firstTurn: ScenarioInput = {
  turns: [
    { content: [{ type: "text", text: "Creating the notes file." }, { type: "tool_use", id: "toolu_first_1", name: "bash", input: { command: "echo first > notes.txt" } }] },
    { content: [{ type: "text", text: "FIRST TURN DONE." }] },
  ],
};

// The turn that gets killed: two steps with tool calls (one with two calls), then an answer.
// Tool ids are made unique per run: each fake server would number its own from 0.
const killedTurn = (run: string): ScenarioInput => ({
  pacing: { textChunk: 6 },
  turns: [
    { content: [{ type: "text", text: "Let me add a line and check the file." }, { type: "tool_use", id: `toolu_${run}_1`, name: "bash", input: { command: `echo ${run} >> notes.txt` } }] },
    {
      content: [
        { type: "text", text: "Now two checks at once." },
        { type: "tool_use", id: `toolu_${run}_2`, name: "bash", input: { command: "wc -l notes.txt" } },
        { type: "tool_use", id: `toolu_${run}_3`, name: "bash", input: { command: "tail -1 notes.txt" } },
      ],
    },
    { content: [{ type: "text", text: `TURN ${run} DONE.` }] },
  ],
});


/** Runs the CLI and SIGKILLs it once `killAfter` lines have come out (never, if null). Returns the lines seen. */
async function runAndKill(args: string[], cwd: string, env: Record<string, string>, killAfter: number | null): Promise<number> {
  const proc = Bun.spawn(cliCommand(args), { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let lines = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    lines += decoder.decode(value, { stream: true }).split("\n").length - 1;
    if (killAfter !== null && lines >= killAfter) {
      proc.kill("SIGKILL");
      break;
    }
  }
  await proc.exited;
  return lines;
}


/** The prompts and final answers of the turns that finished, from the log. */
function finishedTurns(events: DurableEvent[]): string[] {
  const out: string[] = [];
  let prompt = "";
  let answer = "";
  for (const e of events) {
    if (e.type === "user_message" && !e.steering && !e.synthetic && typeof e.content === "string") prompt = e.content;
    if (e.type === "assistant_message") answer = e.message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    if (e.type === "turn_end" && e.reason === "finished") out.push(prompt, answer);
  }
  return out;
}

describe("crash and resume", () => {
  // Each run resumes the session the previous run left behind (its first request is the resume
  // being checked) and is itself killed at a random moment: one process per crash and per resume.
  test(`SIGKILL ${RANDOM_KILLS === null ? "after each line" : `at ${RANDOM_KILLS} random moments`} of turns with tool calls; every resume is valid and keeps every completed turn`, async () => {
    const env0 = isolatedEnv(null);
    const project = tempProject();
    const sessionsDir = projectSessionsDir(project, env0);

    // Turn one, completed once: each chain of crashes starts from a copy of it.
    const api1 = await startFakeApi({ scenario: firstTurn });
    const setup = await runCli([...ARGS, "first task: make notes.txt"], { cwd: project, env: { ...env0, ANTHROPIC_BASE_URL: api1.url } });
    await api1.close();
    expect(setup.code).toBe(0);
    const [base] = readdirSync(sessionsDir).filter((n) => n.endsWith(".jsonl"));
    const basePath = join(sessionsDir, base!);

    // How many output lines a whole turn produces: the range of kill moments.
    copyFileSync(basePath, join(sessionsDir, "ca11b000-0000-4000-8000-000000000000.jsonl"));
    const apiC = await startFakeApi({ scenario: killedTurn("calib") });
    const total = await runAndKill([...ARGS, "--resume", "ca11b000", "calibrate"], project, { ...env0, ANTHROPIC_BASE_URL: apiC.url }, null);
    await apiC.close();
    expect(total).toBeGreaterThan(10);

    const rnd = seededRandom(20261130);
    const moments = RANDOM_KILLS === null ? Array.from({ length: total - 1 }, (_, i) => 2 + i) : Array.from({ length: RANDOM_KILLS }, () => 2 + Math.floor(rnd() * (total - 1)));
    const kills = moments.length;
    const failures: string[] = [];
    let crashedMidTurn = 0;
    let finishedBeforeKill = 0;

    /** One run: resume `id`, check the first request, and (unless last) kill at a random moment. */
    const run = async (chain: number, j: number, kill: boolean) => {
      const id = `c${chain}${"0".repeat(7)}`.slice(0, 8);
      const path = join(sessionsDir, `${id}-0000-4000-8000-000000000000.jsonl`);
      const before: DurableEvent[] = readSessionLog(path).events;
      const name = `c${chain}r${j}`;
      const api = await startFakeApi({ scenario: killedTurn(name) });
      // From line 2 on, the first request has been answered: the resume it carries is observable.
      const killAfter = kill ? moments[j * PARALLEL + chain]! : null;
      await runAndKill([...ARGS, "--resume", id, `task ${name}`], project, { ...env0, ANTHROPIC_BASE_URL: api.url }, killAfter);
      await api.close();
      const where = `chain ${chain} run ${j} (killed after ${killAfter ?? "-"}/${total} lines)`;
      const first = api.requests.find((q) => q.path.startsWith("/v1/messages"));
      if (!first) return void failures.push(`${where}: the resumed session sent no request`);
      if (first.status !== 200) return void failures.push(`${where}: the resumed request was rejected: ${first.error}`);
      const messages = (first.body as { messages: Message[] }).messages;
      const problems = messageProblems(messages);
      if (problems.length > 0) return void failures.push(`${where}: ${problems.join("; ")}`);
      const all = JSON.stringify(messages);
      for (const needle of finishedTurns(before)) if (!all.includes(JSON.stringify(needle).slice(1, -1))) failures.push(`${where}: completed turn text missing: ${needle}`);
      for (const e of before) if (e.type === "tool_result" && !all.includes(`"tool_use_id":"${e.toolUseId}"`)) failures.push(`${where}: logged tool result ${e.toolUseId} missing`);
      if (!all.includes(`task ${name}`)) failures.push(`${where}: the new prompt is missing`);
      const after = readSessionLog(path).events;
      if (after.at(-1)?.type === "turn_end") finishedBeforeKill++;
      else crashedMidTurn++;
    };

    const chains = Array.from({ length: PARALLEL }, (_, c) => c);
    await Promise.all(
      chains.map(async (c) => {
        copyFileSync(basePath, join(sessionsDir, `c${c}000000-0000-4000-8000-000000000000.jsonl`));
        // Chain c takes every PARALLEL-th moment: each chain's kills spread over the whole turn.
        const runs = Math.ceil((kills - c) / PARALLEL);
        for (let j = 0; j < runs; j++) await run(c, j, true);
        await run(c, runs, false); // the last crash's resume
      }),
    );
    expect(failures).toEqual([]);
    // The random moments really were spread over the turn.
    expect(crashedMidTurn).toBeGreaterThan(kills / 3);
  }, 120_000);
});
