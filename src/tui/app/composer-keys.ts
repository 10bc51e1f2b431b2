// Keys while the composer has the keyboard: editing, history, the slash/file picker and the
// choosers (/model, /resume, /permissions), Ctrl-C, Esc and Shift-Tab. Functions of (state,
// actions, event): they change the state (./state.ts) and ask for effects (submit, interrupt,
// exit) through the actions (./actions.ts).
import type { PermissionMode } from "../../events/types.ts";
import { movePicker } from "../views/picker.ts";
import type { AppActions, ChooserItem, ChooserOptions } from "./actions.ts";
import type { InputEvent, Key } from "./app-input.ts";
import { mentionAt } from "./file-finder.ts";
import { vimInput } from "./vim-keys.ts";
import { historySearchBinding, historySearchInput, openHistorySearch } from "./history-search.ts";
import type { AutocompleteAction, ChatAction } from "./keybindings.ts";
import { runBound } from "./keymap.ts";
import { shellModeInput } from "./shell-mode.ts";
import { DOUBLE_ESC_MS, openRewind } from "./rewind-chooser.ts";
import { manyImagesProblem } from "../../model/images.ts";
import { completeSlash, isKnownCommand, looksLikeCommand, type SlashCommand } from "./slash-commands.ts";
import { sessionOf, type AppState, type Picker } from "./state.ts";

const MODES: PermissionMode[] = ["default", "acceptEdits", "plan"];

/**
 * A chooser (/model, /resume, /permissions) owns the keyboard while it is open: typing filters
 * it, Enter takes the selection, Esc clears the filter or, with none, closes it. Nothing reaches the composer behind it, so text
 * typed ahead ("/model⏎/sessions⏎") is never glued into a message.
 */
function chooserInput(state: AppState, actions: AppActions, ev: InputEvent, p: Extract<Picker, { kind: "choose" }>): void {
  if (ev.type === "wheel") return;
  // "/" before any filter starts another command: the chooser steps aside (typed ahead,
  // "/model⏎/sessions⏎" runs both commands).
  if (ev.type === "text" && !p.query && ev.text.startsWith("/")) {
    state.picker = null;
    p.onCancel?.();
    composerInput(state, actions, ev);
    return;
  }
  if (ev.type === "text" || ev.type === "paste") {
    filterChooser(state, p, (p.query ?? "") + ev.text.replace(/[\r\n]+/g, " "));
    return;
  }
  const k = (ev.ctrl ? "C-" : "") + ev.name;
  if (p.toggle && k === p.toggle.key) {
    // Another view of the same chooser (/resume: this project or all): the filter typed stays.
    const next = p.toggle.next();
    p.title = next.title;
    p.all = next.items;
    p.search = next.search;
    filterChooser(state, p, p.query ?? "");
  } else if (k === "up" || k === "C-p") movePicker(p, -1);
  else if (k === "down" || k === "C-n") movePicker(p, 1);
  else if (k === "backspace") filterChooser(state, p, (p.query ?? "").slice(0, -1));
  else if ((k === "escape" || k === "C-c") && p.query) {
    // A filter is undone first: leaving (which quits the --resume chooser) takes a second press.
    filterChooser(state, p, "");
  } else if (k === "escape" || k === "C-c") {
    state.picker = null;
    p.onCancel?.();
  } else if (k === "enter" || k === "tab") {
    const item = p.items[p.selected];
    if (item) acceptPick(state, actions, p, item.value, true);
    else actions.flash(`nothing matches "${p.query ?? ""}": Backspace edits the filter, Esc closes`);
  }
}

function filterChooser(state: AppState, p: Extract<Picker, { kind: "choose" }>, query: string): void {
  const q = query.toLowerCase();
  p.query = query;
  p.items = !q ? p.all.slice() : p.search ? p.search(query) : p.all.filter((i) => `${i.label} ${i.detail ?? ""}`.toLowerCase().includes(q));
  p.selected = 0;
}

/** A chooser whose items changed on their own (a search that read more logs): the filter typed and the item picked stay. */
/** A chooser over the composer; `opts.watch` refreshes it (its items change underneath) until it closes. */
export function openChooser(
  state: AppState,
  app: { requestRender(): void },
  c: { title: string; items: ChooserItem[]; onPick: (v: string) => void; onCancel?: () => void; opts: ChooserOptions },
): void {
  const p: Extract<Picker, { kind: "choose" }> = { kind: "choose", title: c.title, items: c.items.slice(), all: c.items, selected: 0, onPick: c.onPick, onCancel: c.onCancel, query: "", ...c.opts };
  state.picker = p;
  const watch = c.opts.watch;
  if (!watch) return;
  const stop = watch(() => {
    if (state.picker !== p) return stop();
    refreshChooser(p);
    app.requestRender();
  });
}

export function refreshChooser(p: Extract<Picker, { kind: "choose" }>): void {
  const picked = p.items[p.selected]?.value;
  if (p.search) p.all = p.search("");
  const q = p.query ?? "";
  p.items = !q ? p.all.slice() : p.search ? p.search(q) : p.all.filter((i) => `${i.label} ${i.detail ?? ""}`.toLowerCase().includes(q.toLowerCase()));
  const at = picked === undefined ? -1 : p.items.findIndex((i) => i.value === picked);
  p.selected = at === -1 ? 0 : at;
}

export function composerInput(state: AppState, actions: AppActions, ev: InputEvent): void {
  const c = state.composer;
  if (ev.type !== "wheel") state.lastTypedAt = actions.now();
  if (state.picker?.kind === "choose") {
    chooserInput(state, actions, ev, state.picker);
    return;
  }
  if (ev.type === "text" || ev.type === "paste") state.ctrlCAt = 0;
  if (state.historySearch && ev.type !== "wheel" && historySearchBinding(state, actions, ev)) return;
  if (ev.type !== "wheel" && historySearchInput(state, ev)) return;
  if (ev.type !== "wheel" && shellModeInput(state, ev)) {
    afterEdit(state, actions);
    return;
  }
  if (vimInput(state, actions, ev)) return;
  if (userBinding(state, actions, ev)) return;
  if (ev.type === "paste" || (ev.type === "text" && mayBeDroppedPath(ev.text))) {
    // A dragged file arrives as its path (bracketed, or as a burst where the terminal does not bracket).
    const r = actions.pastedImages(ev.text);
    if (r?.ok) {
      for (const image of r.images) c.attachImage(image);
      afterEdit(state, actions);
      return;
    }
    if (r) state.transcript.notice(`${r.reason} The path stays in the prompt as text.`, "warn");
  }
  if (ev.type === "text") {
    c.insert(ev.text);
    afterEdit(state, actions);
    return;
  }
  if (ev.type === "paste") {
    c.paste(ev.text);
    afterEdit(state, actions);
    return;
  }
  if (ev.type === "wheel") return;
  if (ev.name !== "c" || !ev.ctrl) state.ctrlCAt = 0;
  if (pickerKey(state, actions, ev)) return;
  const { name, ctrl, alt, shift } = ev;
  const k = (ctrl ? "C-" : "") + (alt ? "M-" : "") + (shift ? "S-" : "") + name;
  const edit = EDIT_KEYS.get(k);
  if (edit) {
    edit(c);
    afterEdit(state, actions);
    return;
  }
  COMMAND_KEYS.get(k)?.(state, actions);
}

type Composer = AppState["composer"];

/** Keys that edit the text; the pickers then follow it (afterEdit). */
const EDIT_KEYS = keyTable<(c: Composer) => void>({
  ...keys(["S-enter", "M-enter", "C-j"], (c) => c.newline()),
  ...keys(["backspace", "S-backspace"], (c) => c.backspace()),
  ...keys(["M-backspace", "C-w", "C-backspace"], (c) => c.killWordBack()),
  delete: (c) => c.deleteForward(),
  ...keys(["left", "C-b"], (c) => c.left()),
  ...keys(["right", "C-f"], (c) => c.right()),
  ...keys(["M-left", "C-left", "M-b"], (c) => c.wordLeft()),
  ...keys(["M-right", "C-right", "M-f"], (c) => c.wordRight()),
  ...keys(["home", "C-a"], (c) => c.lineStart()),
  ...keys(["end", "C-e"], (c) => c.lineEnd()),
  "C-home": (c) => c.textStart(),
  "C-end": (c) => c.textEnd(),
  "C-k": (c) => c.killToLineEnd(),
  "C-u": (c) => c.killToLineStart(),
  "M-d": (c) => c.killWordForward(),
  "C-y": (c) => c.yank(),
  "C-_": (c) => c.undo(),
});

/** Keys that act rather than edit (send, walk the history, interrupt, open things); Tab alone does nothing. */
const COMMAND_KEYS = keyTable<(state: AppState, actions: AppActions) => void>({
  enter: submitComposer,
  ...keys(["up", "C-p"], historyPrevious),
  ...keys(["down", "C-n"], historyNext),
  "S-tab": cycleMode,
  escape: escapeKey,
  "C-r": (state) => openHistorySearch(state),
  // Esc Esc in one read (a fast double press): the terminal's Alt+Esc.
  "M-escape": (state, actions) => {
    if (!state.busy && state.ready && state.composer.isEmpty()) openRewind(state, actions);
  },
  "C-t": (_, actions) => actions.openPager(),
  "C-l": (_, actions) => actions.redraw(),
  "C-g": (_, actions) => actions.editInEditor(),
  "C-v": (_, actions) => actions.pasteClipboardImage(),
  "C-c": ctrlC,
  "C-d": ctrlD,
});

/**
 * Claude Code's Chat and Global actions a keybindings file may put on any key (./keybindings.ts),
 * each the handler KHAELOR's own key for it runs.
 */
const CHAT_ACTIONS: { readonly [A in ChatAction]: (state: AppState, actions: AppActions) => void } = {
  "app:interrupt": ctrlC,
  "app:exit": ctrlD,
  "app:toggleTranscript": (_, actions) => actions.openPager(),
  "history:search": (state) => openHistorySearch(state),
  "history:previous": historyPrevious,
  "history:next": historyNext,
  "chat:cancel": escapeKey,
  "chat:clearInput": (state, actions) => edited(state, actions, (c) => c.clear()),
  "chat:cycleMode": cycleMode,
  "chat:modelPicker": (_, actions) => actions.runCommand("model"),
  "chat:submit": submitComposer,
  "chat:newline": (state, actions) => edited(state, actions, (c) => c.newline()),
  "chat:undo": (state, actions) => edited(state, actions, (c) => c.undo()),
  "chat:externalEditor": (_, actions) => actions.editInEditor(),
  "chat:imagePaste": (_, actions) => actions.pasteClipboardImage(),
};

const AUTOCOMPLETE_ACTIONS: { readonly [A in AutocompleteAction]: (state: AppState, actions: AppActions, p: Picker) => void } = {
  "autocomplete:accept": (state, actions, p) => {
    const item = p.items[p.selected];
    if (item) acceptPick(state, actions, p, item.value, false);
    else state.picker = null;
  },
  "autocomplete:dismiss": (state) => void (state.picker = null),
  "autocomplete:previous": (_, __, p) => movePicker(p, -1),
  "autocomplete:next": (_, __, p) => movePicker(p, 1),
};

/** The user's keybindings first: true when the key was theirs (run, unbound, or a chord's first key). */
function userBinding(state: AppState, actions: AppActions, ev: InputEvent): boolean {
  const picker = state.picker && state.picker.kind !== "choose" ? state.picker : null;
  return runBound(state.keys, picker ? ["Autocomplete", "Chat", "Global"] : ["Chat", "Global"], ev, actions, (action) => {
    if (picker && action in AUTOCOMPLETE_ACTIONS) AUTOCOMPLETE_ACTIONS[action as AutocompleteAction](state, actions, picker);
    else if (action in CHAT_ACTIONS) CHAT_ACTIONS[action as ChatAction](state, actions);
  });
}

function edited(state: AppState, actions: AppActions, edit: (c: Composer) => void): void {
  edit(state.composer);
  afterEdit(state, actions);
}

function historyPrevious(state: AppState): void {
  const c = state.composer;
  if (c.up()) return;
  const prev = state.history.prev(c.text);
  if (prev !== null) c.setText(prev);
}

function historyNext(state: AppState): void {
  const c = state.composer;
  if (c.down()) return;
  const next = state.history.next();
  if (next !== null) c.setText(next);
}

function escapeKey(state: AppState, actions: AppActions): void {
  if (!state.busy) {
    if (state.shellMode) {
      state.shellMode = false;
      return;
    }
    return doubleEsc(state, actions);
  }
  takeBackQueued(state, actions);
  actions.interrupt();
}

function ctrlD(state: AppState, actions: AppActions): void {
  const c = state.composer;
  if (c.isEmpty()) void actions.exit(0);
  else c.deleteForward();
  afterEdit(state, actions);
}

/** The same handler under several keys. */
function keys<F>(names: string[], f: F): Record<string, F> {
  return Object.fromEntries(names.map((n) => [n, f]));
}

/** A Map, so a key named like an Object member ("constructor") finds nothing. */
function keyTable<F>(entries: Record<string, F>): ReadonlyMap<string, F> {
  return new Map(Object.entries(entries));
}

/** Enter: the prompt goes out as a message or a command, unless its images cannot go with it now. */
function submitComposer(state: AppState, actions: AppActions): void {
  const c = state.composer;
  const text = c.submitText();
  if (!text.trim()) return;
  const images = c.attachedImages();
  if (images.length > 0) {
    const why = !state.ready ? "the session is still opening" : state.busy ? "the agent is working" : null;
    if (why) {
      // Steering is text only: the images wait in the prompt for the next message.
      actions.flash(`${why}: a message with images is sent once it is done`);
      return;
    }
    // A built-in runs here, not as a message: its images would go nowhere.
    const builtIn = looksLikeCommand(text);
    if (builtIn !== null && isKnownCommand(builtIn)) {
      state.transcript.notice(`/${builtIn} does not take images: remove the image chips to run it, or send them in a message`, "warn");
      actions.render();
      return;
    }
    const problem = manyImagesProblem(images);
    if (problem) {
      state.transcript.notice(problem, "warn");
      return;
    }
  }
  c.setText("");
  if (state.vim) state.vim.mode = "insert";
  // Shell mode sends the line as a `!` command: the history keeps it so, and Up brings it back as one.
  actions.submit(state.shellMode ? `!${text}` : text, images.length > 0 ? images : undefined);
}

/** A burst of typed text that may be a dropped file's path (a terminal that does not bracket pastes). */
function mayBeDroppedPath(text: string): boolean {
  return text.length > 4 && /^\s*(?:['"]?(?:\/|~\/|file:\/\/))/.test(text) && /\.(?:png|jpe?g|gif|webp)['"]?\s*$/i.test(text);
}

/**
 * Esc (or Ctrl-C) on an open question (a permission, the plan): the answer is no and, as in the
 * composer, the turn stops, not just this one call. Work is running, so Ctrl-C does not arm the
 * exit (see ctrlC).
 */
export function refuseAndStop(state: AppState, actions: AppActions, ask: { resolve(a: { allow: false }): void }): void {
  ask.resolve({ allow: false });
  takeBackQueued(state, actions);
  actions.interrupt();
  state.ctrlCAt = 0;
}

/**
 * Esc while messages wait for the next step: they would otherwise start the next turn on their
 * own. They go back into the composer (before what is being typed), to be sent again or not.
 */
export function takeBackQueued(state: AppState, actions: AppActions): void {
  const back = sessionOf(state).takeQueuedSteering();
  state.queued = [];
  if (back.length === 0) return;
  const c = state.composer;
  const typed = c.text;
  c.setText("");
  back.forEach((m, i) => {
    if (i > 0) c.newline();
    c.paste(m); // a big message collapses again, as when it was pasted
  });
  if (typed) {
    c.newline();
    c.insert(typed);
  }
  actions.flash(`${back.length === 1 ? "the queued message is" : `${back.length} queued messages are`} back in the prompt`);
}

/**
 * Ctrl-C as in Claude Code: while the agent works it interrupts (as Esc does) and never arms the
 * exit, so pressing it again at a command that seems stuck does not quit the app. When idle it
 * clears the prompt, or, on an empty prompt, arms the exit for a second press.
 */
function ctrlC(state: AppState, actions: AppActions): void {
  const c = state.composer;
  if (state.busy) {
    state.ctrlCAt = 0;
    takeBackQueued(state, actions);
    actions.interrupt();
    return;
  }
  const now = actions.now();
  if (state.ctrlCAt && now - state.ctrlCAt < 2000) {
    void actions.exit(0);
    return;
  }
  if (!c.isEmpty()) {
    c.clear();
    state.ctrlCAt = 0;
    state.picker = null;
    return;
  }
  state.ctrlCAt = now;
  actions.flash("press Ctrl-C again to exit");
}

/** Idle, Esc twice on an empty prompt opens the rewind chooser (Claude Code's Esc Esc). */
function doubleEsc(state: AppState, actions: AppActions): void {
  if (!state.ready || !state.composer.isEmpty()) return;
  const now = actions.now();
  if (state.escAt && now - state.escAt < DOUBLE_ESC_MS) {
    state.escAt = 0;
    openRewind(state, actions);
    return;
  }
  state.escAt = now;
  if (sessionOf(state).rewind.points().length > 0) actions.flash("Esc again to rewind to an earlier message", DOUBLE_ESC_MS);
}

function cycleMode(state: AppState, actions: AppActions): void {
  if (!state.ready) {
    actions.flash("the session is still opening");
    return;
  }
  const modes: PermissionMode[] = [...MODES, ...(state.allowDontAskCycle ? ["dontAsk" as const] : []), ...(state.allowBypassCycle ? ["bypassPermissions" as const] : [])];
  const cur = sessionOf(state).permissionMode();
  const next = modes[(modes.indexOf(cur) + 1) % modes.length] ?? "default";
  sessionOf(state).setPermissionMode(next);
}

/** Keys the open picker takes; true when handled. */
function pickerKey(state: AppState, actions: AppActions, ev: Key): boolean {
  const p = state.picker;
  if (!p) return false;
  const k = (ev.ctrl ? "C-" : "") + ev.name;
  if (k === "up" || k === "C-p") movePicker(p, -1);
  else if (k === "down" || k === "C-n") movePicker(p, 1);
  else if (k === "escape") state.picker = null;
  else if (k === "tab" || (k === "enter" && !ev.shift && !ev.alt)) {
    const item = p.items[p.selected];
    if (!item) {
      state.picker = null;
      return k === "tab";
    }
    acceptPick(state, actions, p, item.value, k === "enter");
  } else return false;
  return true;
}

function acceptPick(state: AppState, actions: AppActions, p: Picker, value: string, enter: boolean): void {
  const c = state.composer;
  state.picker = null;
  if (p.kind === "choose") {
    p.onPick(value);
    return;
  }
  if (p.kind === "slash") {
    c.setText(`/${value}`);
    if (enter) {
      c.setText("");
      actions.submit(`/${value}`);
    } else c.insert(" ");
    return;
  }
  // A file: replace "@query" with "@path " (quoted when the path has spaces, so it reads as one).
  const text = c.text;
  const end = c.cursor;
  const mention = `@${/\s/.test(value) ? `"${value}"` : value} `;
  c.setText(`${text.slice(0, p.start)}${mention}${text.slice(end)}`, p.start + mention.length);
  state.finder.touch(value);
}

/** Pickers follow the text: "/…" completes commands, "@…" completes files. */
function afterEdit(state: AppState, actions: AppActions): void {
  const c = state.composer;
  state.history.resetWalk();
  if (state.picker?.kind === "choose") return;
  const slash = !c.text.includes("\n") && /^\/\S*$/.test(c.text) ? completeSlash(c.text, customCommands(state)) : [];
  if (slash.length > 0) {
    const prev = state.picker?.kind === "slash" ? state.picker.selected : 0;
    state.picker = {
      kind: "slash",
      items: slash.map((s) => ({ label: `/${s.name}${s.args ? ` ${s.args}` : ""}`, detail: s.help, value: s.name })),
      selected: Math.min(prev, slash.length - 1),
    };
    return;
  }
  const m = mentionAt(c.text, c.cursor);
  if (m) {
    const f = state.finder;
    if (!f.ready) void f.load().then(() => refreshMention(state, actions));
    const matches = f.search(m.query);
    state.picker = {
      kind: "file",
      start: m.start,
      title: f.ready ? undefined : "listing files…",
      items: matches.map((x) => ({ label: x.path, marks: x.positions, value: x.path })),
      selected: 0,
    };
    return;
  }
  state.picker = null;
}

function refreshMention(state: AppState, actions: AppActions): void {
  if (state.picker?.kind === "file") {
    afterEdit(state, actions);
    actions.render();
  }
}

/** The session's custom commands and skills as the picker lists them. */
function customCommands(state: AppState): SlashCommand[] {
  return (state.session?.slashCommands?.() ?? []).map((e) => ({ name: e.name, ...(e.argumentHint ? { args: e.argumentHint } : {}), help: `${e.description} (${e.kind === "skill" ? "skill" : e.scope})` }));
}
