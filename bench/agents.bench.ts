// Subagents in the app (issue 28's bench row), in-process against the fake Messages API over HTTP:
// four children streaming at once cost the terminal only what their rows need (a row changes on a
// child's agent_progress, never per streamed delta: frames and bytes are counted against the deltas),
// and CPU within 1.5x of one child streaming the same total; each running child's RSS. Figures,
// not pass/fail; the machine may be shared, so the ratios are what count.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAgentSession } from "../src/agent/agent-session.ts";
import { parseArgs } from "../src/cli/args.ts";
import { sessionOptions } from "../src/modes/shared/session-options.ts";
import { startFakeApi } from "../src/fakeapi/index.ts";
import type { ScenarioInput } from "../src/fakeapi/index.ts";
import { App } from "../src/tui/app/app.ts";
import { FileFinder } from "../src/tui/app/file-finder.ts";
import { PromptHistory } from "../src/tui/app/history.ts";
import type { FrameStats } from "../src/tui/screen/screen.ts";
import { countingScreen, keepFrames } from "./counting-screen.ts";

type Result = { name: string; [k: string]: unknown };

/** Prose of about `bytes` bytes: what a child streams (the app shows none of it, only its row). */
function prose(bytes: number, tag: string): string {
  const line = `${tag}: the parser keeps settled blocks frozen while the tail streams, and this line is long enough to wrap.\n`;
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

async function withApp<T>(scenario: ScenarioInput, cwd: string | null, fn: (app: App, counts: { bytes: () => number; frames: FrameStats[]; deltas: () => number; progress: () => number }) => Promise<T>): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), "khaelor-bench-home-"));
  process.env.KHAELOR_HOME = join(home, "data");
  const api = await startFakeApi({ scenario });
  const dir = cwd ?? mkdtempSync(join(tmpdir(), "khaelor-bench-proj-"));
  const session = await openAgentSession({ ...sessionOptions(parseArgs([])), permissionMode: "bypassPermissions", ask: async () => ({ allow: true }), api: { baseURL: api.url, apiKey: "sk-ant-bench" }, cwd: dir });
  let deltas = 0;
  let progress = 0;
  session.subscribe((e) => {
    if (e.type === "agent_event" && e.event.type === "text_delta") deltas++;
    if (e.type === "agent_progress") progress++;
  });
  const { screen, bytes } = countingScreen(160, 50);
  const frames = keepFrames(screen);
  let exited = false;
  const app = new App({ session, screen, history: new PromptHistory(null), finder: new FileFinder(dir), links: false, gitBranch: null, reopen: () => Promise.reject(new Error("no")), onPager: () => {}, onExit: () => void (exited = true) });
  app.start([], null);
  try {
    return await fn(app, { bytes, frames, deltas: () => deltas, progress: () => progress });
  } finally {
    if (!exited) await app.exit(0);
    await api.close();
  }
}

/** `n` children each streaming `total / n` bytes, started by one parent message. */
async function streaming(n: number, total: number): Promise<Result> {
  const calls = Array.from({ length: n }, (_, i) => ({ type: "tool_use" as const, id: `toolu_${i}`, name: "agent", input: { description: `child ${i}`, prompt: `CHILD-${i}: stream` } }));
  const scenario: ScenarioInput = {
    pacing: { textChunk: 24, delayMs: 2 },
    turns: [{ content: calls }, { content: [{ type: "text", text: "done" }] }],
    routes: calls.map((_, i) => ({ firstMessage: `^CHILD-${i}:`, turns: [{ content: [{ type: "text", text: prose(Math.floor(total / n), `child ${i}`) }] }] })),
  };
  return withApp(scenario, null, async (app, c) => {
    const b0 = c.bytes();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    app.submit("go");
    while (app.busy) await Bun.sleep(5);
    app.renderNow();
    await Bun.sleep(40);
    const cpu = process.cpuUsage(cpu0);
    return {
      name: `agents: ${n} subagent${n === 1 ? "" : "s"} streaming ${total} bytes in all, at once, in the app at 160x50`,
      childDeltas: c.deltas(),
      progressEvents: c.progress(),
      frames: c.frames.length,
      bytesWritten: c.bytes() - b0,
      bytesPerDelta: +((c.bytes() - b0) / Math.max(1, c.deltas())).toFixed(2),
      cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(3),
      wallSeconds: +((performance.now() - t0) / 1000).toFixed(3),
    };
  });
}

/** RSS before and with `n` children held running (each in a `cat` of a FIFO), each after a collection. */
async function heldRss(n: number): Promise<{ before: number; held: number }> {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-bench-proj-"));
  const fifos = Array.from({ length: n }, (_, i) => join(dir, `gate-${i}`));
  if (n > 0) execFileSync("mkfifo", fifos);
  const calls = fifos.map((_, i) => ({ type: "tool_use" as const, id: `toolu_${i}`, name: "agent", input: { description: `held ${i}`, prompt: `HELD-${i}: wait`, run_in_background: true } }));
  const scenario: ScenarioInput = {
    turns: [{ content: n > 0 ? calls : [{ type: "text", text: "none" }] }, { content: [{ type: "text", text: "started" }] }],
    routes: fifos.map((f, i) => ({ firstMessage: `^HELD-${i}:`, turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: `cat ${f}` } }] }, { content: [{ type: "text", text: "released" }] }] })),
  };
  return withApp(scenario, dir, async (app, c) => {
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    app.submit("go");
    while (app.busy) await Bun.sleep(5);
    while (c.progress() < n * 2) await Bun.sleep(5); // each child: its first message, then its bash call
    Bun.gc(true);
    const held = process.memoryUsage().rss;
    // Blocking: waits for each cat to open its FIFO (a separate process), then lets it end.
    for (const f of fifos) writeFileSync(f, "open\n");
    return { before, held };
  });
}

export async function run(_opts: { json: boolean }): Promise<Result[]> {
  const total = 64_000;
  const one = await streaming(1, total);
  const four = await streaming(4, total);
  const rss = await heldRss(5);
  return [
    one,
    four,
    {
      name: "agents: four at once against one, same total streamed",
      cpuRatio: +((four.cpuSeconds as number) / (one.cpuSeconds as number)).toFixed(2),
      bytesRatio: +((four.bytesWritten as number) / (one.bytesWritten as number)).toFixed(2),
      framesPerDeltaFour: +((four.frames as number) / (four.childDeltas as number)).toFixed(3),
    },
    { name: "agents: RSS per running child (the app's process before the turn, then with 5 children held in a command; after gc)", rssBeforeMB: Math.round(rss.before / 2 ** 20), rssWithFiveMB: Math.round(rss.held / 2 ** 20), perChildMB: +((rss.held - rss.before) / 5 / 2 ** 20).toFixed(2) },
  ];
}
