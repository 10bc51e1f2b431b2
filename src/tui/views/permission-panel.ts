// The permission panel: what exactly will happen (the command, the diff of an edit, the path of a
// read outside the project), then one key per choice. "Always" shows the rule that will be saved
// and, one key each, where it goes: this session only, the project's local settings file, or the
// user's settings file, so nobody grants more (or for longer) than they read.
import type { Row } from "../render/style.ts";
import { renderDiff } from "./diff-view.ts";
import { cleanText, clipSpans, span, wrapSpans, wrapText } from "./text.ts";
import { ui } from "./theme.ts";

export type AlwaysScope = "session" | "local" | "user";
export type PermissionChoice = "once" | "deny" | "deny_message" | { always: AlwaysScope };

export type PermissionPrompt = {
  toolName: string;
  summary: string;
  reason: string;
  /** What will run or be touched: a command, a path, or nothing (the diff says it). */
  detail?: { label: string; text: string };
  /** A unified diff preview for edits and writes. */
  diff?: string;
  diffPath?: string;
  /** The rule "allow always" saves ("" when no rule can settle this ask: "always" is not offered). */
  alwaysRule: string;
  /** The files "always" writes to, as shown to the user. */
  alwaysFiles: { local: string; user: string };
};

export type PermissionPanelState = {
  prompt: PermissionPrompt;
  /** Typing the message for "deny with a message". */
  message: string | null;
};

export const PERMISSION_KEYS: Record<string, PermissionChoice> = {
  y: "once",
  n: "deny",
  m: "deny_message",
  a: { always: "local" },
  s: { always: "session" },
  u: { always: "user" },
};

/** Diff rows shown in the panel; the panel must leave room for the composer and status line. */
export function renderPermissionPanel(s: PermissionPanelState, width: number, maxRows: number): Row[] {
  const p = s.prompt;
  const rows: Row[] = [];
  rows.push({ spans: clipSpans([span("── ", ui.warn), span("Permission needed", { ...ui.warn, bold: true }), span(` ${"─".repeat(Math.max(0, width))}`, ui.warn)], width) });
  rows.push({ spans: clipSpans([span(cleanText(p.summary), ui.bold)], width, true) });
  if (p.detail) {
    const label = `${p.detail.label}: `;
    const lines = p.detail.text.split("\n");
    const shown = lines.slice(0, 8);
    shown.forEach((line, i) => {
      const prefix = i === 0 ? span(label, ui.dim) : span(" ".repeat(label.length));
      rows.push(...wrapSpans([span(cleanText(line), ui.accent)], width, [prefix], [span(" ".repeat(Math.min(label.length, width - 1)))]));
    });
    if (lines.length > shown.length) rows.push({ spans: [span(`  … ${lines.length - shown.length} more lines`, ui.dim)] });
  }
  const footer = choiceRows(s, width);
  if (p.diff) {
    const room = Math.max(3, maxRows - rows.length - footer.length - 1);
    const diffRows = renderDiff(p.diff, { width, path: p.diffPath });
    if (diffRows.length > room) {
      rows.push(...diffRows.slice(0, room - 1));
      rows.push({ spans: [span(`… ${diffRows.length - room + 1} more rows of diff`, ui.dim)] });
    } else rows.push(...diffRows);
  }
  rows.push(...wrapText(p.reason, width, ui.dim));
  rows.push(...footer);
  return rows.length > maxRows ? [...rows.slice(0, 2), ...rows.slice(rows.length - (maxRows - 2))].slice(0, Math.max(1, maxRows)) : rows;
}

function choiceRows(s: PermissionPanelState, width: number): Row[] {
  if (s.message !== null) {
    return [
      { spans: clipSpans([span("Tell the model why (Enter sends, Esc goes back): ", ui.dim)], width, true) },
      ...wrapSpans([span(cleanText(s.message)), span(" ", ui.cursor)], width, [span("> ", ui.key)], [span("  ")]),
    ];
  }
  const k = (key: string, label: string) => [span(`[${key}]`, ui.key), span(` ${label}`)];
  const rows: Row[] = [{ spans: clipSpans([...k("y", "allow once"), span("   "), ...k("n", "deny"), span("   "), ...k("m", "deny with a message")], width, true) }];
  const { alwaysRule, alwaysFiles } = s.prompt;
  if (!alwaysRule) return rows;
  rows.push(...wrapSpans([span("always allow ", ui.dim), span(cleanText(alwaysRule), ui.accent), span(":", ui.dim)], width, [], [span("  ")]));
  const where = (key: string, label: string, note: string) =>
    wrapSpans([span("  "), ...k(key, label), span(note ? `  ${note}` : "", ui.dim)], width, [], [span("      ")]);
  rows.push(...where("a", `in ${cleanText(alwaysFiles.local)}`, "this project, not committed"));
  rows.push(...where("s", "for this session only", ""));
  rows.push(...where("u", `in ${cleanText(alwaysFiles.user)}`, "every project"));
  return rows;
}
