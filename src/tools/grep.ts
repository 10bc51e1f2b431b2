import { z } from "zod";
import { isAbsolute, join } from "node:path";
import { runRipgrep } from "../workspace/ripgrep.ts";
import { fitToBudget } from "./output-budget.ts";
import { answering, displayPath, fail, localWorkspace, ok, withNotes } from "./results.ts";
import { hideFromSearch, matchedLeftOut, skippedNotes } from "./search-guard.ts";
import { SEARCH_TIMEOUT_MS, baseArgs, byMtimeDesc, namesHidden, searchScope } from "./search-scope.ts";
import { resolveIn } from "./facts.ts";
import type { Tool } from "./types.ts";
import description from "./grep.md" with { type: "text" };

export const GREP_MAX_FILES = 100;
export const GREP_MAX_LINES = 250;
const MAX_COLUMNS = 500;

const int = () => z.number().int().min(0);
const schema = z.object({
  pattern: z.string().min(1),
  path: z.string().optional().describe("File or directory (default: the working directory)"),
  glob: z.string().optional(),
  type: z.string().optional(),
  output_mode: z.enum(["content", "files_with_matches", "count"]).optional(),
  "-i": z.boolean().optional().describe("Ignore case"),
  "-n": z.boolean().optional().describe("Line numbers (default true)"),
  "-A": int().optional().describe("Lines after each match"),
  "-B": int().optional().describe("Lines before each match"),
  "-C": int().optional().describe("Lines around each match"),
  head_limit: z.number().int().min(1).optional().describe("At most this many lines or files"),
  multiline: z.boolean().optional().describe("Patterns span lines; . matches newlines"),
});
type Input = z.infer<typeof schema>;

export const grepTool: Tool<Input> = {
  name: "grep",
  description,
  inputSchema: schema,
  readOnly: true,
  destructive: false,
  claudeName: "Grep",
  kind: "search",
  insteadOf: "grep/rg",
  reach: (i, cwd) => ({ paths: [{ path: resolveIn(cwd, i.path ?? ".") }] }),
  preview: (i) => (i.path ? { detail: { label: "path", text: i.path } } : undefined),
  summarize: (i) => `grep ${JSON.stringify(i.pattern)}${i.path ? ` in ${i.path}` : ""}${i.glob ? ` (${i.glob})` : ""}`,
  async run(input, ctx) {
    const ws = localWorkspace(ctx);
    const scope = searchScope(ws, input.path);
    if ("error" in scope) return fail(scope.error);
    const mode = input.output_mode ?? "files_with_matches";
    // Which files the search covers; a single file was judged whole by the permission check.
    const selection = [...baseArgs(namesHidden(input.path, input.glob)), ...(input.glob ? ["--glob", input.glob] : []), ...(input.type ? ["--type", input.type] : [])];
    const hiding = scope.isDir ? await hideFromSearch(ws, ctx, "grep", scope.abs, selection) : null;
    const args = ["--color=never", "--with-filename", `--max-columns=${MAX_COLUMNS}`, "--max-columns-preview"];
    const matching = [...(input["-i"] ? ["-i"] : []), ...(input.multiline ? ["-U", "--multiline-dotall"] : [])];
    args.push(...matching);
    if (mode === "files_with_matches") args.push("--files-with-matches");
    // A NUL after each path, so a path is told apart from the line after it whatever it contains.
    else if (mode === "count") args.push("--count", "--null");
    else {
      // numbers always, to tell matches (`12:`) from context (`12-`); dropped again if not wanted
      args.push("--null", "-n");
      if (input["-C"] !== undefined) args.push("-C", String(input["-C"]));
      if (input["-A"] !== undefined) args.push("-A", String(input["-A"]));
      if (input["-B"] !== undefined) args.push("-B", String(input["-B"]));
    }
    args.push("-e", input.pattern);

    const run = (prefix: string[], paths: string[]) => runRipgrep(ws.ripgrepPath(), [...prefix, ...args, "--", ...paths], { cwd: hiding?.cwd ?? ws.cwd, timeoutMs: SEARCH_TIMEOUT_MS, signal: ctx.signal });
    const r = await run([...selection, ...(hiding?.excludeArgs ?? [])], [scope.abs]);
    if (r.code === 2 && r.stdout === "") {
      const msg = r.stderr.trim();
      if (/regex parse error|unrecognized|unclosed|repetition/i.test(msg)) {
        return fail(`Invalid regex ${JSON.stringify(input.pattern)}: ${msg.split("\n").slice(-3).join(" ").trim()}. Escape special characters (\\( \\{ \\.) to match them literally.`);
      }
      if (/unrecognized file type/i.test(msg)) return fail(`${msg} (ripgrep --type-list shows the known types; or use glob instead).`);
      return fail(`grep failed: ${msg || "ripgrep error"}`);
    }
    const where = displayPath(ws, scope.abs);
    const keep = hiding ? hiding.keep : () => true;
    let stdout = r.stdout;
    if (hiding) {
      // files left out by name that hold a match: named if reading them asks, else searched now (`.env.example`)
      const searchable = await matchedLeftOut(ws, ctx, hiding, scope.abs, selection, [...matching, "-e", input.pattern]);
      if (searchable.length > 0) stdout += (await run(baseArgs(true), searchable)).stdout;
    }
    const results = parseResults(stdout, mode, input["-n"] !== false).filter((x) => x.path === null || keep(x.path));
    const hidden = hiding ? skippedNotes(ws, scope.abs, hiding.skipped, "searched") : [];
    if (!results.some((x) => x.path !== null)) {
      const none = `No matches for ${JSON.stringify(input.pattern)} in ${where}${r.timedOut ? " (the search timed out; narrow the path or glob)" : ""}.`;
      const { text, display } = withNotes(none, hidden, hidden);
      return answering(ok(text, display), mode === "content" ? { mode, content: "", numLines: 0, filenames: [], numFiles: 0 } : { mode, filenames: [], numFiles: 0 });
    }
    // Paths relative to the project, as everywhere else.
    const absOf = (p: string) => (isAbsolute(p) ? p : join(ws.cwd, p));
    const rel = (p: string) => displayPath(ws, absOf(p));

    let lines: string[];
    let files: string[] = [];
    let unit: string;
    let limit: number;
    if (mode === "files_with_matches") {
      files = byMtimeDesc(results.map((x) => x.path as string));
      lines = files.map(rel);
      unit = "files";
      limit = input.head_limit ?? GREP_MAX_FILES;
    } else {
      if (mode === "count") files = results.flatMap((x) => (x.path === null ? [] : [x.path]));
      lines = withoutStraySeparators(results).map((x) => (x.path === null ? x.rest : rel(x.path) + x.rest));
      unit = mode === "count" ? "files" : "lines";
      limit = input.head_limit ?? (mode === "count" ? GREP_MAX_FILES : GREP_MAX_LINES);
    }
    const shown = lines.slice(0, limit);
    // The model's notes, and the user's without the advice on how to search next.
    const notes: string[] = [];
    const userNotes: string[] = [];
    const note = (said: string, advice = "") => {
      userNotes.push(said);
      notes.push(said + advice);
    };
    if (mode === "count") note(`${results.reduce((n, x) => n + Number(x.rest.slice(1) || 0), 0)} matches in ${lines.length} files`);
    if (lines.length > limit) note(`${lines.length - limit} more ${unit} not shown`, "; narrow the search (path, glob, type) or raise head_limit");
    if (r.timedOut) note("the search timed out, so results are incomplete; narrow the path or glob");
    if (r.truncated) note("the search produced too much output and was stopped; narrow it");
    for (const h of hidden) note(h);
    const { text, display } = withNotes(shown.join("\n"), notes, userNotes);
    // Past the budget the middle is cut; the notes stay at the end, after what the user sees.
    const fitted = fitToBudget(text, ws.spill, "grep").text;
    const trailer = text.slice(display.body);
    const result = ok(fitted, fitted === text ? display : { ...display, body: fitted.endsWith(trailer) ? fitted.length - trailer.length : fitted.length });
    // Claude Code's Grep result, as its PostToolUse hooks read it.
    const filenames = files.slice(0, limit).map(absOf);
    return answering(result, mode === "content" ? { mode, content: shown.join("\n"), numLines: shown.length, filenames: [], numFiles: 0 } : { mode, filenames, numFiles: filenames.length });
  },
};

/** One output line: the file it is from (null for a `--` between context groups) and the rest as shown after the path. */
type ResultLine = { path: string | null; rest: string };

function parseResults(stdout: string, mode: "content" | "files_with_matches" | "count", numbers: boolean): ResultLine[] {
  const out: ResultLine[] = [];
  for (const line of stdout.split("\n")) {
    if (line === "") continue;
    if (mode === "files_with_matches") {
      out.push({ path: line, rest: "" });
      continue;
    }
    const nul = line.indexOf("\0");
    if (nul === -1) {
      out.push({ path: null, rest: line });
      continue;
    }
    const path = line.slice(0, nul);
    const rest = line.slice(nul + 1);
    const numbered = mode === "content" ? /^(\d+)([:-])/.exec(rest) : null;
    if (!numbered) out.push({ path, rest: `:${rest}` });
    else {
      const [lead, n, sep] = numbered as unknown as [string, string, string];
      out.push({ path, rest: sep + (numbers ? n + sep : "") + rest.slice(lead.length) });
    }
  }
  return out;
}

/** Drops `--` separators left at the ends or doubled where a file's lines were left out. */
function withoutStraySeparators(lines: ResultLine[]): ResultLine[] {
  const out: ResultLine[] = [];
  for (const x of lines) if (x.path !== null || (out.length > 0 && out[out.length - 1]!.path !== null)) out.push(x);
  if (out.length > 0 && out[out.length - 1]!.path === null) out.pop();
  return out;
}
