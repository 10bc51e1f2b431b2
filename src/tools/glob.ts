import { z } from "zod";
import { isAbsolute, join } from "node:path";
import { runRipgrep } from "../workspace/ripgrep.ts";
import { displayPath, fail, localWorkspace, ok } from "./results.ts";
import { SEARCH_TIMEOUT_MS, baseArgs, byMtimeDesc, namesHidden, searchScope } from "./search-scope.ts";
import type { Tool } from "./types.ts";
import description from "./glob.md" with { type: "text" };

export const GLOB_MAX_FILES = 100;

const schema = z.object({
  pattern: z.string().min(1).describe('The glob to match, e.g. "**/*.ts" or "src/**/*.test.js"'),
  path: z.string().optional().describe("The directory to search in (default: the working directory)"),
});
type Input = z.infer<typeof schema>;

export const globTool: Tool<Input> = {
  name: "glob",
  description,
  inputSchema: schema,
  readOnly: true,
  destructive: false,
  summarize: (i) => `glob ${i.pattern}${i.path ? ` in ${i.path}` : ""}`,
  async run(input, ctx) {
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
    const search = (glob: string) =>
      runRipgrep(ws.ripgrepPath(), [...baseArgs(hidden), "--files", "--glob", glob, scope.abs], {
        cwd: ws.cwd,
        timeoutMs: SEARCH_TIMEOUT_MS,
        signal: ctx.signal,
      });
    // Standard glob meaning: a pattern without "/" matches at the top level only ("**/" for any
    // depth). ripgrep would match it at any depth, so anchor it.
    const anchored = pattern.includes("/") ? pattern.replace(/^\.\//, "") : `/${pattern}`;
    let r = await search(anchored);
    let note = "";
    if (r.stdout === "" && !pattern.includes("/") && !r.timedOut) {
      const deep = await search(`**/${pattern}`);
      if (deep.stdout !== "") {
        r = deep;
        note = `No file matched "${pattern}" directly in ${displayPath(ws, scope.abs)}; these match "**/${pattern}" (any depth).\n`;
      }
    }
    if (r.code === 2 && r.stdout === "") return fail(`glob failed: ${r.stderr.trim() || "ripgrep error"}`);
    const files = byMtimeDesc(r.stdout.split("\n").filter(Boolean));
    const where = displayPath(ws, scope.abs);
    if (files.length === 0) {
      return ok(`No files match "${pattern}" in ${where}${r.timedOut ? " (the search timed out; narrow the path)" : ""}. Ignored and hidden files are skipped.`);
    }
    const shown = files.slice(0, GLOB_MAX_FILES).map((f) => displayPath(ws, isAbsolute(f) ? f : join(scope.abs, f)));
    const lines = [note + shown.join("\n")];
    if (files.length > GLOB_MAX_FILES) lines.push(`[${files.length - GLOB_MAX_FILES} more not shown; narrow the pattern or path]`);
    if (r.timedOut || r.truncated) lines.push("[the search stopped early (time or size limit); results are incomplete]");
    return ok(lines.join("\n"));
  },
};
