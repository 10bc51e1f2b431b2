// The interactive app: folds agent events into the transcript, decides what is history and what
// is live, lays both out, and routes keys to the composer, the permission panel or the pager.
//
// Frames: agent events only mark the app dirty; the layout runs at most every 16 ms (a streamed
// answer re-parses its markdown tail once per frame, not once per delta). A keystroke lays out at
// once, so it echoes in the next screen frame. Nothing runs while idle: the spinner ticks only
// while the agent works.
//
// History: entries are committed to the terminal's scrollback in order, each exactly once, as soon
// as they stop changing; a streaming answer commits its settled markdown blocks as they settle.
// Everything after the first unsettled entry stays in the live zone. An entry whose code waits for
// its grammar (lazy-grammars.ts) counts as unsettled until the grammar is there.
//
// The parts: key handling in composer-keys.ts, permission-keys.ts and pager-keys.ts; history
// commit and the live zone in live-zone.ts. They read and write the state below; App owns it,
// the session lifecycle and the timers.
//
// Startup: the app exists before the session does (deps.session null), so the composer takes keys
// at once; what is sent meanwhile is shown as queued and runs when sessionOpened() hands it over.
import { extname } from "node:path";
import type { AgentSession, AskAnswer, AskRequest } from "../../agent/types.ts";
import type { AgentEvent, PermissionMode } from "../../events/types.ts";
import { modelInfo } from "../../model/models.ts";
import type { MarkdownStream } from "../markdown/index.ts";
import type { FullView, Screen } from "../screen/screen.ts";
import { TranscriptPager, type PagerSource } from "../views/pager.ts";
import { formatCost } from "../../model/format-cost.ts";
import type { StatusInfo } from "../views/status-line.ts";
import type { Row, Style } from "../render/style.ts";
import { span, wrapSpans, cleanText } from "../views/text.ts";
import { ui } from "../views/theme.ts";
import { runSlashCommand } from "./commands.ts";
import { askProjectTrust, watchMcp } from "./mcp-panel.ts";
import { Composer } from "./composer.ts";
import type { FileFinder } from "./file-finder.ts";
import type { PromptHistory } from "./history.ts";
import type { InputEvent } from "./app-input.ts";
import { buildPermissionPrompt } from "./permission-prompt.ts";
import { parseSlash, isKnownCommand, looksLikeCommand } from "./slash-commands.ts";
import { LazyGrammars } from "./lazy-grammars.ts";
import { Transcript } from "../transcript/transcript.ts";
import { composerInput, type Picker } from "./composer-keys.ts";
import { armAskGuard, permissionInput, typedAhead, type PermissionAsk } from "./permission-keys.ts";
import { pagerInput, transcriptSource } from "./pager-keys.ts";
import { layout, statusInfo } from "./live-zone.ts";
import { runningProcessLines } from "./stopped-processes.ts";
import { sessionSwitchLines } from "./session-switch.ts";

export type AppDeps = {
  /** null: the session is still opening; the composer works meanwhile (see sessionOpened). */
  session: AgentSession | null;
  screen: Screen;
  history: PromptHistory;
  finder: FileFinder;
  /** The terminal shows OSC 8 hyperlinks. */
  links: boolean;
  gitBranch?: string | null;
  /** Opens another session (null: a new one) for /clear and /resume; `keep`: this run's model and mode go on. */
  reopen(resume: string | null, keep?: { model: string; permissionMode: PermissionMode }): Promise<AgentSession>;
  /** The pager opened or closed: the alternate screen, and mouse reporting for the wheel while it shows. */
  onPager(open: boolean): void;
  /** Ctrl-Z: give the terminal back to the shell until `fg` (absent: Ctrl-Z does nothing). */
  suspend?(): void;
  /** Everything is cleaned up; the process may end with this code. `line` may hold several lines (stopped processes, then how to resume). */
  onExit(code: number, line: string): void;
  now?: () => number;
  /** Entries of earlier turns printed when resuming (the rest is in the pager). */
  resumeTurns?: number;
};

const SPIN_MS = 100;
const FRAME_MS = 16;
const INTERRUPTING = "interrupting…";

export class App {
  /** Set once the session is open (always, outside the first moments of startup). */
  session!: AgentSession;
  ready = false;
  /** Sent before the session was open: run, in order, as soon as it is. */
  private sentEarly: string[] = [];
  private exitWhenReady: number | null = null;
  gitBranch: string | null;
  transcript = new Transcript();
  readonly composer = new Composer();
  readonly screen: Screen;
  readonly now: () => number;

  // History commit state.
  committed = 0;
  headRows = 0;
  headGapDone = false;
  streams = new Map<number, { md: MarkdownStream; fed: number }>();
  width: number;

  // Work in flight.
  busy: null | { abort: AbortController; kind: "turn" | "compact" | "command"; startedAt: number } = null;
  private turnDone: Promise<unknown> = Promise.resolve();
  queued: string[] = [];
  ask: PermissionAsk | null = null;
  picker: Picker | null = null;
  /** ofPrompt: the pager shows the open permission prompt in full (and closes when it is answered). */
  pager: { view: FullView; pager: TranscriptPager; ofPrompt: boolean } | null = null;
  hint: { text: string; until: number } | null = null;
  private hintTimer: ReturnType<typeof setTimeout> | null = null;
  ctrlCAt = 0;
  /** When the composer last took a key (to tell a typing burst from an answer to a prompt). */
  lastTypedAt = Number.NEGATIVE_INFINITY;
  guardTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: () => void = () => {};
  private renderTimer: ReturnType<typeof setTimeout> | null = null;
  private spinTimer: ReturnType<typeof setInterval> | null = null;
  frameNo = 0;
  private exiting = false;
  allowBypassCycle = false;
  private pagerDirty = false;
  readonly grammars: LazyGrammars;

  constructor(readonly deps: AppDeps) {
    this.screen = deps.screen;
    this.width = deps.screen.cols;
    this.now = deps.now ?? Date.now;
    this.gitBranch = deps.gitBranch ?? null;
    this.grammars = new LazyGrammars(() => {
      this.pager?.pager.restyle();
      this.requestRender();
    }, this.now);
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────────

  private attach(session: AgentSession): void {
    this.session = session;
    this.ready = true;
    this.transcript = new Transcript();
    this.transcript.onRemoved = (from) => this.onEntriesRemoved(from);
    this.committed = 0;
    this.headRows = 0;
    this.headGapDone = false;
    this.streams.clear();
    if (session.replayed) this.showResumed(session.replayed.events);
    // From here on events are live: the work tree is as they leave it.
    // Crash recovery, lost processes, settings problems, snapshots off: read before the first prompt.
    for (const n of session.notices) this.transcript.notice(n, "warn");
    const offEvents = session.subscribe((e) => this.onEvent(e));
    const offMcp = watchMcp(this, session);
    this.unsubscribe = () => {
      offEvents();
      offMcp();
    };
    // A project whose files define commands (MCP servers) asks once before they run.
    askProjectTrust(this);
  }

  /** With the session given to the constructor: a banner line, (on --resume) the last few turns, optionally a first prompt. */
  start(banner: string[], firstPrompt: string | null): void {
    if (!this.deps.session) throw new Error("App.start needs a session: use showStarting() and sessionOpened()");
    this.sessionOpened(this.deps.session, { banner, firstPrompt, gitBranch: this.gitBranch });
  }

  /** Before the session is open: the composer, already taking keys, and a "starting" status. */
  showStarting(): void {
    this.renderNow();
  }

  /**
   * The session is open: the banner goes to history, then (on --resume) the last few turns and
   * the session's notices; then the first prompt and whatever was sent while it was opening.
   */
  sessionOpened(session: AgentSession, opts: { banner: string[]; firstPrompt: string | null; gitBranch: string | null }): void {
    if (opts.banner.length) this.screen.commit(opts.banner.flatMap((b) => wrapSpans([span(cleanText(b), ui.dim)], this.width)));
    this.gitBranch = opts.gitBranch;
    this.allowBypassCycle = session.permissionMode() === "bypassPermissions";
    this.attach(session);
    this.renderNow();
    if (this.exitWhenReady !== null) {
      void this.exit(this.exitWhenReady);
      return;
    }
    const early = this.sentEarly.splice(0);
    this.queued = [];
    if (opts.firstPrompt) this.submit(opts.firstPrompt);
    for (const text of early) this.submit(text);
  }

  /** The session could not be opened: stop everything; the caller reports why. */
  abandon(): void {
    this.exiting = true;
    this.stopTimers();
    this.screen.setLive([], null);
    this.screen.frame();
    this.screen.dispose();
  }

  private showResumed(events: readonly import("../../events/types.ts").DurableEvent[]): void {
    this.transcript.applyAll(events);
    const entries = this.transcript.entries;
    const keep = this.deps.resumeTurns ?? 3;
    let seen = 0;
    let from = entries.length;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.kind === "user" && !e.steering && ++seen === keep) {
        from = i;
        break;
      }
      from = i;
    }
    // Earlier entries are in the pager only: mark them as written without writing them.
    if (from > 0) {
      this.committed = from;
      this.headGapDone = true;
      this.screen.commit([
        { spans: [span(`… ${from} earlier entr${from === 1 ? "y" : "ies"} of this session: Ctrl-T shows the whole transcript`, ui.dim)] },
      ]);
    }
  }

  private onEntriesRemoved(from: number): void {
    if (from < this.committed) {
      this.committed = from;
      this.headRows = 0;
      this.headGapDone = false;
      this.screen.commit([{ spans: [span("(the partial answer above was discarded: the request is being retried)", ui.warn)] }]);
    } else if (from === this.committed) {
      // Rows of the partial already in history get a note after them (and the next entry its own
      // gap); with none written, a gap already written before the partial serves the next entry.
      if (this.headRows > 0) {
        this.screen.commit([{ spans: [span("(the partial answer above was discarded: the request is being retried)", ui.warn)] }]);
        this.headGapDone = false;
      }
      this.headRows = 0;
    }
    for (const key of [...this.streams.keys()]) if (!this.transcript.entries.some((e) => e.key === key)) this.streams.delete(key);
  }

  private onEvent(e: AgentEvent): void {
    this.transcript.apply(e, this.now());
    if (e.type === "user_message" && e.steering) {
      const text = typeof e.content === "string" ? e.content : "";
      const i = this.queued.indexOf(text);
      if (i >= 0) this.queued.splice(i, 1);
    }
    if (e.type === "tool_result" && e.display?.path) this.deps.finder.touch(relativeTo(this.session.cwd, e.display.path));
    if (this.pager) this.pagerDirty = true;
    this.requestRender();
  }

  // ── work ───────────────────────────────────────────────────────────────────────────────────

  /** Enter: a command, a message queued for the running turn, or a new turn. */
  submit(text: string): void {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (!this.ready) {
      this.sentEarly.push(text);
      this.queued.push(text);
      this.requestRender();
      return;
    }
    this.deps.history.add(text);
    for (const m of text.matchAll(/(?:^|\s)@(?:"([^"]+)"|(\S+))/g)) if (m[1] ?? m[2]) this.deps.finder.touch((m[1] ?? m[2])!);
    const name = looksLikeCommand(text);
    if (name !== null) {
      const cmd = parseSlash(trimmed);
      if (cmd && isKnownCommand(name)) void runSlashCommand(this, cmd.name, cmd.arg);
      else {
        // Never sent to the model by mistake: the text comes back to be fixed (or sent with a leading space).
        this.transcript.notice(`Unknown command /${name}: /help lists them. To send this to the model as a message, start it with a space.`, "warn");
        if (this.composer.isEmpty()) this.composer.setText(text);
        this.requestRender();
      }
      return;
    }
    if (this.busy) {
      if (this.busy.kind !== "turn") {
        this.flash("wait for the current command to finish");
        return;
      }
      this.queued.push(text);
      this.session.queueSteering(text);
      this.requestRender();
      return;
    }
    this.runTurn(text);
  }

  private runTurn(text: string): void {
    const abort = new AbortController();
    this.busy = { abort, kind: "turn", startedAt: this.now() };
    this.startSpinner();
    this.turnDone = this.session
      .runTurn(text, abort.signal)
      .then((r) => this.unsavedTurn(text, r))
      .catch((e: unknown) => this.transcript.notice(`Error: ${e instanceof Error ? e.message : String(e)}`, "error"))
      .finally(() => {
        if (this.busy?.abort === abort) this.busy = null;
        this.workEnded();
      });
    this.renderNow();
  }

  /** The log could not be written (a full disk): say what was not saved, and give back a message that was not. */
  private unsavedTurn(text: string, r: { notSaved?: string; keepInput?: boolean }): void {
    if (!r.notSaved) return;
    this.transcript.notice(r.notSaved, "error");
    if (r.keepInput && this.composer.isEmpty()) this.composer.setText(text);
  }

  /** Runs a command's async work with Esc able to abort it and the spinner showing. */
  async runBusy(kind: "compact" | "command", work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.busy) {
      this.flash("the agent is working: wait, or press Esc to interrupt it first");
      return;
    }
    const abort = new AbortController();
    this.busy = { abort, kind, startedAt: this.now() };
    this.startSpinner();
    this.renderNow();
    const done = work(abort.signal)
      .catch((e: unknown) => this.transcript.notice(`Error: ${e instanceof Error ? e.message : String(e)}`, "error"))
      .finally(() => {
        if (this.busy?.abort === abort) this.busy = null;
        this.workEnded();
      });
    this.turnDone = done;
    await done;
  }

  /** The turn or command is over: the spinner stops, and "interrupting…" does not outlive the work. */
  private workEnded(): void {
    if (!this.busy) this.transcript.clearRetry();
    this.stopSpinnerIfIdle();
    if (!this.busy && this.hint?.text === INTERRUPTING) this.hint = null;
    this.renderNow();
  }

  interrupt(): void {
    if (!this.busy) return;
    this.busy.abort.abort();
    this.flash(INTERRUPTING);
  }

  /** The permission panel (the session's Asker). */
  askPermission(req: AskRequest, signal: AbortSignal): Promise<AskAnswer> {
    return new Promise<AskAnswer>((resolve) => {
      const prompt = buildPermissionPrompt(req, this.session.cwd);
      if (prompt.diffPath) this.grammars.waitingFor(extname(prompt.diffPath).slice(1));
      const finish = (a: AskAnswer) => {
        if (this.ask?.resolve !== finish) return;
        this.ask = null;
        signal.removeEventListener("abort", onAbort);
        if (this.guardTimer) clearTimeout(this.guardTimer);
        this.guardTimer = null;
        if (this.pager?.ofPrompt) this.closePager();
        if (this.busy) this.startSpinner();
        this.transcript.restartClock(req.call.id, this.now());
        resolve(a);
        this.renderNow();
      };
      const onAbort = () => finish({ allow: false });
      signal.addEventListener("abort", onAbort, { once: true });
      this.ask = { panel: { prompt, message: null, armed: false }, resolve: finish, toolUseId: req.call.id, suggestion: !!req.suggestion, shownAt: this.now(), guarded: true };
      if (this.pager) this.closePager();
      // Nothing moves while the user reads: no spinner frames (and no CPU) until they answer.
      this.pauseSpinner();
      armAskGuard(this, this.ask);
      this.renderNow();
    });
  }

  /** /clear and /resume: close this session and continue in another. */
  async switchSession(resume: string | null): Promise<void> {
    if (this.busy) {
      this.flash("the agent is working: press Esc to interrupt it first");
      return;
    }
    this.unsubscribe();
    const old = this.session;
    let next: AgentSession;
    try {
      // /clear starts over in the conversation, not in the settings: the model and mode chosen stay.
      next = await this.deps.reopen(resume, resume ? undefined : { model: old.model(), permissionMode: old.permissionMode() });
    } catch (e) {
      this.unsubscribe = old.subscribe((ev) => this.onEvent(ev));
      this.transcript.notice(`Could not open the session: ${e instanceof Error ? e.message : String(e)}`, "error");
      this.renderNow();
      return;
    }
    const stopped = runningProcessLines(old);
    // A session nobody spoke in is removed as it closes: there is nothing to point back to.
    const oldKept = !old.isEmpty();
    await old.close();
    this.queued = [];
    // Wrapped as soft rows, so a long line is never cut and copies as one line.
    const rows = (lines: string[], style: Style): Row[] => lines.flatMap((line) => wrapSpans([span(cleanText(line), style)], this.width).map((r, i) => (i > 0 ? { ...r, soft: true } : r)));
    this.screen.commit([{ spans: [] }, ...rows(stopped, ui.warn), ...rows(sessionSwitchLines(old.cwd, { oldId: old.sessionId, oldKept, newId: next.sessionId, resumed: resume !== null }), ui.accent)]);
    this.attach(next);
    this.renderNow();
  }

  async exit(code = 0): Promise<void> {
    if (!this.ready) {
      // Nothing to close yet: leave as soon as the session is open (and closed again).
      this.exitWhenReady = code;
      this.flash("leaving as soon as the session is open…");
      return;
    }
    if (this.exiting) return;
    this.exiting = true;
    if (this.pager) this.closePager();
    this.ask?.resolve({ allow: false });
    this.busy?.abort.abort();
    this.stopTimers();
    await this.turnDone;
    this.unsubscribe();
    // Finish what is on screen: the rest of the transcript goes to history, the live zone empties.
    layout(this, true);
    this.screen.setLive([], null);
    this.screen.frame();
    this.screen.dispose();
    const cost = this.session.costSoFar();
    const priced = modelInfo(this.session.model())?.price !== null;
    const stopped = runningProcessLines(this.session);
    const kept = !this.session.isEmpty();
    await this.session.close();
    // The same money format as the status line, so the two never disagree ($0.026, not $0.0260).
    const line = kept
      ? `Resume this session with: khaelor --resume ${this.session.sessionId}  (cost ${priced ? formatCost(cost) : "unknown"})`
      : "Nothing was said in this session, so it was not kept.";
    this.deps.onExit(code, [...stopped, line].join("\n"));
  }

  // ── input ──────────────────────────────────────────────────────────────────────────────────

  onInput(events: InputEvent[]): void {
    for (const ev of events) {
      if (this.exiting) return;
      if (ev.type === "key" && ev.ctrl && ev.name === "z" && !ev.alt) this.suspend();
      else if (this.pager) pagerInput(this, ev);
      else if (this.ask && !typedAhead(this, this.ask, ev)) permissionInput(this, ev, this.ask);
      else composerInput(this, ev);
    }
    this.renderNow();
  }


  /**
   * Ctrl-Z: the live zone is cleared first, so the shell's "Stopped" line lands where it was and
   * nothing of the composer is left above the prompt; `fg` draws it again (see onResume).
   */
  suspend(): void {
    if (!this.deps.suspend) return;
    if (this.pager) this.closePager();
    this.screen.setLive([], null);
    this.screen.frame();
    this.deps.suspend();
  }

  /** After `fg`: the shell may have written below us; draw the live zone afresh. */
  onResume(): void {
    this.screen.invalidate();
    this.renderNow();
  }


  /** A chooser (sessions, models) in the picker slot. */
  choose(title: string, items: Array<{ label: string; detail?: string; value: string }>, onPick: (v: string) => void, onCancel?: () => void): void {
    this.picker = { kind: "choose", title, items: items.slice(), all: items, selected: 0, onPick, onCancel, query: "" };
    this.renderNow();
  }

  /** A short message in the status line, for a couple of seconds. */
  flash(text: string, ms = 2500): void {
    this.hint = { text, until: this.now() + ms };
    if (this.hintTimer) clearTimeout(this.hintTimer);
    this.hintTimer = setTimeout(() => {
      this.hintTimer = null;
      this.requestRender();
    }, ms + 5);
    this.requestRender();
  }

  // ── pager ──────────────────────────────────────────────────────────────────────────────────

  /** The transcript (no source), or another source named by `title` in the pager's footer. */
  openPager(source?: PagerSource, opts: { title?: string; ofPrompt?: boolean } = {}): void {
    if (this.pager) return;
    const src = source ?? transcriptSource(this);
    const ofPrompt = opts.ofPrompt === true;
    const view = this.screen.openFullView();
    const pager = new TranscriptPager(src, this.screen.cols, this.screen.rows, opts.title ?? (ofPrompt ? "permission prompt" : "transcript"));
    // A prompt is read from its top; a transcript from its latest entry.
    if (ofPrompt) pager.home();
    else pager.end();
    this.pager = { view, pager, ofPrompt };
    this.deps.onPager(true);
    view.draw(pager.render());
  }

  closePager(): void {
    if (!this.pager) return;
    this.pager.view.close();
    this.pager = null;
    this.deps.onPager(false);
    this.renderNow();
  }


  // ── layout ─────────────────────────────────────────────────────────────────────────────────

  onResize(cols: number, rows: number): void {
    this.screen.resize(cols, rows);
    this.width = cols;
    // Settled rows already in history stay as the terminal reflowed them; the streaming answer
    // continues at the new width from the first block not yet written.
    for (const [key, s] of this.streams) {
      s.md.setWidth(cols);
      const head = this.transcript.entries[this.committed];
      if (head?.key === key) this.headRows = s.md.settledRows().length;
    }
    if (this.pager) this.pager.pager.resize(cols, rows);
    this.renderNow();
  }

  requestRender(): void {
    if (this.renderTimer || this.exiting) return;
    this.renderTimer = setTimeout(() => {
      this.renderTimer = null;
      this.renderNow();
    }, FRAME_MS);
  }

  renderNow(): void {
    if (this.renderTimer) {
      clearTimeout(this.renderTimer);
      this.renderTimer = null;
    }
    if (this.exiting) return;
    if (this.pager) {
      if (this.pagerDirty) {
        this.pagerDirty = false;
        this.pager.pager.refresh();
      }
      this.pager.view.draw(this.pager.pager.render());
      layout(this, false);
      return;
    }
    layout(this, false);
  }

  statusInfo(): StatusInfo {
    return statusInfo(this);
  }

  // ── timers ─────────────────────────────────────────────────────────────────────────────────

  private startSpinner(): void {
    if (this.spinTimer || this.ask) return;
    this.spinTimer = setInterval(() => {
      this.frameNo++;
      this.requestRender();
    }, SPIN_MS);
  }

  private stopSpinnerIfIdle(): void {
    if (this.busy || !this.spinTimer) return;
    clearInterval(this.spinTimer);
    this.spinTimer = null;
  }

  private pauseSpinner(): void {
    if (this.spinTimer) clearInterval(this.spinTimer);
    this.spinTimer = null;
  }

  private stopTimers(): void {
    if (this.spinTimer) clearInterval(this.spinTimer);
    this.spinTimer = null;
    if (this.renderTimer) clearTimeout(this.renderTimer);
    this.renderTimer = null;
    if (this.hintTimer) clearTimeout(this.hintTimer);
    this.hintTimer = null;
    if (this.guardTimer) clearTimeout(this.guardTimer);
    this.guardTimer = null;
  }

  /** For tests: the composer picker shown, if any. */
  pickerItems(): string[] {
    return this.picker ? this.picker.items.map((i) => i.label) : [];
  }
}

function relativeTo(root: string, path: string): string {
  return path.startsWith(root + "/") ? path.slice(root.length + 1) : path;
}
