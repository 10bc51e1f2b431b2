// What the permission panel shows for one ask: the call's preview, made by its tool. For an edit or
// a write, the diff the tool planned, which is exactly what it writes once allowed (the panel never
// reads the disk); for a command, the command; for a read outside the project, the path.
import { homedir } from "node:os";
import { relative } from "node:path";
import type { AskRequest } from "../../agent/types.ts";
import { ownLocation, settingsLocations, userConfigDir } from "../../permissions/index.ts";
import type { PermissionPrompt } from "../views/permission-panel.ts";
import { trimEndChars } from "../../text/trim-chars.ts";

export function buildPermissionPrompt(req: AskRequest, projectRoot: string): PermissionPrompt {
  const prompt: PermissionPrompt = {
    toolName: req.call.name,
    summary: req.summary,
    reason: req.reason,
    alwaysRule: req.suggestion ? req.suggestion.rules.join(", ") : "",
    alwaysFiles: alwaysFiles(projectRoot),
  };
  if (req.call.name.startsWith("mcp__")) {
    // "server · tool" in the summary; the whole input, as the server will get it, below.
    prompt.summary = `MCP ${req.summary.replace(/ [{[].*$/s, "")}`;
    prompt.detail = { label: "input", text: mcpInput(req.call.input) };
  } else if (req.preview) {
    const { path, diff, detail } = req.preview;
    if (path !== undefined) prompt.diffPath = path;
    if (diff) prompt.diff = diff;
    if (detail) prompt.detail = detail;
    else if (!diff && path !== undefined) prompt.detail = { label: "file", text: path };
  }
  return withoutRepeats(prompt);
}

/**
 * Says each thing once: a summary that ends with the command keeps only what precedes it (the
 * detail shows the command), and a reason that only restates the command or the file ("running
 * `x`", "writing a.txt") is left out; a reason that says more (a rule, outside the project) stays.
 */
function withoutRepeats(p: PermissionPrompt): PermissionPrompt {
  const shown = p.detail?.text ?? "";
  if (shown && !shown.includes("\n") && p.summary.endsWith(shown) && p.summary.length > shown.length) {
    p.summary = trimEndChars(p.summary.slice(0, -shown.length), "\\s:");
  }
  const restated = /^(?:running|writing) `?([^`]*)`?$/.exec(p.reason.trim())?.[1];
  if (restated !== undefined && (restated === shown || restated === p.diffPath || shown.endsWith(restated))) p.reason = "";
  return p;
}

/**
 * The files "allow always" can save to, as the permission engine finds them (agent-session opens
 * it with the default home and config directory): the project's local settings (relative to the
 * project) and the user's (with ~ for the home directory).
 */
export function alwaysFiles(projectRoot: string, home = homedir()): { local: string; user: string } {
  const locs = settingsLocations(projectRoot, userConfigDir(home));
  const local = ownLocation(locs, "local").file;
  const user = ownLocation(locs, "user").file;
  return { local: relative(projectRoot, local) || local, user: user.startsWith(home + "/") ? `~/${user.slice(home.length + 1)}` : user };
}

/** Pretty JSON, cut to a panel's worth (the model's call is in the transcript whole). */
function mcpInput(input: unknown): string {
  const text = JSON.stringify(input ?? {}, null, 2) ?? "{}";
  const lines = text.split("\n");
  const shown = lines.slice(0, 30).map((l) => (l.length > 400 ? `${l.slice(0, 399)}…` : l));
  if (lines.length > 30) shown.push(`… (${lines.length - 30} more lines)`);
  return shown.join("\n");
}
