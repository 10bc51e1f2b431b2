// Checks ARCHITECTURE.md's "may import" table against the code, so the document cannot drift from
// it silently: every import in src/ must go to its own folder or to one its row lists, a row's
// file list in backticks (`workspace (`safe-read.ts`)`) limits it to those files, "(types)" to
// type-only imports or a types.ts, and there are no import circles.
//   bun run scripts/check-imports.ts      prints the problems; exit 1 when there are any
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";

export type Allowed = { folder: string; files: string[] | null; types: boolean };
/** `all`: may import everything (the composition root); `open`: every folder may import it. */
export type Row = { folders: string[]; all: boolean; open: boolean; allowed: Allowed[] };
export type Import = { from: string; to: string; typeOnly: boolean };

/** The table's rows: each folder's allowed imports. */
export function parseTable(markdown: string): Row[] {
  const rows: Row[] = [];
  for (const line of markdown.split("\n")) {
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.length < 5 || !cells[1]?.startsWith("`src/")) continue;
    const folders = [...cells[1].matchAll(/`src\/([^`]*?)\/?`/g)].map((m) => m[1]!);
    const spec = cells[3]!;
    rows.push({ folders, all: /^everything\b/.test(spec), open: /every folder may import it/.test(spec), allowed: parseAllowed(spec) });
  }
  return rows;
}

function parseAllowed(spec: string): Allowed[] {
  const out: Allowed[] = [];
  for (const part of splitTop(spec)) {
    // "name", "name (`a.ts`, `b.ts`: why)", "name (types)", "name (types, `id.ts`)"; prose names no folder.
    const m = /^(?:.*\s)?([a-z][\w/*-]*)\s*(?:\((.*)\))?$/s.exec(part.trim());
    if (!m) continue;
    const files = m[2] ? [...m[2].matchAll(/`([^`]+\.ts)`/g)].map((f) => f[1]!) : [];
    out.push({ folder: m[1]!, files: files.length > 0 ? files : null, types: /^types\b/.test(m[2]?.trim() ?? "") });
  }
  return out;
}

/** Splits on commas outside parentheses. */
function splitTop(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of s) {
    if (c === "(") depth++;
    if (c === ")") depth--;
    if (c === "," && depth === 0) {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  return [...parts, cur];
}

/** Every import and re-export between files under src/, static and dynamic. */
export function importsOf(srcDir: string): Import[] {
  const out: Import[] = [];
  for (const file of tsFiles(srcDir)) {
    const text = readFileSync(file, "utf8");
    const re = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?(?:[^;"']*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
    for (const m of text.matchAll(re)) {
      const spec = m[3] ?? m[4]!;
      const target = resolve(dirname(file), spec);
      // Our own modules only: not an asset beside them, nor an import written inside a string.
      if (!spec.startsWith(".") || !target.startsWith(srcDir + "/") || !target.endsWith(".ts") || !existsSync(target)) continue;
      out.push({ from: relative(srcDir, file), to: relative(srcDir, target), typeOnly: !!m[2] });
    }
  }
  return out;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** The row a file belongs to: the longest folder of the table that holds it. */
function folderOf(file: string, rows: Row[]): string | null {
  let best: string | null = null;
  for (const f of rows.flatMap((r) => r.folders)) if ((file === f || file.startsWith(`${f}/`)) && (!best || f.length > best.length)) best = f;
  return best;
}

export function checkImports(rows: Row[], imports: Import[]): string[] {
  const problems: string[] = [];
  const rowOf = new Map(rows.flatMap((r) => r.folders.map((f) => [f, r] as const)));
  const unmapped = new Set<string>();
  for (const i of imports) {
    const from = folderOf(i.from, rows);
    const to = folderOf(i.to, rows);
    if (!from) unmapped.add(i.from);
    if (!to) unmapped.add(i.to);
    if (!from || !to || from === to) continue;
    const row = rowOf.get(from)!;
    if (row.all || row.folders.includes(to) || rowOf.get(to)!.open) continue;
    const ok = row.allowed.some((a) => {
      const hit = a.folder === to || (a.folder.endsWith("/*") && to.startsWith(a.folder.slice(0, -1)));
      if (!hit) return false;
      const typed = i.typeOnly || basename(i.to) === "types.ts";
      // `safe-read.ts` names that file in the folder; `git/run-git.ts` one below it.
      const within = a.folder.endsWith("/*") ? basename(i.to) : relative(a.folder, i.to);
      if (a.files) return a.files.includes(within) || (a.types && typed);
      return !a.types || typed;
    });
    if (!ok) problems.push(`src/${i.from} imports src/${i.to}: the row of src/${from}/ does not allow ${to}`);
  }
  for (const f of unmapped) problems.push(`src/${f} is in no row of the table`);
  return [...problems, ...circles(imports)];
}

/** Import circles between files, each reported once (type-only imports included: they are edges to a reader). */
export function circles(imports: Import[]): string[] {
  const edges = new Map<string, string[]>();
  for (const i of imports) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
  const state = new Map<string, "open" | "done">();
  const found: string[] = [];
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    stack.push(n);
    for (const m of edges.get(n) ?? []) {
      if (state.get(m) === "open") found.push(`import circle: ${[...stack.slice(stack.indexOf(m)), m].map((x) => `src/${x}`).join(" → ")}`);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const n of edges.keys()) if (!state.has(n)) visit(n);
  return found;
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, "..");
  const problems = checkImports(parseTable(readFileSync(join(root, "ARCHITECTURE.md"), "utf8")), importsOf(join(root, "src")));
  for (const p of problems) console.log(p);
  console.log(problems.length === 0 ? "ARCHITECTURE.md's import table holds" : `${problems.length} problems`);
  process.exit(problems.length === 0 ? 0 : 1);
}
