// "did you mean src/app.ts?": when a path does not exist, look for what the model probably meant:
// a sibling with a close name, or a file with the same name elsewhere in the project.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { LocalWorkspace } from "../workspace/types.ts";
import { displayPath } from "./results.ts";

export function editDistance(a: string, b: string, cap = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

const stem = (name: string) => name.replace(/\.[^.]+$/, "").toLowerCase();

/** Up to `max` existing paths close to `abs`, for a "did you mean" line. */
export function suggestPaths(ws: LocalWorkspace, abs: string, max = 3): string[] {
  const out: string[] = [];
  const name = basename(abs);
  // Walk up to the nearest directory that exists, so "src/compnents/app.ts" still finds siblings.
  let dir = dirname(abs);
  while (!existsSync(dir) && dir !== dirname(dir)) dir = dirname(dir);
  try {
    const scored = readdirSync(dir)
      .map((entry) => {
        const lower = entry.toLowerCase();
        let score = editDistance(lower, name.toLowerCase(), 3);
        if (stem(entry) === stem(name)) score = Math.min(score, 1);
        return { entry, score };
      })
      .filter((s) => s.score <= Math.max(2, Math.floor(name.length / 4)))
      .sort((a, b) => a.score - b.score);
    for (const s of scored.slice(0, max)) out.push(displayPath(ws, join(dir, s.entry)));
  } catch {}
  if (out.length < max && name.length > 0) {
    // The same or a close file name anywhere in the project (ripgrep honours .gitignore; bounded).
    const r = spawnSync(ws.ripgrepPath(), ["--files", "--no-config", ws.root], { encoding: "utf8", timeout: 2000, maxBuffer: 8 << 20 });
    const lower = name.toLowerCase();
    const cap = Math.max(1, Math.floor(name.length / 4));
    const found = (r.stdout ?? "")
      .split("\n")
      .filter((line) => line && line !== abs)
      .map((line) => {
        const b = basename(line).toLowerCase();
        const score = b === lower ? 0 : stem(b) === stem(lower) ? 1 : editDistance(b, lower, cap);
        return { line, score };
      })
      .filter((s) => s.score <= cap)
      .sort((a, b) => a.score - b.score || a.line.length - b.line.length);
    for (const f of found) {
      const p = displayPath(ws, f.line);
      if (!out.includes(p)) out.push(p);
      if (out.length >= max) break;
    }
  }
  return out;
}

export function didYouMean(ws: LocalWorkspace, abs: string): string {
  const s = suggestPaths(ws, abs);
  return s.length ? ` Did you mean ${s.join(" or ")}?` : "";
}
