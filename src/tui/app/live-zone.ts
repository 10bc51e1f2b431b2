// Each frame: commit to history what has settled, then lay out the live zone below it (the
// unsettled transcript, queued messages, the permission panel or the composer and its picker, the
// status line), never taller than the screen. See app.ts for when entries count as settled.
import { modelInfo } from "../../model/models.ts";
import { createMarkdownStream, type MarkdownStream } from "../markdown/index.ts";
import type { Row } from "../render/style.ts";
import { renderComposer } from "../views/composer-view.ts";
import { answerFooter, needsGap, renderEntry } from "../views/entry-view.ts";
import { renderPermissionPanel } from "../views/permission-panel.ts";
import { renderPicker } from "../views/picker.ts";
import { renderRetryLine } from "../views/retry-line.ts";
import { renderStatusLine, type StatusInfo } from "../views/status-line.ts";
import { clipSpans, span, wrapSpans, cleanText } from "../views/text.ts";
import { ui } from "../views/theme.ts";
import { renderToolCall, SPINNER } from "../views/tool-row.ts";
import type { App } from "./app.ts";
import { isSettled, type Entry } from "../transcript/entry.ts";

/** Commits what has settled, then sets the live zone. `final`: everything is history now. */
export function layout(app: App, final: boolean): void {
  const width = app.width;
  const entries = app.transcript.entries;
  const out: Row[] = [];
  while (app.committed < entries.length) {
    const e = entries[app.committed]!;
    const prev = entries[app.committed - 1];
    const streaming = e.kind === "assistant" && (!e.done || app.streams.has(e.key));
    if (!final && !streaming && (!isSettled(e) || app.grammars.holds(e))) break;
    if (!app.headGapDone && needsGap(prev, e)) out.push({ spans: [] });
    app.headGapDone = true;
    if (e.kind === "assistant" && streaming) {
      const s = streamFor(app, e, final);
      // Done means all of it reached the stream (a fence may still wait for its grammar).
      const done = final || (e.done && s.fed === e.text.length);
      if (done) s.md.finish();
      const settled = s.md.settledRows();
      for (let i = app.headRows; i < settled.length; i++) out.push(settled[i]!);
      app.headRows = settled.length;
      if (!done) break;
      out.push(...answerFooter(e, width));
      app.streams.delete(e.key);
    } else {
      out.push(...renderEntry(e, { width, links: app.deps.links, full: false }));
    }
    app.committed++;
    app.headRows = 0;
    app.headGapDone = false;
  }
  if (out.length) app.screen.commit(out);
  if (final) return;
  setLive(app, width);
}

function streamFor(app: App, e: Extract<Entry, { kind: "assistant" }>, all = false): { md: MarkdownStream; fed: number } {
  let s = app.streams.get(e.key);
  if (!s) {
    s = { md: createMarkdownStream({ width: app.width, links: app.deps.links }), fed: 0 };
    app.streams.set(e.key, s);
  }
  if (s.fed < e.text.length) {
    const limit = all ? e.text.length : app.grammars.feedLimit(e.text, s.fed);
    if (limit > s.fed) {
      s.md.append(e.text.slice(s.fed, limit));
      s.fed = limit;
    }
  }
  return s;
}

function setLive(app: App, width: number): void {
  const height = app.screen.rows;
  const maxLive = Math.max(1, height - 1);
  const entries = app.transcript.entries;
  const top: Row[] = [];
  const now = app.now();
  for (let i = app.committed; i < entries.length; i++) {
    const e = entries[i]!;
    if ((i > app.committed || !app.headGapDone) && needsGap(entries[i - 1], e)) top.push({ spans: [] });
    if (e.kind === "assistant") {
      const s = streamFor(app, e);
      const settled = s.md.settledRows();
      const from = i === app.committed ? app.headRows : 0;
      for (let r = from; r < settled.length; r++) top.push(settled[r]!);
      top.push(...s.md.tailRows());
      if (e.done) top.push(...answerFooter(e, width));
    } else if (e.kind === "thinking" && !e.done) {
      top.push({ spans: clipSpans([span(`${SPINNER[app.frameNo % SPINNER.length]} Thinking…`, ui.thinking)], width, true) });
      const lines = e.text.trimEnd().split("\n").slice(-3);
      for (const l of lines) top.push(...wrapSpans([span(cleanText(l), ui.thinking)], width, [span("  ")], [span("  ")]).slice(-3));
    } else if (e.kind === "tool") {
      top.push(...renderToolCall(e.view, { width, frame: app.frameNo, now, awaitingAnswer: app.ask?.toolUseId === e.view.id }));
    } else top.push(...renderEntry(e, { width, links: app.deps.links, full: false }));
  }
  const retry = app.transcript.retry;
  if (app.busy && !app.ask && retry) {
    // The spinner's frames redraw it, so the countdown moves without a timer of its own.
    top.push({ spans: [] });
    top.push(renderRetryLine(retry, { width, now, frame: app.frameNo }));
  } else if (app.busy && !app.ask && !hasActiveRow(app)) {
    const label = app.busy.kind === "compact" ? "Compacting…" : "Working…";
    top.push({ spans: [] });
    top.push({ spans: clipSpans([span(`${SPINNER[app.frameNo % SPINNER.length]} ${label}`, ui.accent), span("  Esc to interrupt", ui.dim)], width, true) });
  }

  const bottom: Row[] = [];
  for (const q of app.queued) bottom.push({ spans: clipSpans([span("  queued: ", ui.queued), span(cleanText(q.split("\n")[0] ?? ""), ui.queued)], width, true) });
  let cursor: { row: number; col: number } | null = null;
  if (app.ask) {
    bottom.push({ spans: [] });
    const room = Math.max(3, maxLive - 2);
    bottom.push(...renderPermissionPanel(app.ask.panel, width, room));
  } else {
    bottom.push({ spans: [] });
    if (app.picker) bottom.push(...renderPicker(app.picker, width, Math.min(8, Math.max(1, maxLive - 4))));
    const composerRows = Math.max(1, Math.min(10, maxLive - bottom.length - 1));
    const v = renderComposer({
      text: app.composer.text,
      cursor: app.composer.cursor,
      width,
      maxRows: composerRows,
      hint: composerHint(app),
      busy: app.busy !== null,
    });
    cursor = { row: bottom.length + v.cursor.row, col: v.cursor.col };
    bottom.push(...v.rows);
  }
  bottom.push(statusRow(app, width));

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
  app.screen.setLive(rows, cursor);
}

/** What typing does now, said where the user types. */
function composerHint(app: App): string {
  // A chooser takes the keys: what is typed filters its list, nothing reaches the composer.
  if (app.picker?.kind === "choose") return "type to filter the list above";
  if (!app.ready) return "starting… type ahead, Enter sends once ready";
  return app.busy ? "type to queue a message · Esc interrupts" : "ask anything · / for commands · @ for files";
}

function hasActiveRow(app: App): boolean {
  const entries = app.transcript.entries;
  for (let i = app.committed; i < entries.length; i++) {
    const e = entries[i]!;
    // An answer counts while it is the last thing streaming; once a tool call streams after it, the
    // text is finished (it waits only for its message's end) and the "Working…" line shows.
    if (e.kind === "assistant" && !e.done && i === entries.length - 1) return true;
    if ((e.kind === "thinking" && !e.done) || (e.kind === "tool" && e.view.status === "running")) return true;
  }
  return false;
}

export function statusInfo(app: App): StatusInfo {
  const s = app.session;
  const info = modelInfo(s.model());
  const u = app.transcript.usage;
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
    contextTokens: u.lastContext,
    contextWindow: info?.contextWindow ?? null,
    inputTokens: prompt,
    outputTokens: u.output,
    cacheHitRate: prompt > 0 ? u.cacheRead / prompt : null,
    costUsd: info && info.price === null ? null : s.costSoFar(),
    runningProcesses: running,
    gitBranch: app.gitBranch,
    activity: app.hint && app.hint.until > app.now() ? app.hint.text : null,
  };
}

function statusRow(app: App, width: number): Row {
  if (!app.ready) {
    // The --resume chooser comes before any session: nothing is starting until the user picks one.
    const waiting = app.picker?.kind === "choose" ? "no session open yet" : "starting the session…";
    const note = app.hint && app.hint.until > app.now() ? app.hint.text : waiting;
    return { spans: clipSpans([span(`⏵ ${note}`, ui.dim)], width, true) };
  }
  return renderStatusLine(statusInfo(app), width);
}
