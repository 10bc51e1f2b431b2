// What the app needs from the world around it: the screen and the terminal's abilities, the
// session's opening, and the ways out. run-interactive.ts fills it; tests fill it with fakes.
import type { AgentSession } from "../../agent/types.ts";
import type { AgentEvent, PermissionMode } from "../../events/types.ts";
import type { EditResult } from "../../platform/editor.ts";
import type { Screen } from "../screen/screen.ts";
import type { CopyResult } from "../term/clipboard.ts";
import type { ThemeChoice } from "../views/theme.ts";
import type { ThemeResult } from "./actions.ts";
import type { FileFinder } from "./file-finder.ts";
import type { KeybindingsSource } from "./keybinding-files.ts";
import type { PromptHistory } from "./history.ts";

export type AppDeps = {
  /** null: the session is still opening; the composer works meanwhile (see sessionOpened). */
  session: AgentSession | null;
  screen: Screen;
  history: PromptHistory;
  finder: FileFinder;
  /** The terminal shows OSC 8 hyperlinks. */
  links: boolean;
  gitBranch?: string | null;
  /** Opens another session (null: a new one) for /clear and /resume; `keep`: this run's model and mode go on; `fork`: a new session from `resume`'s conversation before that message. */
  /** `keep` (after /clear): the settings chosen stay, and SessionStart hooks hear source "clear". */
  reopen(resume: string | null, keep?: { model: string; permissionMode: PermissionMode }, fork?: { before: string }): Promise<AgentSession>;
  /** The pager opened or closed: the alternate screen, and mouse reporting for the wheel while it shows. */
  onPager(open: boolean): void;
  /** Ctrl-Z: give the terminal back to the shell until `fg` (absent: Ctrl-Z does nothing). */
  suspend?(): void;
  /** Ctrl-G: `text` in the user's editor, the terminal lent to it until it exits (absent: no editor here). */
  editText?(text: string): EditResult;
  /** /keybindings: the user's editor on a file; null when it exited well, else why not (absent: no editor here). */
  editFile?(file: string): string | null;
  /** The keybindings files (./keybinding-files.ts; absent: KHAELOR's own keys only). */
  keybindings?: KeybindingsSource;
  /** Resolves once the terminal has answered what was asked of it (bounded): before lending it out. */
  answersIn?(): Promise<void>;
  /** /copy: the clipboard as this terminal reaches it (absent: there is none). */
  copy?(text: string): Promise<CopyResult>;
  /** /theme: switches the colours and saves the choice (absent: the terminal's colours cannot change here). */
  changeTheme?(choice: ThemeChoice): Promise<ThemeResult>;
  themeChoice?(): ThemeChoice;
  /** Ctrl-V: the clipboard's image bytes (absent: no clipboard tool here; rejects with the tool's reason). */
  clipboardImage?(): Promise<Buffer>;
  /** Tells the user, away in another window, that `what` happened (absent or "off": nothing). */
  notify?(what: string): void;
  /** Everything is cleaned up; the process may end with this code. `line` may hold several lines (stopped processes, then how to resume). */
  onExit(code: number, line: string): void;
  now?: () => number;
  /** Each event of the open session, once the app has applied it (the status-line command runs on them). */
  onSessionEvent?(e: AgentEvent): void;
  /** Entries of earlier turns printed when resuming (the rest is in the pager). */
  resumeTurns?: number;
};
