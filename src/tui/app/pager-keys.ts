// The transcript pager (Ctrl-T): what it pages through, and its keys (less-like, with / search).
import { entryText } from "../transcript/entry.ts";
import { needsGap, renderEntry } from "../views/entry-view.ts";
import { TranscriptPager, type PagerSource } from "../views/pager.ts";
import type { Screen } from "../screen/screen.ts";
import type { AppActions } from "./actions.ts";
import type { InputEvent } from "./app-input.ts";
import type { AppState } from "./state.ts";
import { dirname, resolve } from "node:path";
import { currentBranch } from "../../session/branch.ts";
import type { AgentView } from "../transcript/entry.ts";
import { Transcript } from "../transcript/transcript.ts";
import type { TranscriptAction } from "./keybindings.ts";
import { runBound } from "./keymap.ts";

/** Claude Code's Transcript actions a keybindings file may put on any key, each what KHAELOR's own key for it does. */
const PAGER_ACTIONS: { readonly [A in TranscriptAction]: (pager: TranscriptPager, actions: AppActions) => void } = {
  "transcript:exit": (_, actions) => actions.closePager(),
  "scroll:lineUp": (p) => p.scrollBy(-1),
  "scroll:lineDown": (p) => p.scrollBy(1),
  "scroll:pageUp": (p) => p.pageUp(),
  "scroll:pageDown": (p) => p.pageDown(),
  "scroll:fullPageUp": (p) => p.pageUp(),
  "scroll:fullPageDown": (p) => p.pageDown(),
  "scroll:halfPageUp": (p) => p.scrollBy(-Math.max(1, Math.floor(p.height / 2))),
  "scroll:halfPageDown": (p) => p.scrollBy(Math.max(1, Math.floor(p.height / 2))),
  "scroll:top": (p) => p.home(),
  "scroll:bottom": (p) => p.end(),
};

/** The pager on the alternate screen (drawn by the caller): the transcript, from its latest entry, or a permission prompt, from its top. */
export function openPagerView(st: AppState, screen: Screen, source: PagerSource | undefined, opts: { title?: string; ofPrompt?: boolean }): NonNullable<AppState["pager"]> {
  const ofPrompt = opts.ofPrompt === true;
  const view = screen.openFullView();
  const agents = pageableAgents(st).length;
  const title = opts.title ?? (ofPrompt ? "permission prompt" : agents > 0 ? `transcript · a: subagents (${agents})` : "transcript");
  const pager = new TranscriptPager(source ?? transcriptSource(st), screen.cols, screen.rows, title);
  if (ofPrompt) pager.home();
  else pager.end();
  return { view, pager, ofPrompt };
}

export function transcriptSource(state: AppState): PagerSource {
  return sourceOf(() => state.transcript, state.committer.wordWrap);
}

/**
 * `a` in the transcript pager: the next subagent's whole conversation (in the order they started),
 * after the last one the session's own transcript again.
 */
function nextAgent(state: AppState): void {
  const open = state.pager!;
  const t = state.transcript;
  const views = pageableAgents(state);
  if (views.length === 0) {
    open.pager.message = "no subagent ran in this session";
    return;
  }
  const at = open.agentId ? views.findIndex((v) => v.agentId === open.agentId) : -1;
  const next = views[at + 1];
  const { width, height } = open.pager;
  if (!next) {
    delete open.agentId;
    open.pager = new TranscriptPager(transcriptSource(state), width, height, `transcript · a: subagents (${views.length})`);
  } else {
    open.agentId = next.agentId;
    const child = childTranscript(state, next);
    const title = `subagent ${at + 2}/${views.length}: ${next.type} · ${next.description} · ${next.status} · a: next`;
    open.pager = new TranscriptPager(sourceOf(() => child, state.committer.wordWrap), width, height, title);
  }
  open.pager.end();
}

/** The subagents the pager can show: seen live, or ended in a resumed log that names theirs. */
function pageableAgents(state: AppState): AgentView[] {
  const t = state.transcript;
  return t.agents().filter((v) => t.children.has(v.agentId) || (v.logPath !== null && state.session?.agentConversation !== undefined));
}

/** A child's conversation: as seen live, or read back from its log once (a resumed session). */
function childTranscript(state: AppState, v: AgentView): Transcript {
  const t = state.transcript;
  const seen = t.children.get(v.agentId);
  if (seen) return seen;
  const child = new Transcript();
  const session = state.session;
  const events = v.logPath && session?.agentConversation ? session.agentConversation(resolve(dirname(session.logPath), v.logPath)) : null;
  if (events) child.applyAll(currentBranch(events));
  else child.notice(`This agent's log could not be read (${v.logPath ?? "no log"}).`, "warn");
  t.children.set(v.agentId, child);
  return child;
}

function sourceOf(t: () => Transcript, wordWrap: boolean): PagerSource {
  return {
    count: () => t().entries.length,
    text: (i) => {
      const e = t().entries[i];
      return e ? entryText(e) : "";
    },
    layout: (i, width) => {
      const entries = t().entries;
      const e = entries[i];
      if (!e) return [];
      const rows = renderEntry(e, { width, links: false, full: true, wordWrap });
      return needsGap(entries[i - 1], e) ? [{ spans: [] }, ...rows] : rows;
    },
  };
}

export function pagerInput(state: AppState, actions: AppActions, ev: InputEvent): void {
  const { pager } = state.pager!;
  // Typed ahead, several keys arrive as one text event: each is a command here.
  if (ev.type === "text" && !pager.search?.editing && ev.text.length > 1) {
    for (const ch of ev.text) if (state.pager) pagerInput(state, actions, { type: "text", text: ch });
    return;
  }
  const s = pager.search;
  if (s?.editing) {
    if (ev.type === "text" || ev.type === "paste") s.query += ev.text.replace(/[\r\n]+/g, " ");
    else if (ev.type === "key" && ev.name === "backspace") s.query = s.query.slice(0, -1);
    else if (ev.type === "key" && ev.name === "enter") pager.runSearch(s.query);
    else if (ev.type === "key" && (ev.name === "escape" || (ev.ctrl && ev.name === "c"))) pager.search = null;
    return;
  }
  if (ev.type === "wheel") {
    pager.scrollBy(ev.delta * 3);
    return;
  }
  if (ev.type === "paste") return;
  if (runBound(state.keys, ["Transcript"], ev, actions, (action) => PAGER_ACTIONS[action as TranscriptAction]?.(pager, actions))) return;
  const name = ev.type === "text" ? ev.text : ev.ctrl ? `C-${ev.name}` : ev.name;
  pager.message = null;
  switch (name) {
    case "escape":
    case "q":
    case "C-t":
    case "C-c":
      actions.closePager();
      return;
    case "up":
    case "k":
      pager.scrollBy(-1);
      break;
    case "down":
    case "j":
    case "enter":
      pager.scrollBy(1);
      break;
    case "pageup":
    case "b":
    case "C-b":
      pager.pageUp();
      break;
    case "pagedown":
    case " ":
    case "space":
    case "C-f":
      pager.pageDown();
      break;
    case "home":
    case "g":
      pager.home();
      break;
    case "end":
    case "G":
      pager.end();
      break;
    case "a":
      if (!state.pager!.ofPrompt) nextAgent(state);
      break;
    case "/":
      pager.startSearch();
      break;
    case "n":
      pager.nextMatch(1);
      break;
    case "N":
      pager.nextMatch(-1);
      break;
  }
}
