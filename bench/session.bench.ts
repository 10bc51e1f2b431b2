// Session log at scale: write, replay and resume a generated 10,000-event session. Replay runs in
// a fresh child process so its peak RSS (getrusage maxrss) is the resume's, not the bench runner's.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newEventId } from "../src/events/id.ts";
import type { DurableEvent } from "../src/events/types.ts";
import { readSessionLog } from "../src/session/log.ts";
import { replaySession } from "../src/session/replay.ts";
import { createSession, listSessions } from "../src/session/store.ts";

const EVENTS = 10_000;

/**
 * This process's own peak RSS. Not getrusage's maxrss: Linux carries that across execve, so a
 * child spawned by a big bench runner would report the runner's peak. VmHWM belongs to the new
 * address space.
 */
function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) / 1024 : process.resourceUsage().maxRSS / 1024;
}

/** A plausible agent session: turns of 1–6 tool calls, outputs of 200 B – 6 KB, a compaction every ~2,500 events. */
function* generate(count: number, compact = true): Generator<DurableEvent> {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const base = () => ({ id: newEventId(), ts: Date.now() });
  const usage = { input_tokens: 1200, output_tokens: 300, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 800 };
  let n = 0;
  let tool = 0;
  let lastUserId = "";
  while (n < count) {
    const u = { ...base(), type: "user_message" as const, content: `Please fix issue #${n}: the parser drops trailing commas in ${"nested ".repeat(5)}objects.` };
    lastUserId = u.id;
    yield u;
    n++;
    const steps = 1 + Math.floor(rnd() * 6);
    for (let s = 0; s < steps && n < count; s++) {
      const id = `toolu_${++tool}`;
      yield { ...base(), type: "assistant_message", costUsd: 0.004, message: { id: `msg_${n}`, model: "claude-sonnet-5-5", stop_reason: "tool_use", usage, content: [{ type: "text", text: "Let me look at the parser and run the tests again to see what changed." }, { type: "tool_use", id, name: "bash", input: { command: `bun test test/parser/${s}.test.ts` } }] } };
      yield { ...base(), type: "tool_result", toolUseId: id, name: "bash", content: "ok ".repeat(60 + Math.floor(rnd() * 2000)), isError: rnd() < 0.1, kind: "ok", summary: "bash: bun test", durationMs: 800 };
      n += 2;
    }
    yield { ...base(), type: "assistant_message", costUsd: 0.002, message: { id: `msg_${n}`, model: "claude-sonnet-5-5", stop_reason: "end_turn", usage, content: [{ type: "text", text: "Fixed: trailing commas are accepted now, tests pass." }] } };
    yield { ...base(), type: "turn_end", reason: "finished" };
    n += 2;
    if (compact && n % 2500 < 20) {
      yield { ...base(), type: "compaction", summary: "## Objective\nFix the parser.\n## Done\nMany fixes.", firstKeptEventId: lastUserId, tokensBefore: 180_000, tokensAfter: 20_000, trigger: "auto" };
      n++;
    }
  }
}

async function child(path: string) {
  const t0 = performance.now();
  const log = readSessionLog(path);
  const t1 = performance.now();
  const r = replaySession(log.events);
  const t2 = performance.now();
  const messages = r.view.messages();
  const t3 = performance.now();
  const again = r.view.messages();
  const t4 = performance.now();
  process.stdout.write(
    JSON.stringify({ events: log.events.length, readMs: t1 - t0, replayMs: t2 - t1, firstMessagesMs: t3 - t2, messagesMs: t4 - t3, messages: messages.length + again.length * 0, maxRssMb: peakRssMb() }),
  );
}

async function runChild(args: string[]): Promise<Record<string, number>> {
  const p = Bun.spawn([process.execPath, "run", import.meta.path, ...args], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(p.stdout).text();
  await p.exited;
  return JSON.parse(out) as Record<string, number>;
}

export async function run(_opts: { json: boolean }) {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-bench-session-"));
  try {
    const env = { KHAELOR_HOME: join(dir, "home") };
    const cwd = dir;
    const w = createSession({ cwd, model: "claude-sonnet-5-5", permissionMode: "default", env });
    const events = [...generate(EVENTS)];
    const t0 = performance.now();
    for (const e of events) w.append(e);
    w.close();
    const writeMs = performance.now() - t0;
    const bytes = statSync(w.path).size;
    const syncs = events.filter((e) => e.type === "tool_result" || e.type === "turn_end" || e.type === "user_message" || e.type === "compaction").length;

    const w2 = createSession({ cwd, model: "claude-sonnet-5-5", permissionMode: "default", env });
    for (const e of generate(EVENTS, false)) w2.append(e);
    w2.close();

    const baseline = await runChild(["--child-baseline"]);
    const resume = await runChild(["--child", w.path]);
    const uncompacted = await runChild(["--child", w2.path]);
    const l0 = performance.now();
    listSessions(cwd, env);
    const listMs = performance.now() - l0;
    return [
      {
        name: "session: write 10,000 events (one write each, fsync at loop boundaries)",
        events: events.length,
        fsyncs: syncs,
        usPerEvent: Math.round((writeMs * 1000) / events.length),
        logMB: +(bytes / 1e6).toFixed(1),
      },
      {
        name: "session: resume a 10,000-event session (fresh process)",
        readParseMs: Math.round(resume.readMs!),
        replayMs: Math.round(resume.replayMs!),
        messagesMs: +resume.messagesMs!.toFixed(2),
        usPerEventReadAndReplay: +(((resume.readMs! + resume.replayMs!) * 1000) / resume.events!).toFixed(1),
        peakRssMB: Math.round(resume.maxRssMb!),
        baselineRssMB: Math.round(baseline.maxRssMb!),
        messagesInView: resume.messages,
      },
      {
        name: "session: resume the same without compactions (the whole history in the view)",
        readParseMs: Math.round(uncompacted.readMs!),
        replayMs: Math.round(uncompacted.replayMs!),
        messagesMs: +uncompacted.messagesMs!.toFixed(2),
        peakRssMB: Math.round(uncompacted.maxRssMb!),
        messagesInView: uncompacted.messages,
      },
      { name: "session: list 2 sessions (summary cache hit)", ms: +listMs.toFixed(2) },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [flag, path] = process.argv.slice(2);
  if (flag === "--child") await child(path!);
  else if (flag === "--child-baseline") process.stdout.write(JSON.stringify({ maxRssMb: peakRssMb() }));
  else console.log(await run({ json: false }));
}
