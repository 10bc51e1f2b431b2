// The YAML frontmatter Claude Code's command and skill files carry: `key: value` lines between
// `---` fences, values plain, quoted, or a [list]. Enough YAML for these files, and no more: a
// file that does not parse is reported with its line, and its body still works.

export type Frontmatter = { data: Record<string, string | string[]>; body: string; problem?: string };

export function parseFrontmatter(text: string): Frontmatter {
  const src = text.replace(/^\uFEFF/, "");
  if (!/^---\r?\n/.test(src)) return { data: {}, body: src };
  const lines = src.split(/\r?\n/);
  const end = lines.findIndex((l, i) => i > 0 && /^---\s*$/.test(l));
  if (end < 0) return { data: {}, body: src, problem: "the frontmatter opened with --- is never closed (no second --- line); read as plain text" };
  const data: Record<string, string | string[]> = {};
  let listKey: string | null = null;
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item && listKey) {
      const prev = data[listKey];
      data[listKey] = [...(Array.isArray(prev) ? prev : []), unquote(item[1]!)];
      continue;
    }
    const m = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (!m) return { data: {}, body: lines.slice(end + 1).join("\n"), problem: `frontmatter line ${i + 1} is not "key: value" (${JSON.stringify(line.slice(0, 60))}); frontmatter ignored` };
    const [, key, raw] = m as unknown as [string, string, string];
    listKey = raw === "" ? key : null;
    if (raw === "") data[key] = [];
    else if (/^\[.*\]$/.test(raw)) data[key] = splitList(raw.slice(1, -1));
    else data[key] = unquote(raw);
  }
  return { data, body: lines.slice(end + 1).join("\n") };
}

function unquote(s: string): string {
  const t = s.trim();
  if ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))) return t.slice(1, -1);
  return t;
}

function splitList(s: string): string[] {
  return s
    .split(",")
    .map(unquote)
    .filter((x) => x !== "");
}

/** A string field, or undefined; a list given where a string was meant is joined. */
export function field(fm: Frontmatter, key: string): string | undefined {
  const v = fm.data[key];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(", ") : v || undefined;
}

/** allowed-tools: a YAML list, or Claude Code's comma-separated string ("Bash(git add:*), Read"). */
export function listField(fm: Frontmatter, key: string): string[] {
  const v = fm.data[key];
  if (v === undefined) return [];
  if (Array.isArray(v)) return v;
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of v) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/**
 * Claude Code's effort levels, as a command's or skill's `effort` names them (src/model/effort.ts
 * has the same list with what each model takes; this folder does not import the model's).
 */
const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;

/** `effort: high`: the level, or a problem naming the file when it is not one. */
export function effortField(fm: Frontmatter, file: string, problems: string[]): string | undefined {
  const v = field(fm, "effort");
  if (v === undefined) return undefined;
  if ((EFFORT_LEVELS as readonly string[]).includes(v)) return v;
  problems.push(`${file}: effort ${v} is not one of ${EFFORT_LEVELS.join(", ")}; the command runs at the session's effort`);
  return undefined;
}
