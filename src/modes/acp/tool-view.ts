// How one tool call looks to an ACP client, from its tool's facts: its kind, the files it touches
// (locations) and, for an edit or a write, the change its tool planned as old and new text: the
// file's text before and exactly the text run() writes, as the app's permission panel shows it.
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { countInvisibles, invisiblesLine, splitInvisibles } from "../../text/control-chars.ts";
import type { ToolFacts, ToolPreview } from "../../tools/types.ts";

/** The API's own tools (it runs them; no tool of ours declares them). */
const SERVER_KIND: Record<string, ToolKind> = {
  web_fetch: "fetch",
  web_search: "search",
  tool_search_tool_regex: "search",
};

export function toolKind(facts: ToolFacts | undefined, name: string): ToolKind {
  return facts?.kind ?? SERVER_KIND[name] ?? "other";
}

/** Changes bigger than this are not sent as a diff (the client still sees the call and its result). */
const PREVIEW_CHARS = 2_000_000;

type Input = Record<string, unknown>;

export function toolLocations(facts: ToolFacts | undefined): ToolCallLocation[] {
  return (facts?.paths ?? []).map((p) => ({ path: p.path, ...(p.line !== undefined ? { line: p.line } : {}) }));
}

/** The change an edit or a write will make, as its tool planned it, or null when it has none to show. */
export function plannedDiff(preview: ToolPreview | undefined): ToolCallContent | null {
  const c = preview?.change;
  if (!c || c.after.length + (c.before?.length ?? 0) > PREVIEW_CHARS) return null;
  return { type: "diff", path: c.path, oldText: c.before, newText: c.after };
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
