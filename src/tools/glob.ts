import { z } from "zod";
import { isAbsolute, join } from "node:path";
import { runRipgrep } from "../workspace/ripgrep.ts";
import { answering, displayPath, fail, localWorkspace, ok } from "./results.ts";
import { SEARCH_TIMEOUT_MS, baseArgs, byMtimeDesc, namesHidden, searchScope } from "./search-scope.ts";
import { skippedNotes } from "./search-guard.ts";
import { resolveIn } from "./facts.ts";
import type { SearchSkip, Tool } from "./types.ts";
import description from "./glob.md" with { type: "text" };

export const GLOB_MAX_FILES = 100;

const schema = z.object({
  pattern: z.string().min(1),
  path: z.string().optional(),
});
type Input = z.infer<typeof schema>;

export const globTool: Tool<Input> = {
  name: "glob",
  description,
  inputSchema: schema,
  readOnly: true,
  destructive: false,
  claudeName: "Glob",
  kind: "search",
  insteadOf: "find/ls",
  reach: (i, cwd) => ({ paths: [{ path: resolveIn(cwd, i.path ?? ".") }] }),
  preview: (i) => (i.path ? { detail: { label: "path", text: i.path } } : undefined),
  summarize: (i) => `glob ${i.pattern}${i.path ? ` in ${i.path}` : ""}`,
  async run(input, ctx) {
    const t0 = performance.now();
    const ws = localWorkspace(ctx);
    let pattern = input.pattern;
    let path = input.path;
    // An absolute pattern: search from its longest literal directory.
    if (isAbsolute(pattern)) {
      const segs = pattern.split("/");
      const lit = segs.findIndex((s) => /[*?[{]/.test(s));
      const cut = lit === -1 ? segs.length - 1 : lit;
      path = segs.slice(0, cut).join("/") || "/";
      pattern = segs.slice(cut).join("/");
    }
    const scope = searchScope(ws, path);
    if ("error" in scope) return fail(scope.error);
    if (!scope.isDir) return fail(`${displayPath(ws, scope.abs)} is a file, not a directory: give its directory as path.`);

    const hidden = namesHidden(pattern, path);
    // ripgrep lists the files (honouring .gitignore, .ignore, hidden); the glob is matched here,
    // because a ripgrep --glob would override the ignore rules for the files it names.
    const r = await runRipgrep(ws.ripgrepPath(), [...baseArgs(hidden), "--files", scope.abs], {
      cwd: ws.cwd,
      timeoutMs: SEARCH_TIMEOUT_MS,
      signal: ctx.signal,
    });
    // Names under a denied folder are left out as its contents would be.
    const filter = ctx.searchGuard?.("glob", scope.abs);
    const skipped = new Map<string, SearchSkip>();
    const listed: string[] = [];
    for (const f of r.stdout.split("\n")) {
      const why = f && filter?.active ? filter.skip(f) : null;
      if (why) skipped.set(f, why);
      else if (f) listed.push(f);
    }
    const leftOut = skippedNotes(ws, scope.abs, skipped, "listed").map((n) => `[${n}]`);
    const base = scope.abs.endsWith("/") ? scope.abs : scope.abs + "/";
    const matching = (glob: string) => {
      const g = new Bun.Glob(glob);
      return listed.filter((f) => g.match(f.startsWith(base) ? f.slice(base.length) : f));
    };
    // Standard glob meaning: "*.ts" is the top level only, "**/*.ts" any depth. When the top level
    // has none, the deeper matches are more useful than nothing.
    const clean = pattern.replace(/^\.\//, "");
    let found = matching(clean);
    let note = "";
    if (found.length === 0 && !clean.includes("/")) {
      found = matching(`**/${clean}`);
      if (found.length) note = `No file matched "${pattern}" directly in ${displayPath(ws, scope.abs)}; these match "**/${clean}" (any depth).\n`;
    }
    if (r.code === 2 && r.stdout === "") return fail(`glob failed: ${r.stderr.trim() || "ripgrep error"}`);
    const files = byMtimeDesc(found);
    const where = displayPath(ws, scope.abs);
    const truncated = files.length > GLOB_MAX_FILES || r.timedOut || r.truncated;
    const listedAbs = files.slice(0, GLOB_MAX_FILES).map((f) => (isAbsolute(f) ? f : join(scope.abs, f)));
    // Claude Code's Glob result, as its PostToolUse hooks read it.
    const response = { filenames: listedAbs, numFiles: listedAbs.length, truncated, durationMs: performance.now() - t0 };
    if (files.length === 0) {
      const none = `No files match "${pattern}" in ${where}${r.timedOut ? " (the search timed out; narrow the path)" : ""}. Ignored and hidden files are skipped.`;
      return answering(ok([none, ...leftOut].join("\n")), response);
    }
    const shown = listedAbs.map((f) => displayPath(ws, f));
    const lines = [note + shown.join("\n")];
    if (files.length > GLOB_MAX_FILES) lines.push(`[${files.length - GLOB_MAX_FILES} more not shown; narrow the pattern or path]`);
    if (r.timedOut || r.truncated) lines.push("[the search stopped early (time or size limit); results are incomplete]");
    lines.push(...leftOut);
    return answering(ok(lines.join("\n")), response);
  },
};

