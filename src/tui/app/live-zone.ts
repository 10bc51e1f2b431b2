// The live zone, a function of the app's state: below what history holds (./history-commit.ts),
// the unsettled transcript, queued messages, the permission panel or the composer and its
// picker, and the status line, never taller than the screen. It reads the state and changes
// nothing; the history commit runs first and gives every live answer its markdown stream.
import { modelInfo } from "../../model/models.ts";
import type { Cursor } from "../screen/screen.ts";
import type { Row } from "../render/style.ts";
import { renderComposer, type ComposerView, type ComposerViewInput } from "../views/composer-view.ts";
import { answerFooter, needsGap, renderEntry } from "../views/entry-view.ts";
import { renderPermissionPanel } from "../views/permission-panel.ts";
import { renderPlanPanel } from "../views/plan-panel.ts";
import { renderPicker } from "../views/picker.ts";
import { renderRetryLine } from "../views/retry-line.ts";
import { renderStatusLine, type StatusInfo } from "../views/status-line.ts";
import { clipSpans, span, wordWrapSpans, wrapSpans, cleanText } from "../views/text.ts";
import { ui } from "../views/theme.ts";
import { renderToolCall, SPINNER } from "../views/tool-row.ts";
import { renderAgentRow } from "../views/agent-row.ts";
import { sessionOf, type AppState } from "./state.ts";
import { searchRow } from "./history-search.ts";

/**
 * `changesAt`: when these rows would look different with nothing else happening (the spinner's
 * next glyph, a running tool's clock, a retry's countdown, a flash's end, the "Working…" line
 * showing), on the app's clock; null when they would not, and then nothing needs scheduling.
 */
export type LiveZone = { rows: Row[]; cursor: Cursor | null; changesAt: number | null };

/** The spinner's glyph changes this often (its glyph is the clock's, `AppState.frameNo`). */
export const SPIN_MS = 100;

/** The live zone for a screen `height` rows tall, at time `now`. */
export function liveZone(state: AppState, view: { height: number; now: number }): LiveZone {
  const width = state.width;
  const maxLive = Math.max(1, view.height - 1);
  const entries = state.transcript.entries;
  const { committed, headRows, headGapDone } = state.committer;
  const top: Row[] = [];
  const now = view.now;
  /** Something drawn moves with the spinner's clock. */
  let animated = false;
  for (let i = committed; i < entries.length; i++) {
    const e = entries[i]!;
    if ((i > committed || !headGapDone) && needsGap(entries[i - 1], e)) top.push({ spans: [] });
    if (e.kind === "assistant") {
      const s = state.committer.stream(e.key);
      if (s) {
        const settled = s.md.settledRows();
        const from = i === committed ? headRows : 0;
        for (let r = from; r < settled.length; r++) top.push(settled[r]!);
        top.push(...s.md.tailRows());
      }
      if (e.done) top.push(...answerFooter(e, width, state.committer.wordWrap));
    } else if (e.kind === "thinking" && !e.done) {
      animated = true;
      top.push({ spans: clipSpans([span(`${SPINNER[state.frameNo % SPINNER.length]} Thinking…`, ui.thinking)], width, true) });
      const lines = e.text.trimEnd().split("\n").slice(-3);
      const wrap = state.committer.wordWrap ? wordWrapSpans : wrapSpans;
      for (const l of lines) top.push(...wrap([span(cleanText(l), ui.thinking)], width, [span("  ")], [span("  ")]).slice(-3));
    } else if (e.kind === "tool") {
      if (e.view.status === "running") animated = true;
      top.push(...renderToolCall(e.view, { width, frame: state.frameNo, now, awaitingAnswer: state.ask?.toolUseId === e.view.id }));
    } else top.push(...renderEntry(e, { width, links: state.links, full: false, wordWrap: state.committer.wordWrap }));
  }
  const background = state.transcript.runningBackground();
  if (background.length > 0) {
    animated = true;
    top.push({ spans: [] });
    top.push({ spans: clipSpans([span(`background agents (${background.length})`, ui.dim)], width, true) });
    for (const a of background) top.push(renderAgentRow(a, { width, glyph: SPINNER[state.frameNo % SPINNER.length] ?? "·", named: true }));
  }
  const retry = state.transcript.retry;
  if (state.busy && !state.ask && retry) {
    // The spinner's frames redraw it, so the countdown moves without a timer of its own.
    animated = true;
    top.push({ spans: [] });
    top.push(renderRetryLine(retry, { width, now, frame: state.frameNo }));
  } else if (state.busy && !state.ask && !hasActiveRow(state, committed) && !justAnswered(state, now)) {
    const label = state.busy.kind === "compact" ? "Compacting…" : "Working…";
    animated = true;
    top.push({ spans: [] });
    top.push({ spans: clipSpans([span(`${SPINNER[state.frameNo % SPINNER.length]} ${label}`, ui.accent), span("  Esc to interrupt", ui.dim)], width, true) });
  }

  const bottom: Row[] = [];
  for (const q of state.queued) bottom.push({ spans: clipSpans([span("  queued: ", ui.queued), span(cleanText(q.split("\n")[0] ?? ""), ui.queued)], width, true) });
  let cursor: { row: number; col: number } | null = null;
  if (state.ask) {
    bottom.push({ spans: [] });
    const room = Math.max(3, maxLive - 2);
    const a = state.ask;
    bottom.push(...(a.plan ? renderPlanPanel(a.plan, { width, maxRows: room, armed: a.panel.armed !== false, links: state.links, typedAhead: a.panel.typedAhead === true }) : renderPermissionPanel(a.panel, width, room)));
  } else {
    bottom.push({ spans: [] });
    if (state.picker) bottom.push(...renderPicker(state.picker, width, Math.min(8, Math.max(1, maxLive - 4))));
    if (state.historySearch) bottom.push(searchRow(state.historySearch, width));
    const composerRows = Math.max(1, Math.min(10, maxLive - bottom.length - 1));
    const v = composerView({
      text: state.composer.text,
      cursor: state.composer.cursor,
      width,
      maxRows: composerRows,
      hint: composerHint(state),
      busy: state.busy !== null,
      shell: state.shellMode === true,
    });
    cursor = { row: bottom.length + v.cursor.row, col: v.cursor.col };
    bottom.push(...v.rows);
  }
  if (state.customStatus && state.ready) bottom.push(clippedStatus(state.customStatus, width));
  bottom.push(statusRow(state, width, now));

  // The live zone never exceeds the screen: the transcript part gives way first (its top rows).
  let rows: Row[];
  if (bottom.length >= maxLive) {
    const cut = bottom.length - maxLive;
    rows = bottom.slice(cut);
    if (cursor) cursor = cursor.row - cut >= 0 ? { row: cursor.row - cut, col: cursor.col } : null;
  } else {
    const roomTop = maxLive - bottom.length;
    const shownTop = top.length > roomTop ? top.slice(top.length - roomTop) : top;
    rows = [...shownTop, ...bottom];
    if (cursor) cursor = { row: shownTop.length + cursor.row, col: Math.min(cursor.col, width - 1) };
  }
  return { rows, cursor, changesAt: changesAt(state, now, animated) };
}

/**
 * The spinner moves only while the agent works and nobody is being asked (nothing moves while the
 * user reads a question); a flash ends at its time; the "Working…" line shows WORKING_AFTER_MS
 * after an answer's last event.
 */
function changesAt(state: AppState, now: number, animated: boolean): number | null {
  const moving = state.busy !== null && state.ask === null;
  let at = moving && animated ? (Math.floor(now / SPIN_MS) + 1) * SPIN_MS : Infinity;
  if (state.hint && state.hint.until > now) at = Math.min(at, state.hint.until);
  if (moving && justAnswered(state, now)) at = Math.min(at, state.lastEventAt + WORKING_AFTER_MS);
  return at === Infinity ? null : at;
}

/**
 * The composer as last drawn and what it was drawn from: while an answer streams it is asked for
 * 20 times a second unchanged, and the same Rows let the screen copy their cells (its RowCache)
 * instead of segmenting the hint's "·" again. The theme is part of the inputs: setTheme replaces
 * the style objects the spans hold.
 */
let lastComposer: { input: ComposerViewInput; theme: object; view: ComposerView } | null = null;

function composerView(input: ComposerViewInput): ComposerView {
  const l = lastComposer;
  if (l && l.theme === ui.cursor && l.input.text === input.text && l.input.cursor === input.cursor && l.input.width === input.width && l.input.maxRows === input.maxRows && l.input.hint === input.hint && l.input.busy === input.busy && l.input.shell === input.shell && l.input.drawCursor === input.drawCursor) return l.view;
  const view = renderComposer(input);
  lastComposer = { input, theme: ui.cursor, view };
  return view;
}

/** What typing does now, said where the user types. */
function composerHint(state: AppState): string {
  // A chooser takes the keys: what is typed filters its list, nothing reaches the composer.
  if (state.picker?.kind === "choose") return "type to filter the list above";
  if (!state.ready) return "starting… type ahead, Enter sends once ready";
  if (state.shellMode) return "shell command · runs in your shell · ! or Backspace leaves shell mode";
  return state.busy ? "type to queue a message · Esc interrupts" : "ask anything · / for commands · @ for files";
}

/**
 * A finished answer usually ends its turn within milliseconds: a "Working…" line shown then would
 * come and go at once, moving the composer and status line down and up again (two repaints, 560
 * bytes: 140 ms over a 4 KB/s link, at the very end of every answer). It shows once nothing has
 * happened for WORKING_AFTER_MS; the spinner's ticks redraw the zone meanwhile.
 */
const WORKING_AFTER_MS = 300;

function justAnswered(state: AppState, now: number): boolean {
  const last = state.transcript.entries[state.transcript.entries.length - 1];
  return last?.kind === "assistant" && last.done && now - state.lastEventAt < WORKING_AFTER_MS;
}

function hasActiveRow(state: AppState, committed: number): boolean {
  const entries = state.transcript.entries;
  for (let i = committed; i < entries.length; i++) {
    const e = entries[i]!;
    // An answer counts while it is the last thing streaming; once a tool call streams after it, the
    // text is finished (it waits only for its message's end) and the "Working…" line shows.
    if (e.kind === "assistant" && !e.done && i === entries.length - 1) return true;
    if ((e.kind === "thinking" && !e.done) || (e.kind === "tool" && e.view.status === "running")) return true;
  }
  return false;
}

export function statusInfo(state: AppState, now: number): StatusInfo {
  const s = sessionOf(state);
  const info = modelInfo(s.model());
  const u = state.transcript.usage;
  const prompt = u.input + u.cacheRead + u.cacheWrite;
  let running = 0;
  try {
    running = s.processes().filter((p) => p.state === "running").length;
  } catch {
    running = 0;
  }
  return {
    model: s.model(),
    mode: s.permissionMode(),
    sandbox: s.sandbox && s.sandbox.state().kind !== "off" ? s.sandbox.label() : null,
    contextTokens: u.lastContext,
    contextWindow: info?.contextWindow ?? null,
    inputTokens: prompt,
    outputTokens: u.output,
    cacheHitRate: prompt > 0 ? u.cacheRead / prompt : null,
    costUsd: info && info.price === null ? null : s.costSoFar(),
    runningProcesses: running,
    gitBranch: state.gitBranch,
    activity: state.hint && state.hint.until > now ? state.hint.text : null,
    vimMode: state.vim?.mode ?? null,
    effort: s.effort?.() ?? null,
  };
}

// The command's line changes a few times a minute; frames come 20 a second while an answer streams.
const clipped = new WeakMap<Row, { width: number; row: Row }>();
function clippedStatus(line: Row, width: number): Row {
  const c = clipped.get(line);
  if (c && c.width === width) return c.row;
  const row = { spans: clipSpans(line.spans, width, true) };
  clipped.set(line, { width, row });
  return row;
}

function statusRow(state: AppState, width: number, now: number): Row {
  if (!state.ready) {
    // The --resume chooser comes before any session: nothing is starting until the user picks one.
    const waiting = state.picker?.kind === "choose" ? "no session open yet" : "starting the session…";
    const note = state.hint && state.hint.until > now ? state.hint.text : waiting;
    return { spans: clipSpans([span(`⏵ ${note}`, ui.dim)], width, true) };
  }
  return renderStatusLine(statusInfo(state, now), width);
}
