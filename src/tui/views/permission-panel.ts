// The permission panel: what exactly will happen (the command, the diff of an edit, the path of a
// read outside the project), then one key per choice. "Always" shows the rule that will be saved
// and, one key each, where it goes: this session only, the project's local settings file, or the
// user's settings file, so nobody grants more (or for longer) than they read. Invisible
// characters in any of it show as markers, and a line says how many the change holds; on a short
// terminal that line is the last part given up before the keys (./invisibles.ts).
import { diffLineTexts, renderDiff } from "./diff-view.ts";
import { invisiblesRows, revealSpans } from "./invisibles.ts";
import type { Row, Span } from "../render/style.ts";
import { cleanText, clipSpans, span, spansWidth, wordWrapSpans, wrapSpans, wrapText } from "./text.ts";
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
  /** Not a permission question: the sandbox blocked the command; its keys allow that for the session or run it outside. */
  offer?: { grant: string; outside: boolean };
};

export type PermissionPanelState = {
  prompt: PermissionPrompt;
  /** Typing the message for "deny with a message". */
  message: string | null;
  /** The keys answer (false in the prompt's first moments, while keys typed ahead still go to the composer). */
  armed?: boolean;
  /** Keys typed while the prompt was not armed went to the composer: said until it is answered. */
  typedAhead?: boolean;
};

export const PERMISSION_KEYS: Record<string, PermissionChoice> = {
  y: "once",
  n: "deny",
  m: "deny_message",
  a: { always: "local" },
  s: { always: "session" },
  u: { always: "user" },
};

/** Below this width the choices use their short labels. */
const NARROW = 52;
/** The body (command, diff) gets at least this many rows before the long forms of the other parts. */
const MIN_BODY = 6;

/**
 * The panel in at most `maxRows` rows. What must never be cut is the line of keys: it is laid out
 * first and kept whatever the height. Then, in order, the count of invisible characters (when there
 * are any), the summary, the header, the "always" choices (one line when short of room), the body
 * (command or diff: whatever does not fit ends in a line saying how much more there is and that
 * Ctrl-T shows all of it), the typing note and the reason.
 */
export function renderPermissionPanel(s: PermissionPanelState, width: number, maxRows: number): Row[] {
  const p = s.prompt;
  const budget = Math.max(1, maxRows);
  const choices = s.message !== null ? messageRows(s, width) : keyRows(s, width);
  const always = s.message === null && p.alwaysRule ? { full: alwaysRows(p, width), short: alwaysShortRows(p, width) } : { full: [], short: [] };
  const header: Row[] = [{ spans: clipSpans([span("── ", ui.warn), span(p.offer ? "Blocked by the sandbox" : "Permission needed", { ...ui.warn, bold: true }), span(` ${"─".repeat(Math.max(0, width))}`, ui.warn)], width) }];
  const summary: Row[] = [{ spans: clipSpans(revealSpans(p.summary, ui.bold), width, true) }];
  const hidden = invisiblesNote(p, width);
  const note = s.typedAhead ? wrapText("What you typed meanwhile went to your message, not to these keys.", width, ui.warn) : [];
  const reason = p.reason ? wrapText(p.reason, width, ui.dim) : [];
  const body = permissionBody(p, width);

  // The long forms while the body still gets its rows; the short ones when it would not.
  const variants = [
    { header, summary, note, reason, always: always.full },
    { header, summary, note, reason, always: always.short },
    { header, summary, note, reason: [], always: always.short },
    { header: [], summary, note, reason: [], always: always.short },
  ];
  const fixed = (v: (typeof variants)[number]) => v.header.length + v.summary.length + v.note.length + v.reason.length + v.always.length + hidden.length + choices.length;
  const pick =
    variants.find((v) => budget - fixed(v) >= body.length) ?? variants.find((v) => budget - fixed(v) >= Math.min(MIN_BODY, body.length)) ?? variants[variants.length - 1]!;
  let { header: h, summary: sm, note: nt, reason: rs, always: al } = pick;
  let hd = hidden;
  // Tiny terminals: drop whole parts, least needed first, until the keys fit.
  const over = () => h.length + sm.length + nt.length + rs.length + al.length + hd.length + choices.length - budget;
  if (over() > 0) rs = [];
  if (over() > 0) h = [];
  if (over() > 0) al = [];
  if (over() > 0) nt = [];
  if (over() > 0) sm = [];
  if (over() > 0) hd = [];
  const room = Math.max(0, -over());
  let shown = body;
  if (body.length > room) {
    shown = room > 0 ? [...body.slice(0, room - 1), moreRow(body.length - room + 1, width)] : [];
  }
  const out = [...h, ...sm, ...hd, ...shown, ...rs, ...nt, ...choices, ...al];
  return out.length > budget ? choices.slice(0, budget) : out;
}

/** Everything the prompt is about, uncut: the command or path, then the diff (the pager shows this). */
export function permissionBody(p: PermissionPrompt, width: number): Row[] {
  const rows: Row[] = [];
  if (p.detail) {
    const label = `${p.detail.label}: `;
    p.detail.text.split("\n").forEach((line, i) => {
      const prefix = i === 0 ? span(label, ui.dim) : span(" ".repeat(label.length));
      rows.push(...wrapSpans(revealSpans(line, ui.accent), width, [prefix], [span(" ".repeat(Math.min(label.length, width - 1)))]));
    });
  }
  if (p.diff) rows.push(...renderDiff(p.diff, { width, path: p.diffPath, countLine: false }));
  return rows;
}

/**
 * How many invisible characters what is asked holds: the command or input, the path and the
 * diff's lines. The summary and the "always" rule repeat the path or the command, so are not
 * counted again (their markers still show).
 */
function invisiblesNote(p: PermissionPrompt, width: number): Row[] {
  const texts = [p.detail?.text ?? "", p.diffPath ?? "", ...(p.diff ? diffLineTexts(p.diff) : [])];
  return invisiblesRows(texts, p.diff ? "this change" : "this request", width);
}

/** The whole prompt as the pager shows it (Ctrl-T at the prompt). */
export function renderPermissionFull(p: PermissionPrompt, width: number): Row[] {
  return [
    { spans: clipSpans([span("Permission needed: ", { ...ui.warn, bold: true }), ...revealSpans(p.summary, ui.bold)], width, true) },
    ...invisiblesNote(p, width),
    { spans: [] },
    ...permissionBody(p, width),
    ...(p.reason ? [{ spans: [] }, ...wrapText(p.reason, width, ui.dim)] : []),
    ...(p.alwaysRule ? [{ spans: [] }, ...wrapSpans([span("always allow saves the rule ", ui.dim), ...revealSpans(p.alwaysRule, ui.accent)], width)] : []),
    { spans: [] },
    ...wordWrapSpans([span("Esc goes back to the prompt to answer it.", ui.dim)], width),
  ];
}

function moreRow(n: number, width: number): Row {
  return { spans: clipSpans([span(`… ${n} more row${n === 1 ? "" : "s"} · `, ui.dim), span("Ctrl-T", ui.key), span(" shows it all", ui.dim)], width, true) };
}

type Item = Span[];
const k = (key: string, label: string, armed: boolean): Item => [span(`[${key}]`, armed ? ui.key : ui.dim), span(` ${label}`, armed ? undefined : ui.dim)];

/**
 * Items laid out left to right, a new row when the next one does not fit; none is split. `lead`
 * starts the first row (ending in its own space); the first item goes to a row of its own too when
 * it does not fit after it.
 */
function flow(items: Item[], width: number, lead: Span[] = [], gap = "   ", indent = ""): Row[] {
  const rows: Row[] = [];
  let cur: Span[] = lead.slice();
  let w = spansWidth(cur);
  let empty = true;
  for (const it of items) {
    const iw = spansWidth(it);
    if (empty && lead.length > 0 && rows.length === 0 && w + iw > width && cur.length > 0) {
      // The lead's own trailing space has nothing to separate any more.
      rows.push({ spans: clipSpans(cur.at(-1)?.text.trim() === "" ? cur.slice(0, -1) : cur, width, true) });
      cur = indent ? [span(indent)] : [];
      w = indent.length;
    }
    if (!empty && w + gap.length + iw > width) {
      rows.push({ spans: clipSpans(cur, width, true) });
      cur = indent ? [span(indent)] : [];
      w = indent.length;
      empty = true;
    }
    if (!empty) {
      cur.push(span(gap));
      w += gap.length;
    }
    cur.push(...it);
    w += iw;
    empty = false;
  }
  rows.push({ spans: clipSpans(cur, width, true) });
  return rows;
}

function keyRows(s: PermissionPanelState, width: number): Row[] {
  const armed = s.armed !== false;
  const narrow = width < NARROW;
  const offer = s.prompt.offer;
  if (offer) {
    const items = [k("g", narrow ? "allow, run again" : `${offer.grant}, run again`, armed), ...(offer.outside ? [k("o", narrow ? "run outside" : "run it once outside the sandbox", armed)] : []), k("n", narrow ? "keep" : "keep the failure", armed)];
    return flow(items, width, [], narrow ? "  " : "   ");
  }
  return flow([k("y", narrow ? "allow" : "allow once", armed), k("n", "deny", armed), k("m", narrow ? "say why" : "deny with a message", armed)], width, [], narrow ? "  " : "   ");
}

function messageRows(s: PermissionPanelState, width: number): Row[] {
  return [
    ...wordWrapSpans([span("Tell the model why (Enter sends, Esc goes back): ", ui.dim)], width),
    ...wrapSpans([span(cleanText(s.message ?? "")), span(" ", ui.cursor)], width, [span("> ", ui.key)], [span("  ")]),
  ];
}

// The rule and the places it can be saved wrap between words, so a path or a note is never cut
// mid-word at narrow widths ("settings.local.json  t" / "his project").
function alwaysRows(p: PermissionPrompt, width: number): Row[] {
  const rows = wordWrapSpans([span("always allow ", ui.dim), ...revealSpans(p.alwaysRule, ui.accent), span(":", ui.dim)], width, [], [span("  ")]);
  const where = (key: string, label: string, note: string) => wordWrapSpans([...k(key, label, true), span(note ? `  ${note}` : "", ui.dim)], width, [span("  ")], [span("      ")]);
  rows.push(...where("a", `in ${cleanText(p.alwaysFiles.local)}`, "this project, not committed"));
  rows.push(...where("s", "for this session only", ""));
  rows.push(...where("u", `in ${cleanText(p.alwaysFiles.user)}`, "every project"));
  return rows;
}

function alwaysShortRows(p: PermissionPrompt, width: number): Row[] {
  const lead = wordWrapSpans([span("always allow ", ui.dim), ...revealSpans(p.alwaysRule, ui.accent), span(":", ui.dim)], width, [], [span("  ")]);
  // The keys follow the rule on its last row when they fit there, else on rows of their own.
  const last = lead.pop()!;
  return [...lead, ...flow([k("a", "project", true), k("s", "session", true), k("u", "all projects", true)], width, [...last.spans, span(" ")], "  ", "  ")];
}
