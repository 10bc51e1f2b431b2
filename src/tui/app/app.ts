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
// Startup: the app exists before the session does (deps.session null), so the composer takes keys
// at once; what is sent meanwhile is shown as queued and runs when sessionOpened() hands it over.
import { extname } from "node:path";
import type { AgentSession } from "../../cli/agent-session.ts";
import type { AskAnswer, AskRequest } from "../../cli/gate.ts";
import type { AgentEvent, PermissionMode } from "../../events/types.ts";
import { modelInfo } from "../../model/models.ts";
import { createMarkdownStream, type MarkdownStream } from "../markdown/index.ts";
import type { Row } from "../render/style.ts";
import type { FullView, Screen } from "../views/screen.ts";
import { renderComposer } from "../views/composer-view.ts";
import { needsGap, renderEntry } from "../views/entry-view.ts";
import { TranscriptPager, type PagerSource } from "../views/pager.ts";
import { PERMISSION_KEYS, renderPermissionFull, renderPermissionPanel, type PermissionPanelState, type PermissionPrompt } from "../views/permission-panel.ts";
import { movePicker, renderPicker, type PickerState } from "../views/picker.ts";
import { renderStatusLine, type StatusInfo } from "../views/status-line.ts";
import { clipSpans, span, wrapSpans, cleanText } from "../views/text.ts";
import { ui } from "../views/theme.ts";
import { renderToolCall, SPINNER } from "../views/tool-row.ts";
import { runSlashCommand } from "./commands.ts";
import { Composer } from "./composer.ts";
import { mentionAt, type FileFinder } from "./file-finder.ts";
import type { PromptHistory } from "./history.ts";
import type { InputEvent, Key } from "./app-input.ts";
import { buildPermissionPrompt } from "./permission-prompt.ts";
import { completeSlash, parseSlash, isKnownCommand, looksLikeCommand } from "./slash-commands.ts";
import { LazyGrammars } from "./lazy-grammars.ts";
import { entryText, isSettled, Transcript, type Entry } from "./transcript.ts";

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
  /** Everything is cleaned up; the process may end with this code. */
  onExit(code: number, line: string): void;
  now?: () => number;
  /** Entries of earlier turns printed when resuming (the rest is in the pager). */
  resumeTurns?: number;
};

type Picker =
  | ({ kind: "slash" } & PickerState<string>)
  | ({ kind: "file"; start: number } & PickerState<string>)
  | ({ kind: "choose"; onPick: (value: string) => void; onCancel?: () => void; all: Array<{ label: string; detail?: string; value: string }> } & PickerState<string>);

type PermissionAsk = {
  panel: PermissionPanelState;
  resolve: (a: AskAnswer) => void;
  toolUseId: string;
  suggestion: boolean;
  shownAt: number;
  /** Keys still go to the composer: the prompt has just appeared, or a typing burst is going on. */
  guarded: boolean;
};

const SPIN_MS = 100;
const FRAME_MS = 16;
const MODES: PermissionMode[] = ["default", "acceptEdits", "plan"];
/**
 * A permission prompt takes no key in its first moments: nobody reads a prompt and answers it this
 * fast, so such a key was typed before it appeared (the user was writing the next message while
 * the answer streamed, and "s" must not grant a rule).
 */
const ASK_GUARD_MS = 400;
/** Keys closer together than this are one typing burst; a burst going on when a prompt appears stays with the composer. */
const BURST_GAP_MS = 350;
const INTERRUPTING = "interrupting…";

export class App {
  /** Set once the session is open (always, outside the first moments of startup). */
  session!: AgentSession;
  private ready = false;
  /** Sent before the session was open: run, in order, as soon as it is. */
  private sentEarly: string[] = [];
  private exitWhenReady: number | null = null;
  private gitBranch: string | null;
  transcript = new Transcript();
  readonly composer = new Composer();
  readonly screen: Screen;
  private readonly now: () => number;

  // History commit state.
  private committed = 0;
  private headRows = 0;
  private headGapDone = false;
  private streams = new Map<number, { md: MarkdownStream; fed: number }>();
  private width: number;

  // Work in flight.
  busy: null | { abort: AbortController; kind: "turn" | "compact" | "command"; startedAt: number } = null;
  private turnDone: Promise<unknown> = Promise.resolve();
  queued: string[] = [];
  private ask: PermissionAsk | null = null;
  private picker: Picker | null = null;
  /** ofPrompt: the pager shows the open permission prompt in full (and closes when it is answered). */
  private pager: { view: FullView; pager: TranscriptPager; ofPrompt: boolean } | null = null;
  private hint: { text: string; until: number } | null = null;
  private hintTimer: ReturnType<typeof setTimeout> | null = null;
  private ctrlCAt = 0;
  /** When the composer last took a key (to tell a typing burst from an answer to a prompt). */
  private lastTypedAt = Number.NEGATIVE_INFINITY;
  private guardTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: () => void = () => {};
  private renderTimer: ReturnType<typeof setTimeout> | null = null;
  private spinTimer: ReturnType<typeof setInterval> | null = null;
  private frameNo = 0;
  private exiting = false;
  private allowBypassCycle = false;
  private pagerDirty = false;
  private readonly grammars: LazyGrammars;

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
    // Crash recovery, lost processes, settings problems, snapshots off: read before the first prompt.
    for (const n of session.notices) this.transcript.notice(n, "warn");
    this.unsubscribe = session.bus.subscribe((e) => this.onEvent(e));
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
      if (this.headRows > 0) this.screen.commit([{ spans: [span("(the partial answer above was discarded: the request is being retried)", ui.warn)] }]);
      this.headRows = 0;
      this.headGapDone = false;
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
      .catch((e: unknown) => this.transcript.notice(`Error: ${e instanceof Error ? e.message : String(e)}`, "error"))
      .finally(() => {
        if (this.busy?.abort === abort) this.busy = null;
        this.workEnded();
      });
    this.renderNow();
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
      const prompt = buildPermissionPrompt(req, this.session.workspace.cwd, this.session.cwd);
      if (prompt.diffPath) this.grammars.waitingFor(extname(prompt.diffPath).slice(1));
      const finish = (a: AskAnswer) => {
        if (this.ask?.resolve !== finish) return;
        this.ask = null;
        signal.removeEventListener("abort", onAbort);
        if (this.guardTimer) clearTimeout(this.guardTimer);
        this.guardTimer = null;
        if (this.pager?.ofPrompt) this.closePager();
        if (this.busy) this.startSpinner();
        resolve(a);
        this.renderNow();
      };
      const onAbort = () => finish({ allow: false });
      signal.addEventListener("abort", onAbort, { once: true });
      this.ask = { panel: { prompt, message: null, armed: false }, resolve: finish, toolUseId: req.call.id, suggestion: !!req.suggestion, shownAt: this.now(), guarded: true };
      if (this.pager) this.closePager();
      // Nothing moves while the user reads: no spinner frames (and no CPU) until they answer.
      this.pauseSpinner();
      this.armAskGuard(this.ask);
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
      this.unsubscribe = old.bus.subscribe((ev) => this.onEvent(ev));
      this.transcript.notice(`Could not open the session: ${e instanceof Error ? e.message : String(e)}`, "error");
      this.renderNow();
      return;
    }
    await old.close();
    this.queued = [];
    const said = resume ? [`Resumed session ${next.sessionId}`] : [`New session ${next.sessionId}. The previous one stays resumable:`, `khaelor --resume ${old.sessionId}`];
    // Wrapped as soft rows, so a long id is never cut and copies as one line.
    this.screen.commit([{ spans: [] }, ...said.flatMap((line) => wrapSpans([span(line, ui.accent)], this.width).map((r, i) => (i > 0 ? { ...r, soft: true } : r)))]);
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
    this.layout(true);
    this.screen.setLive([], null);
    this.screen.frame();
    this.screen.dispose();
    const cost = this.session.costSoFar();
    const priced = modelInfo(this.session.model())?.price !== null;
    await this.session.close();
    const line = `Resume this session with: khaelor --resume ${this.session.sessionId}  (cost ${priced ? `$${cost.toFixed(cost < 1 ? 4 : 2)}` : "unknown"})`;
    this.deps.onExit(code, line);
  }

  // ── input ──────────────────────────────────────────────────────────────────────────────────

  onInput(events: InputEvent[]): void {
    for (const ev of events) {
      if (this.exiting) return;
      if (ev.type === "key" && ev.ctrl && ev.name === "z" && !ev.alt) this.suspend();
      else if (this.pager) this.pagerInput(ev);
      else if (this.ask && !this.typedAhead(this.ask, ev)) this.permissionInput(ev, this.ask);
      else this.composerInput(ev);
    }
    this.renderNow();
  }

  private permissionInput(ev: InputEvent, ask: PermissionAsk): void {
    const panel = ask.panel;
    if (panel.message !== null) {
      if (ev.type === "text" || ev.type === "paste") panel.message += ev.text.replace(/[\r\n]+/g, " ");
      else if (ev.type === "key" && ev.name === "backspace") panel.message = panel.message.slice(0, -1);
      else if (ev.type === "key" && ev.name === "enter") ask.resolve({ allow: false, message: panel.message.trim() || undefined });
      else if (ev.type === "key" && ev.name === "escape") panel.message = null;
      else if (ev.type === "key" && ev.ctrl && ev.name === "c") panel.message = null;
      return;
    }
    if (ev.type === "key" && (ev.name === "escape" || (ev.ctrl && ev.name === "c"))) {
      // As in the composer: Esc (or Ctrl-C) stops the turn, not just this one call; a second
      // Ctrl-C exits.
      ask.resolve({ allow: false });
      this.takeBackQueued();
      this.interrupt();
      if (ev.name === "c") {
        this.ctrlCAt = this.now();
        this.flash("press Ctrl-C again to exit");
      }
      return;
    }
    if (ev.type === "key" && ev.ctrl && ev.name === "t") {
      this.openPager(promptSource(ask.panel.prompt), true);
      return;
    }
    const k = ev.type === "text" ? ev.text.toLowerCase() : ev.type === "key" && !ev.ctrl && !ev.alt ? ev.name : "";
    const choice = PERMISSION_KEYS[k];
    if (choice === "once") ask.resolve({ allow: true });
    else if (choice === "deny") ask.resolve({ allow: false });
    else if (choice === "deny_message") panel.message = "";
    else if (choice && ask.suggestion) ask.resolve({ allow: true, always: { scope: choice.always } });
  }

  /**
   * Whether a key that arrives while a permission prompt is open belongs to the composer instead:
   * typed in the prompt's first moments or in a typing burst that began before it, or several
   * characters at once (fast typing, an unbracketed paste), which is never a one-key answer.
   */
  private typedAhead(ask: PermissionAsk, ev: InputEvent): boolean {
    if (ask.panel.message !== null || ev.type === "wheel") return false;
    // Ctrl-T only shows the prompt in full: it answers nothing, so it is never held back.
    if (ev.type === "key" && ev.ctrl && ev.name === "t") return false;
    if (ask.guarded && !this.guardOver(ask)) {
      ask.panel.typedAhead = true;
      this.armAskGuard(ask);
      return true;
    }
    if ((ev.type === "text" && [...ev.text].length > 1) || ev.type === "paste") {
      ask.guarded = true;
      ask.panel.armed = false;
      ask.panel.typedAhead = true;
      this.armAskGuard(ask);
      return true;
    }
    return false;
  }

  private guardOver(ask: PermissionAsk): boolean {
    const now = this.now();
    return now - ask.shownAt >= ASK_GUARD_MS && now - this.lastTypedAt >= BURST_GAP_MS;
  }

  /** Arms the prompt's keys once the guard time has passed and the typing has paused. */
  private armAskGuard(ask: PermissionAsk): void {
    if (this.guardTimer) clearTimeout(this.guardTimer);
    const due = Math.max(ask.shownAt + ASK_GUARD_MS, this.lastTypedAt + BURST_GAP_MS) - this.now();
    this.guardTimer = setTimeout(() => {
      this.guardTimer = null;
      if (this.ask !== ask) return;
      if (!this.guardOver(ask)) return this.armAskGuard(ask);
      ask.guarded = false;
      ask.panel.armed = true;
      this.renderNow();
    }, Math.max(1, due + 1));
  }

  /**
   * A chooser (/model, /resume, /permissions) owns the keyboard while it is open: typing filters
   * it, Enter takes the selection, Esc closes it. Nothing reaches the composer behind it, so text
   * typed ahead ("/model⏎/sessions⏎") is never glued into a message.
   */
  private chooserInput(ev: InputEvent, p: Extract<Picker, { kind: "choose" }>): void {
    if (ev.type === "wheel") return;
    // "/" before any filter starts another command: the chooser steps aside (typed ahead,
    // "/model⏎/sessions⏎" runs both commands).
    if (ev.type === "text" && !p.query && ev.text.startsWith("/")) {
      this.picker = null;
      p.onCancel?.();
      this.composerInput(ev);
      return;
    }
    if (ev.type === "text" || ev.type === "paste") {
      this.filterChooser(p, (p.query ?? "") + ev.text.replace(/[\r\n]+/g, " "));
      return;
    }
    const k = (ev.ctrl ? "C-" : "") + ev.name;
    if (k === "up" || k === "C-p") movePicker(p, -1);
    else if (k === "down" || k === "C-n") movePicker(p, 1);
    else if (k === "backspace") this.filterChooser(p, (p.query ?? "").slice(0, -1));
    else if (k === "escape" || k === "C-c") {
      this.picker = null;
      p.onCancel?.();
    } else if (k === "enter" || k === "tab") {
      const item = p.items[p.selected];
      if (item) this.acceptPick(p, item.value, true);
      else this.flash(`nothing matches "${p.query ?? ""}": Backspace edits the filter, Esc closes`);
    }
  }

  private filterChooser(p: Extract<Picker, { kind: "choose" }>, query: string): void {
    const q = query.toLowerCase();
    p.query = query;
    p.items = q ? p.all.filter((i) => `${i.label} ${i.detail ?? ""}`.toLowerCase().includes(q)) : p.all.slice();
    p.selected = 0;
  }

  private composerInput(ev: InputEvent): void {
    const c = this.composer;
    if (ev.type !== "wheel") this.lastTypedAt = this.now();
    if (this.picker?.kind === "choose") {
      this.chooserInput(ev, this.picker);
      return;
    }
    if (ev.type === "text" || ev.type === "paste") this.ctrlCAt = 0;
    if (ev.type === "text") {
      c.insert(ev.text);
      this.afterEdit();
      return;
    }
    if (ev.type === "paste") {
      c.paste(ev.text);
      this.afterEdit();
      return;
    }
    if (ev.type === "wheel") return;
    if (ev.name !== "c" || !ev.ctrl) this.ctrlCAt = 0;
    if (this.pickerKey(ev)) return;
    const { name, ctrl, alt, shift } = ev;
    const k = (ctrl ? "C-" : "") + (alt ? "M-" : "") + (shift ? "S-" : "") + name;
    switch (k) {
      case "enter": {
        const text = c.submitText();
        if (!text.trim()) return;
        c.setText("");
        this.submit(text);
        return;
      }
      case "S-enter":
      case "M-enter":
      case "C-j":
        c.newline();
        break;
      case "backspace":
      case "S-backspace":
        c.backspace();
        break;
      case "M-backspace":
      case "C-w":
      case "C-backspace":
        c.killWordBack();
        break;
      case "delete":
        c.deleteForward();
        break;
      case "left":
      case "C-b":
        c.left();
        break;
      case "right":
      case "C-f":
        c.right();
        break;
      case "M-left":
      case "C-left":
      case "M-b":
        c.wordLeft();
        break;
      case "M-right":
      case "C-right":
      case "M-f":
        c.wordRight();
        break;
      case "home":
      case "C-a":
        c.lineStart();
        break;
      case "end":
      case "C-e":
        c.lineEnd();
        break;
      case "C-home":
        c.textStart();
        break;
      case "C-end":
        c.textEnd();
        break;
      case "up":
      case "C-p":
        if (!c.up()) {
          const prev = this.deps.history.prev(c.text);
          if (prev !== null) c.setText(prev);
        }
        return;
      case "down":
      case "C-n":
        if (!c.down()) {
          const next = this.deps.history.next();
          if (next !== null) c.setText(next);
        }
        return;
      case "C-k":
        c.killToLineEnd();
        break;
      case "C-u":
        c.killToLineStart();
        break;
      case "M-d":
        c.killWordForward();
        break;
      case "C-y":
        c.yank();
        break;
      case "C-_":
        c.undo();
        break;
      case "S-tab":
        this.cycleMode();
        return;
      case "tab":
        return;
      case "escape":
        if (this.busy) {
          this.takeBackQueued();
          this.interrupt();
        }
        return;
      case "C-t":
        this.openPager();
        return;
      case "C-l":
        this.screen.invalidate();
        return;
      case "C-c":
        this.ctrlC();
        return;
      case "C-d":
        if (c.isEmpty()) void this.exit(0);
        else c.deleteForward();
        break;
      default:
        return;
    }
    this.afterEdit();
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

  /**
   * Esc while messages wait for the next step: they would otherwise start the next turn on their
   * own. They go back into the composer (before what is being typed), to be sent again or not.
   */
  private takeBackQueued(): void {
    const back = this.session.takeQueuedSteering();
    this.queued = [];
    if (back.length === 0) return;
    const c = this.composer;
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
    this.flash(`${back.length === 1 ? "the queued message is" : `${back.length} queued messages are`} back in the prompt`);
  }

  private ctrlC(): void {
    const c = this.composer;
    const now = this.now();
    if (this.ctrlCAt && now - this.ctrlCAt < 2000) {
      void this.exit(0);
      return;
    }
    if (!c.isEmpty()) {
      c.clear();
      this.ctrlCAt = 0;
      this.picker = null;
      return;
    }
    if (this.busy) this.interrupt();
    this.ctrlCAt = now;
    this.flash("press Ctrl-C again to exit");
  }

  private cycleMode(): void {
    if (!this.ready) {
      this.flash("the session is still opening");
      return;
    }
    const modes = this.allowBypassCycle ? [...MODES, "bypassPermissions" as const] : MODES;
    const cur = this.session.permissionMode();
    const next = modes[(modes.indexOf(cur) + 1) % modes.length] ?? "default";
    this.session.setPermissionMode(next);
  }

  /** Keys the open picker takes; true when handled. */
  private pickerKey(ev: Key): boolean {
    const p = this.picker;
    if (!p) return false;
    const k = (ev.ctrl ? "C-" : "") + ev.name;
    if (k === "up" || k === "C-p") movePicker(p, -1);
    else if (k === "down" || k === "C-n") movePicker(p, 1);
    else if (k === "escape") this.picker = null;
    else if (k === "tab" || (k === "enter" && !ev.shift && !ev.alt)) {
      const item = p.items[p.selected];
      if (!item) {
        this.picker = null;
        return k === "tab";
      }
      this.acceptPick(p, item.value, k === "enter");
    } else return false;
    return true;
  }

  private acceptPick(p: Picker, value: string, enter: boolean): void {
    const c = this.composer;
    this.picker = null;
    if (p.kind === "choose") {
      p.onPick(value);
      return;
    }
    if (p.kind === "slash") {
      c.setText(`/${value}`);
      if (enter) {
        c.setText("");
        this.submit(`/${value}`);
      } else c.insert(" ");
      return;
    }
    // A file: replace "@query" with "@path " (quoted when the path has spaces, so it reads as one).
    const text = c.text;
    const end = c.cursor;
    const mention = `@${/\s/.test(value) ? `"${value}"` : value} `;
    c.setText(`${text.slice(0, p.start)}${mention}${text.slice(end)}`, p.start + mention.length);
    this.deps.finder.touch(value);
  }

  /** Pickers follow the text: "/…" completes commands, "@…" completes files. */
  private afterEdit(): void {
    const c = this.composer;
    this.deps.history.resetWalk();
    if (this.picker?.kind === "choose") return;
    const slash = !c.text.includes("\n") && /^\/\S*$/.test(c.text) ? completeSlash(c.text) : [];
    if (slash.length > 0) {
      const prev = this.picker?.kind === "slash" ? this.picker.selected : 0;
      this.picker = {
        kind: "slash",
        items: slash.map((s) => ({ label: `/${s.name}${s.args ? ` ${s.args}` : ""}`, detail: s.help, value: s.name })),
        selected: Math.min(prev, slash.length - 1),
      };
      return;
    }
    const m = mentionAt(c.text, c.cursor);
    if (m) {
      const f = this.deps.finder;
      if (!f.ready) void f.load().then(() => this.refreshMention());
      const matches = f.search(m.query);
      this.picker = {
        kind: "file",
        start: m.start,
        title: f.ready ? undefined : "listing files…",
        items: matches.map((x) => ({ label: x.path, marks: x.positions, value: x.path })),
        selected: 0,
      };
      return;
    }
    this.picker = null;
  }

  private refreshMention(): void {
    if (this.picker?.kind === "file") {
      this.afterEdit();
      this.renderNow();
    }
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

  openPager(source?: PagerSource, ofPrompt = false): void {
    if (this.pager) return;
    const src = source ?? this.transcriptSource();
    const view = this.screen.openFullView();
    const pager = new TranscriptPager(src, this.screen.cols, this.screen.rows, ofPrompt ? "permission prompt" : "transcript");
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

  private transcriptSource(): PagerSource {
    const t = () => this.transcript;
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
        this.grammars.holds(e); // a language not loaded yet starts loading; the pager restyles when it is
        const rows = renderEntry(e, { width, links: false, full: true });
        return needsGap(entries[i - 1], e) ? [{ spans: [] }, ...rows] : rows;
      },
    };
  }

  private pagerInput(ev: InputEvent): void {
    const { pager } = this.pager!;
    // Typed ahead, several keys arrive as one text event: each is a command here.
    if (ev.type === "text" && !pager.search?.editing && ev.text.length > 1) {
      for (const ch of ev.text) if (this.pager) this.pagerInput({ type: "text", text: ch });
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
    const name = ev.type === "text" ? ev.text : ev.ctrl ? `C-${ev.name}` : ev.name;
    pager.message = null;
    switch (name) {
      case "escape":
      case "q":
      case "C-t":
      case "C-c":
        this.closePager();
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
      this.layout(false);
      return;
    }
    this.layout(false);
  }

  /** Commits what has settled, then sets the live zone. `final`: everything is history now. */
  private layout(final: boolean): void {
    const width = this.width;
    const entries = this.transcript.entries;
    const out: Row[] = [];
    while (this.committed < entries.length) {
      const e = entries[this.committed]!;
      const prev = entries[this.committed - 1];
      const streaming = e.kind === "assistant" && (!e.done || this.streams.has(e.key));
      if (!final && !streaming && (!isSettled(e) || this.grammars.holds(e))) break;
      if (!this.headGapDone && needsGap(prev, e)) out.push({ spans: [] });
      this.headGapDone = true;
      if (e.kind === "assistant" && streaming) {
        const s = this.streamFor(e, final);
        // Done means all of it reached the stream (a fence may still wait for its grammar).
        const done = final || (e.done && s.fed === e.text.length);
        if (done) s.md.finish();
        const settled = s.md.settledRows();
        for (let i = this.headRows; i < settled.length; i++) out.push(settled[i]!);
        this.headRows = settled.length;
        if (!done) break;
        if (e.interrupted) out.push({ spans: [span("⎿ interrupted", ui.warn)] });
        this.streams.delete(e.key);
      } else {
        out.push(...renderEntry(e, { width, links: this.deps.links, full: false }));
      }
      this.committed++;
      this.headRows = 0;
      this.headGapDone = false;
    }
    if (out.length) this.screen.commit(out);
    if (final) return;
    this.setLive(width);
  }

  private streamFor(e: Extract<Entry, { kind: "assistant" }>, all = false): { md: MarkdownStream; fed: number } {
    let s = this.streams.get(e.key);
    if (!s) {
      s = { md: createMarkdownStream({ width: this.width, links: this.deps.links }), fed: 0 };
      this.streams.set(e.key, s);
    }
    if (s.fed < e.text.length) {
      const limit = all ? e.text.length : this.grammars.feedLimit(e.text, s.fed);
      if (limit > s.fed) {
        s.md.append(e.text.slice(s.fed, limit));
        s.fed = limit;
      }
    }
    return s;
  }

  private setLive(width: number): void {
    const height = this.screen.rows;
    const maxLive = Math.max(1, height - 1);
    const entries = this.transcript.entries;
    const top: Row[] = [];
    const now = this.now();
    for (let i = this.committed; i < entries.length; i++) {
      const e = entries[i]!;
      if ((i > this.committed || !this.headGapDone) && needsGap(entries[i - 1], e)) top.push({ spans: [] });
      if (e.kind === "assistant") {
        const s = this.streamFor(e);
        const settled = s.md.settledRows();
        const from = i === this.committed ? this.headRows : 0;
        for (let r = from; r < settled.length; r++) top.push(settled[r]!);
        top.push(...s.md.tailRows());
      } else if (e.kind === "thinking" && !e.done) {
        top.push({ spans: clipSpans([span(`${SPINNER[this.frameNo % SPINNER.length]} Thinking…`, ui.thinking)], width, true) });
        const lines = e.text.trimEnd().split("\n").slice(-3);
        for (const l of lines) top.push(...wrapSpans([span(cleanText(l), ui.thinking)], width, [span("  ")], [span("  ")]).slice(-3));
      } else if (e.kind === "tool") {
        const rows = renderToolCall(e.view, { width, frame: this.frameNo, now });
        if (this.ask?.toolUseId === e.view.id) rows[0]?.spans.push(span("  waiting for your answer", ui.warn));
        top.push(...rows);
      } else top.push(...renderEntry(e, { width, links: this.deps.links, full: false }));
    }
    if (this.busy && !this.ask && !this.hasActiveRow()) {
      const label = this.busy.kind === "compact" ? "Compacting…" : this.busy.kind === "command" ? "Working…" : "Working…";
      top.push({ spans: [] });
      top.push({ spans: clipSpans([span(`${SPINNER[this.frameNo % SPINNER.length]} ${label}`, ui.accent), span("  Esc to interrupt", ui.dim)], width, true) });
    }

    const bottom: Row[] = [];
    for (const q of this.queued) bottom.push({ spans: clipSpans([span("  queued: ", ui.queued), span(cleanText(q.split("\n")[0] ?? ""), ui.queued)], width, true) });
    let cursor: { row: number; col: number } | null = null;
    if (this.ask) {
      bottom.push({ spans: [] });
      const room = Math.max(3, maxLive - 2);
      bottom.push(...renderPermissionPanel(this.ask.panel, width, room));
    } else {
      bottom.push({ spans: [] });
      if (this.picker) bottom.push(...renderPicker(this.picker, width, Math.min(8, Math.max(1, maxLive - 4))));
      const composerRows = Math.max(1, Math.min(10, maxLive - bottom.length - 1));
      const v = renderComposer({
        text: this.composer.text,
        cursor: this.composer.cursor,
        width,
        maxRows: composerRows,
        hint: !this.ready ? "starting… type ahead, Enter sends once ready" : this.busy ? "type to queue a message · Esc interrupts" : "ask anything · / for commands · @ for files",
        busy: this.busy !== null,
      });
      cursor = { row: bottom.length + v.cursor.row, col: v.cursor.col };
      bottom.push(...v.rows);
    }
    bottom.push(this.statusRow(width));

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
    this.screen.setLive(rows, cursor);
  }

  private hasActiveRow(): boolean {
    const entries = this.transcript.entries;
    for (let i = this.committed; i < entries.length; i++) {
      const e = entries[i]!;
      if ((e.kind === "assistant" && !e.done) || (e.kind === "thinking" && !e.done) || (e.kind === "tool" && e.view.status === "running")) return true;
    }
    return false;
  }

  statusInfo(): StatusInfo {
    const s = this.session;
    const info = modelInfo(s.model());
    const u = this.transcript.usage;
    const prompt = u.input + u.cacheRead + u.cacheWrite;
    let running = 0;
    try {
      running = s.workspace.processes.list().filter((p) => p.state === "running").length;
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
      gitBranch: this.gitBranch,
      activity: this.hint && this.hint.until > this.now() ? this.hint.text : null,
    };
  }

  private statusRow(width: number): Row {
    if (!this.ready) {
      const note = this.hint && this.hint.until > this.now() ? this.hint.text : "starting the session…";
      return { spans: clipSpans([span(`⏵ ${note}`, ui.dim)], width, true) };
    }
    return renderStatusLine(this.statusInfo(), width);
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

/** The open prompt in full, for the pager (one entry: laid out only while shown, like any other). */
function promptSource(p: PermissionPrompt): PagerSource {
  return { count: () => 1, text: () => [p.summary, p.detail?.text ?? "", p.diff ?? "", p.reason].join("\n"), layout: (_i, width) => renderPermissionFull(p, width) };
}

function relativeTo(root: string, path: string): string {
  return path.startsWith(root + "/") ? path.slice(root.length + 1) : path;
}
