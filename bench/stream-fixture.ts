// The streamed answer of issue 19's measurement, shared by the stream bench and the slow-link
// bench: an 11,807-byte markdown answer (prose, lists, code, tables) in 6-character deltas 5 ms
// apart (1,968 deltas, ~9.8 s), at 120x40, ending in a marker the harness waits for.
import { readFileSync } from "node:fs";

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

/** A live process's peak RSS in MB (VmHWM). */
export function procPeakRssMB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
