// The streamed answer of issue 19's measurement, shared by the stream bench and the slow-link
// bench: an 11,807-byte markdown answer (prose, lists, code, tables) in 6-character deltas 5 ms
// apart (1,968 deltas, ~9.8 s), at 120x40, ending in a marker the harness waits for.
import { readdirSync, readFileSync } from "node:fs";

export const ANSWER_BYTES = 11_807;
export const END_MARK = "END-OF-ANSWER";
export const PACING = { textChunk: 6, delayMs: 5 };
export const COLS = 120;
export const ROWS = 40;

export function streamAnswer(): string {
  const parts: string[] = [];
  for (let i = 0; parts.join("\n").length < ANSWER_BYTES; i++) {
    parts.push(`## Section ${i}\n\nThe parser keeps **settled** blocks frozen while the tail streams; this paragraph is long enough to wrap a few times at eighty columns, with \`inline code\` and a [link](https://example.com/${i}).\n`);
    parts.push(`- item one of ${i}\n- item two with *emphasis*\n- item three\n`);
    parts.push("```ts\nfunction f" + i + "(x: number): number {\n  return x * " + i + ";\n}\n```\n");
    if (i % 5 === 0) parts.push(`| a | b | c |\n|---|---|---|\n| ${i} | ${i * 2} | ${i * 3} |\n`);
  }
  const tail = `\n\n${END_MARK}`;
  return parts.join("\n").slice(0, ANSWER_BYTES - tail.length).trimEnd().padEnd(ANSWER_BYTES - tail.length, " ") + tail;
}

/** CPU seconds (user + system, all threads) a live process has used, from /proc. */
export function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

/**
 * Each live thread's CPU in nanoseconds (the schedulers' run time, /proc/<pid>/task/<tid>/schedstat):
 * for windows where /proc's 10 ms ticks are too coarse (idle). Per thread, because a sum over the
 * threads alive at each end drops when one ends in between (an idle window once read -0.0096 s).
 */
export function procThreadsPreciseNs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]));
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** CPU seconds since `before` of the threads alive now (one that ended in between is not counted). */
export function preciseCpuSinceSeconds(pid: number, before: Map<string, number>): number {
  let ns = 0;
  for (const [tid, t] of procThreadsPreciseNs(pid)) ns += t - (before.get(tid) ?? 0);
  return ns / 1e9;
}

/**
 * CPU seconds each thread of a live process has used, with its kind: the main thread (JavaScript
 * and the event loop), JavaScriptCore's JIT workers, wasm compilation (the "Wasm Worklist Helper
 * Thread"), the garbage collector's helpers, Bun's HTTP client thread, anything else. Profiles of
 * the main thread miss the others, and in issue 19 they were half the TUI's CPU.
 */
export function procThreads(pid: number): ThreadCpu {
  const out: ThreadCpu = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(tid, { kind: threadKind(Number(tid) === pid, name), cpu: (Number(f[11]) + Number(f[12])) / 100 });
  }
  return out;
}

export type ThreadKind = "main" | "jit" | "wasm" | "gc" | "http" | "other";
export type ThreadCpu = Map<string, { kind: ThreadKind; cpu: number }>;
export const threadKinds: readonly ThreadKind[] = ["main", "jit", "wasm", "gc", "http", "other"];

// Linux keeps a thread's name to 15 bytes, the end of "Wasm Worklist Helper Thread" among them.
function threadKind(isMain: boolean, name: string): ThreadKind {
  if (isMain) return "main";
  if (name.startsWith("JIT")) return "jit";
  if (name.includes("Wasm") || name === "t Helper Thread") return "wasm";
  if (name.includes("Heap") || name.includes("scavenger") || name.includes("ollector")) return "gc";
  if (name.startsWith("HTTP")) return "http";
  return "other";
}

/** CPU seconds by kind of thread between two readings (a thread that ended in between is not counted). */
export function threadCpuSince(now: ThreadCpu, before: ThreadCpu): Record<ThreadKind, number> {
  const out = Object.fromEntries(threadKinds.map((k) => [k, 0])) as Record<ThreadKind, number>;
  for (const [tid, t] of now) out[t.kind] += t.cpu - (before.get(tid)?.cpu ?? 0);
  for (const k of threadKinds) out[k] = +out[k].toFixed(2);
  return out;
}

/** A live process's peak RSS in MB (VmHWM). */
export function procPeakRssMB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
