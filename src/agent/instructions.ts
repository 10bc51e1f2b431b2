// The project's instruction files (AGENTS.md, CLAUDE.md) a session's prompt holds, the main one's
// and each subagent's: only those the Read rules let the model read unasked.
import { loadProjectInstructions, type ProjectInstructions } from "../context/system-prompt.ts";
import type { PermissionEngine } from "../permissions/index.ts";

export function readableInstructions(cwd: string, engine: Pick<PermissionEngine, "decide">, notices: string[]): ProjectInstructions {
  return loadProjectInstructions(cwd, {
    // The Read rules hold for instruction files too: a deny always, and a project file must be one
    // the model could read unasked (not a secret file behind a link).
    mayRead: (real, own) => {
      const d = engine.decide({ tool: "read", input: { file_path: real }, cwd });
      if (d.behavior === "deny" || (!own && d.behavior !== "allow")) return `reading it is not allowed unasked (${d.reason})`;
      return true;
    },
    onSkip: (path, why) => notices.push(`instruction file ${path} skipped: ${why}`),
  });
}
