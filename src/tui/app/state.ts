// The interactive app's state, as data: what the key handlers, the slash commands and the live
// zone read and change. App (./app.ts) owns one, with the timers and the session's lifecycle;
// handlers reach effects (submitting, the pager, the clock, exiting) only through AppActions
// (./actions.ts), so each is a function of (state, actions, event).
import type { KeyState } from "./keymap.ts";
import type { AgentSession, AskAnswer } from "../../agent/types.ts";
import type { FullView } from "../screen/screen.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { TranscriptPager } from "../views/pager.ts";
import type { Row } from "../render/style.ts";
import type { PermissionPanelState } from "../views/permission-panel.ts";
import type { PickerState } from "../views/picker.ts";
import type { ChooserOptions } from "./actions.ts";
import type { PlanPanelState } from "../views/plan-panel.ts";
import type { Composer } from "./composer.ts";
import type { FileFinder } from "./file-finder.ts";
import type { HistoryCommit } from "./history-commit.ts";
import type { PromptHistory } from "./history.ts";

export type Picker =
  | ({ kind: "slash" } & PickerState<string>)
  | ({ kind: "file"; start: number } & PickerState<string>)
  | ({ kind: "choose"; onPick: (value: string) => void; onCancel?: () => void; all: Array<{ label: string; detail?: string; value: string }> } & ChooserOptions & PickerState<string>);

/** Ctrl-R's search (./history-search.ts). */
export type HistorySearch = {
  query: string;
  /** The composer's text and cursor when the search opened, given back on Esc. */
  draft: string;
  draftCursor: number;
  /** Index in `list` of the match shown; -1 when none matches. */
  at: number;
  list: Array<{ text: string; here: boolean }>;
};

export type PermissionAsk = {
  panel: PermissionPanelState;
  resolve: (a: AskAnswer) => void;
  toolUseId: string;
  suggestion: boolean;
  shownAt: number;
  /** Keys still go to the composer: the prompt has just appeared, or a typing burst is going on. */
  guarded: boolean;
  /** The question is a plan to approve (exit_plan_mode): the plan panel instead of the permission panel. */
  plan?: PlanPanelState;
  /** Not a permission question: a command the sandbox blocked, offered to be allowed or run outside. */
  offer?: { outside: boolean };
};

/** A turn, /compact or a command's async work: Esc aborts it, the spinner shows it. */
export type Busy = { abort: AbortController; kind: "turn" | "compact" | "command"; startedAt: number };

/** ofPrompt: the pager shows the open permission prompt in full (and closes when it is answered). */
export type OpenPager = {
  view: FullView;
  pager: TranscriptPager;
  ofPrompt: boolean;
  /** The subagent whose conversation it shows (absent: the session's own transcript). */
  agentId?: string;
};

/** The composer's vim mode (src/tui/app/vim-keys.ts). */
export type VimState = { mode: "normal" | "insert"; /** An operator waiting for its motion: d or c. */ pending: "" | "d" | "c" };

export type AppState = {
  /** Null only in the first moments of startup, before the session is open (ready is false). */
  session: AgentSession | null;
  ready: boolean;
  gitBranch: string | null;
  transcript: Transcript;
  readonly composer: Composer;
  /** Prompts sent before, for Up/Down. */
  history: PromptHistory;
  /** The project's files, for @ mentions. */
  readonly finder: FileFinder;
  /** The terminal shows OSC 8 hyperlinks. */
  readonly links: boolean;
  /** What of the transcript is in scrollback (./history-commit.ts). */
  readonly committer: HistoryCommit;
  width: number;

  busy: Busy | null;
  /** Messages sent while work runs, shown until the session delivers them. */
  queued: string[];
  ask: PermissionAsk | null;
  picker: Picker | null;
  pager: OpenPager | null;
  /** A short message in the status line, until `until`. */
  hint: { text: string; until: number } | null;
  /** When Ctrl-C armed the exit (0: not armed). */
  ctrlCAt: number;
  /** When Esc was pressed on an empty, idle prompt (a second press soon after opens the rewind chooser; 0: none). */
  escAt: number;
  /** When the composer last took a key (to tell a typing burst from an answer to a prompt). */
  lastTypedAt: number;
  /** Arms the open permission prompt's keys (see permission-keys.ts). */
  guardTimer: ReturnType<typeof setTimeout> | null;
  /** The spinner's frame. */
  frameNo: number;
  /** When the last agent event came (the "Working…" line waits a moment after an answer ends). */
  lastEventAt: number;
  /** Shift-Tab may cycle into bypassPermissions (the session started in it). */
  allowBypassCycle: boolean;
  /** "editorMode": "vim": the composer's mode; absent, the composer is modeless. */
  vim?: VimState | null;
  /** The statusLine command's last line, drawn above the built-in status line (absent: none). */
  customStatus?: Row | null;
  /** `!` on an empty prompt: what is sent runs in the user's shell (./shell-mode.ts). */
  shellMode?: boolean;
  /** Ctrl-R: a reverse search through the prompt history is open (./history-search.ts). */
  historySearch?: HistorySearch | null;
  /** The user's keybindings files (./keybindings.ts) and a chord's first keys; absent: KHAELOR's keys only. */
  keys?: KeyState | null;
  /** Shift-Tab may cycle into dontAsk (the session started in it: --permission-mode or the settings' defaultMode). */
  allowDontAskCycle: boolean;
};

/** The open session; handlers that need one run only once it is open. */
export function sessionOf(state: AppState): AgentSession {
  if (!state.session) throw new Error("the session is not open yet");
  return state.session;
}
