// Lending the terminal out (Ctrl-Z, `kill -TSTP`, the editor) and taking it back. Before it goes,
// the terminal answers what was already asked of it (an answer arriving after that reaches the
// shell or the editor as typed text), with no new request behind the frames meanwhile, and the
// live zone is cleared, so the shell's "Stopped" line or an editor that does not take the
// alternate screen starts where it was. While lent, nothing is drawn and no key is read.
import type { EditResult } from "../../platform/editor.ts";
import type { Screen } from "../screen/screen.ts";
import type { AppState } from "./state.ts";

export type LendingHost = {
  readonly state: AppState;
  readonly screen: Screen;
  /** The app is on its way out: nothing is lent then. */
  exiting(): boolean;
  closePager(): void;
  flash(text: string): void;
  renderNow(): void;
  /** Ctrl-Z's stop (absent: Ctrl-Z does nothing). */
  suspend?(): void;
  /** The user's editor on `text` (absent: no editor here). */
  editText?(text: string): EditResult;
  /** The user's editor on a file (absent: no editor here); null when it exited well, else why not. */
  editFile?(file: string): string | null;
  /** Resolves once the terminal has answered what was asked of it (bounded). */
  answersIn?(): Promise<void>;
};

export class TerminalLending {
  /** The terminal is lent out, or about to be. */
  lent = false;
  /** Ctrl-Z stopped the process: the SIGCONT after it gives the terminal back (not one during the wait). */
  private stopped = false;

  constructor(private readonly host: LendingHost) {}

  /** Ctrl-Z: the terminal back to the shell until `fg` (see resumed). */
  suspend(): void {
    const stop = this.host.suspend;
    if (!stop || this.lent) return;
    void this.lend({ closePicker: false }).then((lent) => {
      if (!lent) return;
      this.stopped = true;
      stop();
    });
  }

  /**
   * Ctrl-G: the edited text replaces the composer's; an editor that fails leaves it as it was and
   * says why.
   */
  editInEditor(): void {
    const edit = this.host.editText;
    if (!edit) this.host.flash("no editor can be opened here");
    else if (!this.lent) void this.lend({ closePicker: true }).then((lent) => lent && this.edited(edit));
  }

  /** /keybindings: `file` in the user's editor, then `done` with null or why the editor failed. */
  editFileInEditor(file: string, done: (error: string | null) => void): void {
    const edit = this.host.editFile;
    if (!edit) this.host.flash("no editor can be opened here");
    else if (!this.lent)
      void this.lend({ closePicker: true }).then((lent) => {
        if (!lent) return;
        let error: string | null;
        try {
          error = edit(file);
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
        }
        this.takeBack();
        this.host.screen.invalidate();
        done(error);
        this.host.renderNow();
      });
  }

  /** After `fg`: the shell may have written below us; draw the live zone afresh. */
  resumed(): void {
    if (this.lent && !this.stopped) return; // a SIGCONT while Ctrl-Z waits: the stop is still to come
    this.stopped = false;
    this.takeBack();
    this.host.screen.invalidate();
    this.host.renderNow();
  }

  /** False: the app is exiting instead. */
  private async lend(opts: { closePicker: boolean }): Promise<boolean> {
    const { host } = this;
    this.lent = true;
    host.screen.quietLink(true);
    await host.answersIn?.();
    if (host.exiting()) {
      this.takeBack();
      return false;
    }
    if (host.state.pager) host.closePager();
    // A chooser someone waits on (--resume's, the trust question) stays for after fg.
    if (opts.closePicker) host.state.picker = null;
    host.screen.setLive([], null);
    host.screen.frame();
    return true;
  }

  private takeBack(): void {
    this.lent = false;
    this.host.screen.quietLink(false);
  }

  private edited(edit: (text: string) => EditResult): void {
    const st = this.host.state;
    let r: EditResult;
    try {
      r = edit(st.composer.submitText());
    } catch (e) {
      r = { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    this.takeBack();
    this.host.screen.invalidate();
    if (r.ok) st.composer.setText(r.text);
    else st.transcript.notice(`${r.error}; the prompt is as it was.`, "warn");
    this.host.renderNow();
  }
}
