// Ctrl-R: reverse incremental search through the prompt history, as in bash and Claude Code.
// Typing narrows the search (the newest prompt containing the text, this project's first, then
// other projects'), Ctrl-R again goes to the next older match, Enter takes the match into the
// composer to edit or send, Esc (or Ctrl-C, Ctrl-G) leaves with the draft as it was. The composer
// shows the match while searching; a row above it shows the search.
import type { Row } from "../render/style.ts";
import { clipSpans, cleanText, span } from "../views/text.ts";
import { ui } from "../views/theme.ts";
import type { AppState, HistorySearch } from "./state.ts";
import type { InputEvent, Key } from "./app-input.ts";
import type { HistorySearchAction } from "./keybindings.ts";
import { runBound } from "./keymap.ts";

/** Smart case: a query with a capital letter matches case; an all-lowercase one ignores it. */
export function matches(text: string, query: string): boolean {
  if (query === "") return true;
  return /[A-Z]/.test(query) ? text.includes(query) : text.toLowerCase().includes(query.toLowerCase());
}

/** The first entry at or after `from` that matches, or -1. */
export function findMatch(list: ReadonlyArray<{ text: string }>, query: string, from: number): number {
  for (let i = Math.max(0, from); i < list.length; i++) if (matches(list[i]!.text, query)) return i;
  return -1;
}

export function openHistorySearch(state: AppState): void {
  const c = state.composer;
  state.picker = null;
  state.historySearch = { query: "", draft: c.text, draftCursor: c.cursor, at: -1, list: state.history.searchList() };
}

function show(state: AppState, s: HistorySearch): void {
  const c = state.composer;
  const m = s.list[s.at];
  if (m) {
    const i = s.query ? m.text.toLowerCase().indexOf(s.query.toLowerCase()) : m.text.length;
    c.setText(m.text, i >= 0 ? i : m.text.length);
  } else c.setText(s.draft, s.draftCursor);
}

function close(state: AppState, restore: boolean): void {
  const s = state.historySearch;
  state.historySearch = null;
  if (s && restore) state.composer.setText(s.draft, s.draftCursor);
}

/**
 * A key or text while the search is open; true when it was the search's. A key the search does
 * not know (an arrow, Tab) takes the match and goes on to the composer.
 */
export function historySearchInput(state: AppState, ev: { type: "text"; text: string } | { type: "paste"; text: string } | Key): boolean {
  const s = state.historySearch;
  if (!s) return false;
  if (ev.type === "text" || ev.type === "paste") {
    s.query += ev.text.replace(/[\r\n]+/g, " ");
    s.at = findMatch(s.list, s.query, 0);
    show(state, s);
    return true;
  }
  const k = (ev.ctrl ? "C-" : "") + (ev.alt ? "M-" : "") + ev.name;
  if (k === "C-r") {
    // Again: the next older match; with none further, the match stays (bash's "failing" search).
    const next = s.query === "" && s.at < 0 ? findMatch(s.list, "", 0) : findMatch(s.list, s.query, s.at + 1);
    if (next >= 0) s.at = next;
    show(state, s);
    return true;
  }
  if (k === "backspace") {
    s.query = s.query.slice(0, -1);
    s.at = s.query === "" ? -1 : findMatch(s.list, s.query, 0);
    show(state, s);
    return true;
  }
  if (k === "escape" || k === "C-c" || k === "C-g") {
    close(state, true);
    return true;
  }
  if (k === "enter") {
    // Taken, not sent: it is in the composer to be read, edited, then sent with Enter.
    close(state, s.at < 0);
    return true;
  }
  close(state, s.at < 0);
  return false;
}

/** Claude Code's HistorySearch actions a keybindings file may put on any key, each the handler of KHAELOR's own key for it. */
const SEARCH_ACTIONS: { readonly [A in HistorySearchAction]: (state: AppState, s: HistorySearch) => void } = {
  "historySearch:next": (state, s) => void historySearchInput(state, { type: "key", name: "r", ctrl: true, alt: false, shift: false }),
  "historySearch:accept": (state, s) => close(state, s.at < 0),
  "historySearch:cancel": (state) => close(state, true),
};

/** The user's keybindings while the search is open; true when the key was theirs. */
export function historySearchBinding(state: AppState, actions: { flash(text: string): void }, ev: InputEvent): boolean {
  const s = state.historySearch;
  if (!s) return false;
  return runBound(state.keys, ["HistorySearch"], ev, actions, (action) => {
    if (action in SEARCH_ACTIONS) SEARCH_ACTIONS[action as HistorySearchAction](state, s);
  });
}

/** The row above the composer while searching: the query, where the match is from, the keys. */
export function searchRow(s: HistorySearch, width: number): Row {
  const m = s.list[s.at];
  const state = s.query === "" && !m ? "type to search" : m ? (m.here ? "" : "from another project") : "no match";
  return {
    spans: clipSpans(
      [span("history search: ", ui.accentBold), span(cleanText(s.query), ui.bold), span(state ? `  ${state}` : "", m ? ui.dim : ui.warn), span("  · Ctrl-R older · Enter takes · Esc leaves", ui.dim)],
      width,
      true,
    ),
  };
}
