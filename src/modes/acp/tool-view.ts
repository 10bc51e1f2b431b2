// How one tool call looks to an ACP client: its kind, the files it touches (locations) and, for an
// edit or a write, the change as old and new text, computed against the file as it is now, the way
// the app's permission panel previews it.
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { applyPatch } from "diff";
import { countInvisibles, invisiblesLine, splitInvisibles } from "../../text/control-chars.ts";
import type { ToolPreview } from "../../tools/types.ts";

const KIND: Record<string, ToolKind> = {
  read: "read",
  write: "edit",
  edit: "edit",
  grep: "search",
  glob: "search",
  bash: "execute",
  process: "execute",
  webfetch: "fetch",
  web_fetch: "fetch",
  web_search: "search",
  tool_search_tool_regex: "search",
};

export function toolKind(name: string): ToolKind {
  return KIND[name] ?? "other";
}

/** Files bigger than this get no diff preview (the client still sees the call and its result). */
const PREVIEW_BYTES = 2_000_000;

type Input = Record<string, unknown>;
const str = (input: Input, k: string) => (typeof input[k] === "string" ? (input[k] as string) : undefined);

export function absPath(input: Input, cwd: string): string | undefined {
  const p = str(input, "file_path") ?? str(input, "path");
  return p === undefined ? undefined : isAbsolute(p) ? p : resolve(cwd, p);
}

export function toolLocations(name: string, input: Input, cwd: string): ToolCallLocation[] {
  const path = absPath(input, cwd);
  if (!path) return [];
  const line = name === "read" && typeof input.offset === "number" ? input.offset : undefined;
  return [{ path, ...(line !== undefined ? { line } : {}) }];
}

export function readText(abs: string): string | null {
  try {
    if (!existsSync(abs) || !statSync(abs).isFile() || statSync(abs).size > PREVIEW_BYTES) return null;
    return readFileSync(abs, "utf8");
  } catch {
    return null;
  }
}

/** A file's text as the agent sees it: the disk, or the editor's buffer when it reads through the editor. */
export type ReadView = (abs: string) => string | null;

/** The change an edit or write is about to make, or null when it cannot be shown. */
export function previewDiff(name: string, input: Input, cwd: string, read: ReadView = readText): ToolCallContent | null {
  const path = absPath(input, cwd);
  if (!path || (name !== "edit" && name !== "write")) return null;
  const before = read(path);
  if (name === "write") {
    const content = str(input, "content");
    return content === undefined ? null : { type: "diff", path, oldText: before, newText: content };
  }
  const oldString = str(input, "old_string");
  const newString = str(input, "new_string") ?? "";
  if (oldString === undefined) return null;
  if (oldString === "") return { type: "diff", path, oldText: before, newText: newString };
  if (before === null) return null;
  const at = before.indexOf(oldString);
  // The edit tool also matches loosely (indentation, whitespace): then show just the two snippets.
  if (at < 0) return { type: "diff", path, oldText: oldString, newText: newString };
  const after = input.replace_all === true ? before.split(oldString).join(newString) : before.slice(0, at) + newString + before.slice(at + oldString.length);
  return { type: "diff", path, oldText: before, newText: after };
}

/**
 * The diff the permission panel shows (the tool's prepared preview: exactly what runs once it is
 * allowed) as ACP's old and new text. Falls back to a preview of our own if it cannot be applied.
 */
export function preparedDiff(name: string, input: Input, cwd: string, root: string, preview: ToolPreview | undefined, read: ReadView = readText): ToolCallContent | null {
  if (preview?.diff) {
    const path = isAbsolute(preview.path) ? preview.path : resolve(root, preview.path);
    const before = read(path);
    const after = applyPatch(before ?? "", preview.diff);
    if (after !== false) return { type: "diff", path, oldText: before, newText: after };
  }
  return previewDiff(name, input, cwd, read);
}

/**
 * What a permission request says of the invisible characters in what it asks (bidi controls,
 * zero-width, tags; src/text/control-chars.ts): "this change contains 2 invisible characters
 * (bidi controls, zero-width): ⟨RLO⟩ ⟨ZWSP⟩", or null when there are none. The editor draws the diff
 * itself and may draw these characters as nothing, as a terminal does. Counted as the app's panel
 * counts: the lines of the prepared diff, else the call's own strings.
 */
export function invisiblesNote(input: Input, preview: ToolPreview | undefined): { text: string; total: number } | null {
  const texts = preview?.diff ? hunkLines(preview.diff) : Object.values(input).filter((v): v is string => typeof v === "string");
  const count = countInvisibles(texts);
  if (count.total === 0) return null;
  const markers = [...new Set(texts.flatMap((t) => splitInvisibles(t).flatMap((p) => ("hidden" in p ? [p.text] : []))))];
  const text = `${invisiblesLine(count, preview?.diff ? "this change" : "this request")}: ${markers.slice(0, 12).join(" ")}${markers.length > 12 ? " …" : ""}`;
  return { text, total: count.total };
}

/** The text of a unified diff's lines inside its hunks (file headers left out, as the app's view does). */
function hunkLines(diff: string): string[] {
  const out: string[] = [];
  let inHunk = false;
  for (const raw of diff.split("\n")) {
    if (raw.startsWith("@@")) inHunk = true;
    else if (inHunk && /^[-+ ]/.test(raw)) out.push(raw.slice(1));
    else if (/^(Index:|===|---|diff )/.test(raw)) inHunk = false;
  }
  return out;
}
