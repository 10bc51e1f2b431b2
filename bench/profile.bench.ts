// Where the CPU goes while an answer streams: the CLI from source in a pty under Bun's sampling
// profiler (--cpu-prof), the stream bench's answer and schedule, self time summed by phase (which
// source file the sampled function lives in). A second run exits as soon as the session is ready;
// its profile is the start-up, and streaming is the first minus the second. From source, so each
// sample names its file; the compiled binary runs the same code from bytecode.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeApi } from "../src/fakeapi/index.ts";
import { COLS, END_MARK, PACING, ROWS, streamAnswer } from "./stream-fixture.ts";

type Result = { name: string; [k: string]: unknown };
type Node = { id: number; callFrame: { url: string; functionName: string }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** The phase a sampled function belongs to, by its file. */
export function phaseOf(url: string, fn: string): string {
  if (fn === "(garbage collector)") return "gc";
  if (fn === "(idle)") return "";
  if (fn === "(program)" || fn === "(root)") return "runtime (native)";
  if (url.includes("@anthropic-ai/sdk")) return "sdk (SSE parse, stream assembly)";
  if (url.includes("/markdown/highlight")) return "highlighting";
  if (url.includes("string-width") || url.includes("wrap-ansi") || url.includes("strip-ansi") || url.includes("emoji-regex") || url.includes("get-east-asian-width")) return "text width";
  if (url.includes("/src/tui/markdown/")) return "markdown (parse, layout)";
  if (url.includes("/src/tui/transcript/")) return "transcript";
  if (url.includes("/src/tui/render/")) return "cells (diff, styles, width)";
  if (url.includes("/src/tui/screen/")) return "screen (zone, frame, write)";
  if (url.includes("/src/tui/app/") || url.includes("/src/tui/views/")) return "app (live zone, views)";
  if (url.includes("/src/tui/")) return "tui other";
  if (url.includes("/src/model/")) return "model client";
  if (url.includes("/src/events/") || url.includes("/src/session/") || url.includes("/src/agent/") || url.includes("/src/kernel/")) return "session (events, log, kernel)";
  if (url.includes("/src/")) return "khaelor other";
  if (url.includes("node_modules")) return "other packages";
  return "runtime (builtins)";
}

/** Self time in ms (samples) by phase. */
export function byPhase(p: Profile): Record<string, number> {
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out: Record<string, number> = {};
  for (let i = 0; i < p.samples.length; i++) {
    let n = nodes.get(p.samples[i]!);
    if (!n) continue;
    // A native function (write, Intl.Segmenter, a regex) counts for the code that called it.
    if (n.callFrame.functionName !== "(idle)" && n.callFrame.functionName !== "(garbage collector)") {
      let up: Node | undefined = n;
      while (up && !/\/(src|node_modules)\//.test(up.callFrame.url)) up = nodes.get(parent.get(up.id) ?? -1);
      if (up) n = up;
    }
    const ph = phaseOf(n.callFrame.url, n.callFrame.functionName);
    if (!ph) continue; // idle is not CPU
    // JSC samples only while JS runs (a 1 ms interval): a sample is 1 ms on the CPU. The time
    // deltas are wall time and would count the idle gaps before a sample too.
    out[ph] = (out[ph] ?? 0) + 1;
  }
  return out;
}

async function profiled(stream: boolean): Promise<Record<string, number>> {
  const { startPty, idle } = await import("../test/e2e/pty/harness.ts");
  const { isolatedEnv, tempProject } = await import("../test/support/cli.ts");
  const dir = mkdtempSync(join(tmpdir(), "khaelor-prof-"));
  const api = await startFakeApi({ scenario: { pacing: PACING, turns: [{ content: [{ type: "text", text: streamAnswer() }] }] } });
  const saved = process.env.KHAELOR_BIN;
  delete process.env.KHAELOR_BIN;
  const s = startPty([], { cwd: tempProject(), env: isolatedEnv(api.url, { BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` }), cols: COLS, rows: ROWS });
  try {
    await s.waitForText("ask anything", 30_000);
    if (stream) {
      s.type("go\r");
      await s.waitFor((sc) => sc.includes(END_MARK) && idle(sc), "the end of the answer", 60_000);
    }
    s.send("\x04");
    await s.exited;
  } finally {
    s.kill();
    await api.close();
    if (saved !== undefined) process.env.KHAELOR_BIN = saved;
  }
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error("no profile written");
  return byPhase(JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile);
}

export async function run(_opts: { json: boolean }): Promise<Result[]> {
  const all = await profiled(true);
  const start = await profiled(false);
  const phases = new Set([...Object.keys(all), ...Object.keys(start)]);
  const streaming: Record<string, number> = {};
  for (const ph of phases) streaming[ph] = Math.round((all[ph] ?? 0) - (start[ph] ?? 0));
  const sorted = Object.fromEntries(Object.entries(streaming).sort((a, b) => b[1] - a[1]));
  const total = Object.values(streaming).reduce((a, b) => a + b, 0);
  return [
    { name: "profile: CPU ms by phase while the stream bench's answer streams (from source, --cpu-prof, whole run minus start-up)", totalMs: total, ...sorted },
    { name: "profile: CPU ms by phase of start-up to 'ask anything' (from source)", totalMs: Math.round(Object.values(start).reduce((a, b) => a + b, 0)), ...Object.fromEntries(Object.entries(start).map(([k, v]) => [k, Math.round(v)]).sort((a, b) => (b[1] as number) - (a[1] as number))) },
  ];
}
