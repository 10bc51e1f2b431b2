// The plan approval panel: the plan the model presents (exit_plan_mode), laid out as markdown, the
// file it is kept in, and a chooser of what follows. As Claude Code's choosers: Up/Down move the
// marked row (❯ and bold), Enter takes it, and each row's number takes it at once. "Keep planning"
// opens a line for the feedback the model gets back. The chooser is laid out first and never cut;
// the plan gives way, ending in a line saying how much more there is (Ctrl-T shows it all).
import { renderMarkdown } from "../markdown/index.ts";
import type { Row } from "../render/style.ts";
import { cleanText, clipSpans, span, wordWrapSpans, wrapSpans, wrapText } from "./text.ts";
import { ui } from "./theme.ts";

export type PlanChoice = "accept" | "review" | "clear" | "keep";

export const PLAN_CHOICES: ReadonlyArray<{ choice: PlanChoice; label: string }> = [
  { choice: "accept", label: "Yes, and accept edits" },
  { choice: "review", label: "Yes, and review each edit" },
  { choice: "clear", label: "Yes, clear the context and implement it in a new session (accepts edits)" },
  { choice: "keep", label: "No, keep planning: tell the model what to change" },
];

export type PlanPanelState = {
  plan: string;
  /** The plan file as shown (~ for the home directory). */
  file: string;
  selected: number;
  /** Typing the feedback for "keep planning"; null while choosing. */
  feedback: string | null;
};

/** The plan's rows at this width: the markdown as the transcript lays it out. */
export function planRows(plan: string, width: number, links: boolean): Row[] {
  return renderMarkdown(plan, { width: Math.max(10, width), links });
}

/** The panel in at most `maxRows` rows; `armed` false dims the choices (keys typed just before it go to the composer). */
export function renderPlanPanel(s: PlanPanelState, o: { width: number; maxRows: number; armed: boolean; links: boolean; typedAhead?: boolean }): Row[] {
  const { width } = o;
  const header: Row = { spans: clipSpans([span("── ", ui.accent), span("Plan ready for review", { ...ui.accent, bold: true }), span(` ${"─".repeat(Math.max(0, width))}`, ui.accent)], width) };
  const file = wrapSpans([span("plan file: ", ui.dim), span(cleanText(s.file), ui.accent)], width);
  const choices = s.feedback !== null ? feedbackRows(s.feedback, width) : chooserRows(s, width, o.armed);
  const note = o.typedAhead ? wrapText("What you typed meanwhile went to your message, not to these keys.", width, ui.warn) : [];
  const fixed = 1 + file.length + 1 + note.length + choices.length;
  const body = planRows(s.plan, width, o.links);
  const room = Math.max(0, o.maxRows - fixed);
  const shown = body.length <= room ? body : room > 0 ? [...body.slice(0, room - 1), moreRow(body.length - room + 1, width)] : [];
  const out = [header, ...file, ...shown, { spans: [] }, ...note, ...choices];
  return out.length > o.maxRows ? choices.slice(-Math.max(1, o.maxRows)) : out;
}

function chooserRows(s: PlanPanelState, width: number, armed: boolean): Row[] {
  const rows: Row[] = wordWrapSpans([span("Would you like to proceed?", ui.bold)], width);
  PLAN_CHOICES.forEach((c, i) => {
    const sel = i === s.selected;
    const style = !armed ? ui.dim : sel ? ui.bold : undefined;
    rows.push(...wordWrapSpans([span(`${i + 1}. ${c.label}`, style)], width, [span(sel ? "❯ " : "  ", sel ? ui.accentBold : undefined)], [span("     ")]));
  });
  rows.push(...wordWrapSpans([span("↑↓ move · Enter takes · 1-4 · Ctrl-T shows the whole plan · Esc stops the agent", ui.dim)], width));
  return rows;
}

function feedbackRows(text: string, width: number): Row[] {
  return [
    ...wordWrapSpans([span("Tell the model what to change (Enter sends, Esc goes back):", ui.dim)], width),
    ...wrapSpans([span(cleanText(text)), span(" ", ui.cursor)], width, [span("> ", ui.key)], [span("  ")]),
  ];
}

function moreRow(n: number, width: number): Row {
  return { spans: clipSpans([span(`… ${n} more row${n === 1 ? "" : "s"} of the plan · `, ui.dim), span("Ctrl-T", ui.key), span(" shows it all", ui.dim)], width, true) };
}
