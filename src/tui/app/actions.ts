// What key handlers and slash commands may ask of the app beyond changing its state
// (./state.ts): the effects. App implements it; tests drive the handlers with a fake that records.
import type { CopyResult } from "../term/clipboard.ts";
import type { PagerSource } from "../views/pager.ts";
import type { ThemeChoice } from "../views/theme.ts";

/** What /theme did: the colours now in use, and the settings file the choice went to (or why not). */
export type ThemeResult = { theme: "dark" | "light"; choice: ThemeChoice; file: string | null; error?: string };
import type { ImageData } from "../../model/images.ts";

export type ChooserItem = { label: string; detail?: string; value: string };

/** What a chooser's list is at a time: its title, its items, and (optionally) its own search. */
export type ChooserView = { title: string; items: ChooserItem[]; /** The items for a typed query, instead of matching labels and details. */ search?: (query: string) => ChooserItem[] };

/** A chooser whose filter is its own (a search), and a key that switches it to another view. */
export type ChooserOptions = {
  search?: ChooserView["search"];
  toggle?: { key: string; next: () => ChooserView };
  /** Its items change on their own (a search still reading logs): `changed` is called when they do, until the returned stop. */
  watch?: (changed: () => void) => () => void;
};

export interface AppActions {
  now(): number;
  /** Enter: a command, a message queued for the running turn, or a new turn (with its images, if any). */
  submit(text: string, images?: ImageData[]): void;
  /**
   * A paste that is nothing but paths of image files: the images, or why one cannot be sent.
   * Null when the paste is anything else (it stays text).
   */
  pastedImages(text: string): { ok: true; images: ImageData[] } | { ok: false; reason: string } | null;
  /** Ctrl-V: the clipboard's image as a chip in the composer, when there is a clipboard tool and an image. */
  pasteClipboardImage(): void;
  /** A built-in command's prompt (/init, /review) as a turn of its own: not a command, not in the prompt history. */
  /** A prompt as the user's turn; `display` is what the transcript shows of it (the command typed). */
  runPrompt(text: string, display?: string): void;
  /** A built-in slash command run as if typed (a key bound to it: chat:modelPicker), not kept in the prompt history. */
  runCommand(name: string, arg?: string): void;
  /** Aborts the running turn or command (Esc). */
  interrupt(): void;
  exit(code: number): Promise<void>;
  /** A short message in the status line, for a couple of seconds. */
  flash(text: string, ms?: number): void;
  /** The transcript (no source), or another source named by `title` in the pager's footer. */
  openPager(source?: PagerSource, opts?: { title?: string; ofPrompt?: boolean }): void;
  closePager(): void;
  /** A chooser (sessions, models, rules) in the picker slot. */
  choose(title: string, items: ChooserItem[], onPick: (value: string) => void, onCancel?: () => void, opts?: ChooserOptions): void;
  /** Runs a command's async work with Esc able to abort it and the spinner showing. */
  runBusy(kind: "compact" | "command", work: (signal: AbortSignal) => Promise<void>): Promise<void>;
  /** /clear (null) and /resume: close this session and continue in another. */
  switchSession(resume: string | null): Promise<void>;
  /** Rewind's "fork from here": a new session holding the conversation before user message `id` (this one kept as it is); true once in it. */
  forkFrom(id: string): Promise<boolean>;
  /** Lays out now (the state changed outside a key, e.g. a timer or a load finished). */
  render(): void;
  /** Ctrl-L: the whole live zone is drawn again. */
  redraw(): void;
  /** Ctrl-G and /edit: the composer's text in the user's editor, and back. */
  editInEditor(): void;
  /** /keybindings: the keybindings file in the user's editor; read again once it exits. */
  editKeybindings(): void;
  /** /copy: `text` to the user's clipboard; where it went, or why it could not. */
  copyToClipboard(text: string): Promise<CopyResult>;
  /** /theme: colours for `choice` from now on, saved to the user's settings. */
  changeTheme(choice: ThemeChoice): Promise<ThemeResult>;
  /** The theme choice in force ("auto" unless one was made). */
  themeChoice(): ThemeChoice;
}
