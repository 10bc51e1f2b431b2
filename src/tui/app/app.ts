// The interactive app: folds agent events into the transcript, decides what is history and what
// is live, lays both out, and routes keys to the composer, the permission panel or the pager.
//
// Frames: agent events only mark the app dirty; the layout runs just before a frame of the screen's
// one clock (at most a frame per 16 ms, fewer on a slow link; streamed text at most every
// STREAM_GAP_MS), so a streamed answer re-parses its markdown tail once per frame, not once per
// delta, and a lone delta after a pause is drawn at once. A keystroke lays out at once, so it echoes
// in the next frame. The app keeps no timer: what changes with time (a spinner's glyph, a running
// tool's clock, a flash's end) asks the same clock for a layout when it will look different, and
// with nothing of the kind on screen nothing is scheduled.
//
// History: entries go to the terminal's scrollback in order, each exactly once, as soon as they
// stop changing, and a streaming answer's markdown block by block as it settles (the invariant is
// in history-commit.ts); everything after the first unsettled entry stays in the live zone.
//
// The parts: the state as data (state.ts) and the effects handlers may ask for (actions.ts); key
// handling in composer-keys.ts, permission-keys.ts and pager-keys.ts and slash commands in
// commands.ts, each a function of (state, actions, event); the history commit in
// history-commit.ts; the live zone, a function of the state, in live-zone.ts; the permission
// panel as the Asker (ask-permission.ts), lending the terminal out (terminal-lending.ts), images
// (image-paste.ts), the state before a session (initial-state.ts), /clear, /resume, a fork and a
// plan's clean start (session-switch.ts). App owns the state, implements the actions, and runs the
// session's lifecycle and the timers.
//
// Startup: the app exists before the session does (deps.session null), so the composer takes keys
// at once; what is sent meanwhile is shown as queued and runs when sessionOpened() hands it over.
import type { AgentTurnResult, AgentSession, AskAnswer, AskRequest, PlanHandoff } from "../../agent/types.ts";
import type { AgentEvent } from "../../events/types.ts";
import type { UserBlock } from "../../model/types.ts";
import type { ImageData } from "../../model/images.ts";
import { imageBlock, pastedImages, noClipboardNotice, pasteClipboardImage } from "./image-paste.ts";
import { TerminalLending } from "./terminal-lending.ts";
import { AppKeybindings } from "./keybinding-files.ts";
import { modelInfo } from "../../model/models.ts";
import type { LayoutWhen, Screen } from "../screen/screen.ts";
import type { CopyResult } from "../term/clipboard.ts";
import type { PagerSource } from "../views/pager.ts";
import { formatCost } from "../../model/format-cost.ts";
import { proseRows, span, wrapSpans, cleanText } from "../views/text.ts";
import type { Row } from "../render/style.ts";
import { currentTheme, ui, type ThemeChoice } from "../views/theme.ts";
import type { AppActions, ChooserItem, ChooserOptions, ThemeResult } from "./actions.ts";
import type { AppDeps } from "./app-deps.ts";
import { ranAsCommand, runSlashCommand } from "./commands.ts";
import { watchMcp } from "./mcp-panel.ts";
import { askStartTrust } from "./start-trust.ts";
import { showResumedTail } from "./resumed-tail.ts";
import type { FocusChange, InputEvent } from "./app-input.ts";
import { askInPanel } from "./ask-permission.ts";
import { builtinWins } from "./slash-commands.ts";
import { runShellCommand, shellCommandOf } from "./shell-mode.ts";
import { Transcript } from "../transcript/transcript.ts";
import { composerInput, openChooser } from "./composer-keys.ts";
import { permissionInput, typedAhead } from "./permission-keys.ts";
import { openPagerView, pagerInput } from "./pager-keys.ts";
import { liveZone, SPIN_MS } from "./live-zone.ts";
import type { AppState, Busy } from "./state.ts";
import { initialState } from "./initial-state.ts";
import { runningProcessLines } from "./stopped-processes.ts";
import { forkSession, implementPlan, switchSession, type SwitchHost } from "./session-switch.ts";

/**
 * While the model streams, its deltas lay out and paint at most this often (after the last frame,
 * on the screen's clock): every frame re-lays out the answer's unsettled tail and the live zone and
 * diffs it, and that per-frame work is most of what the TUI costs beyond print mode. A frame costs
 * far more spread over a real answer than in a tight loop (the same 301 frames replayed on a manual
 * clock: 0.05 s of CPU back to back, 0.3 s with the deltas 5 ms apart in real time), so the number
 * of frames is the lever. Issue 19 went from 16 to 33 ms (pty bench 1.47 to 1.17 CPU seconds);
 * issue 27 to 50 ms (the stream bench's TUI 0.66 to 0.55 s against print's 0.29 s). Text at 20
 * frames a second still reads as continuous; keys, the answer's end and everything else render at
 * the screen's own pace (16 ms).
 */
export const STREAM_GAP_MS = 50;
/** A turn shorter than this was watched (or not worth a notification); "notifyAfterSeconds" in settings. */
const NOTIFY_AFTER_MS = 5000;
const INTERRUPTING = "interrupting…";

export type { AppDeps };

export class App implements AppActions {
  readonly state: AppState;
  /** Sent before the session was open: run, in order, as soon as it is. */
  private sentEarly: string[] = [];
  private exitWhenReady: number | null = null;
  readonly screen: Screen;
  private readonly clock: () => number;
  private turnDone: Promise<unknown> = Promise.resolve();
  private unsubscribe: () => void = () => {};
  /** A layout is asked of the screen's clock (requestRender). */
  private layoutDue = false;
  private exiting = false;
  /** Ctrl-Z and the editor: while the terminal is lent out nothing is drawn and no key is read. */
  private readonly lending: TerminalLending;
  private readonly switches: SwitchHost;
  /** A turn that ends after running this long notifies a user who is away. */
  notifyAfterMs = NOTIFY_AFTER_MS;
  private pagerDirty = false;
  /** The terminal's window has focus: assumed until it reports otherwise (focus reporting is on). */
  private focused = true;
  /** The user's keybindings files, read and watched (absent: KHAELOR's own keys only). */
  private readonly keybindings: AppKeybindings | null;
  /** Ctrl-V without a clipboard tool says so once, then does nothing. */
  private saidNoClipboard = false;

  constructor(readonly deps: AppDeps) {
    this.screen = deps.screen;
    this.clock = deps.now ?? Date.now;
    this.state = initialState({ ...deps, cols: deps.screen.cols });
    this.lending = new TerminalLending({
      state: this.state,
      screen: deps.screen,
      exiting: () => this.exiting,
      closePager: () => this.closePager(),
      flash: (text) => this.flash(text),
      renderNow: () => this.renderNow(),
      ...(deps.suspend ? { suspend: deps.suspend } : {}),
      ...(deps.editText ? { editText: deps.editText } : {}),
      ...(deps.editFile ? { editFile: deps.editFile } : {}),
      ...(deps.answersIn ? { answersIn: deps.answersIn } : {}),
    });
    this.switches = {
      state: this.state,
      screen: deps.screen,
      reopen: (resume, keep, fork) => deps.reopen(resume, keep, fork),
      flash: (text) => this.flash(text),
      runBusy: (kind, work) => this.runBusy(kind, work),
      renderNow: () => this.renderNow(),
      detach: () => this.unsubscribe(),
      attach: (next) => this.attach(next),
      exiting: () => this.exiting,
      runTurn: (text) => this.runTurn(text),
    };
    this.keybindings = deps.keybindings ? new AppKeybindings(this.state, deps.keybindings, () => this.requestRender()) : null;
  }

  /** The session's transcript as the UI knows it. */
  get transcript(): Transcript {
    return this.state.transcript;
  }

  /** The turn or command running, if any. */
  get busy(): Busy | null {
    return this.state.busy;
  }

  now(): number {
    return this.clock();
  }

  private get session(): AgentSession {
    if (!this.state.session) throw new Error("the session is not open yet");
    return this.state.session;
  }

  // ── lifecycle ──────────────────────────────────────────────────────────────────────────────

  private attach(session: AgentSession): void {
    const st = this.state;
    st.session = session;
    st.ready = true;
    st.transcript = new Transcript();
    st.transcript.onRemoved = (from) => this.onEntriesRemoved(from);
    st.committer.reset();
    if (session.replayed) showResumedTail(st, this.screen, session.replayed.events, this.deps.resumeTurns ?? 3);
    // From here on events are live: the work tree is as they leave it.
    // Crash recovery, lost processes, settings problems, snapshots off: read before the first prompt.
    for (const n of session.notices) st.transcript.notice(n, "warn");
    this.keybindings?.attached();
    const custom = session.slashCommands?.() ?? [];
    for (const c of custom)
      if (builtinWins(c.name, custom)) st.transcript.notice(`/${c.name} in ${c.file} is not used: the built-in /${c.name} wins (rename the file to use it)`, "warn");
    const offEvents = session.subscribe((e) => this.onEvent(e));
    const offMcp = watchMcp(st, this, session);
    // A background agent's result wakes the parent when nothing else runs (else at the turn's end).
    const offAgents = session.subagents?.onNotice(() => this.wakeIfIdle()) ?? (() => {});
    this.unsubscribe = () => {
      offEvents();
      offMcp();
      offAgents();
    };
    // A project whose files define commands (MCP servers, hooks) asks once before any of them run.
    askStartTrust(st, this);
  }

  /** With the session given to the constructor: a banner line, (on --resume) the last few turns, optionally a first prompt. */
  start(banner: string[], firstPrompt: string | null): void {
    if (!this.deps.session) throw new Error("App.start needs a session: use showStarting() and sessionOpened()");
    this.sessionOpened(this.deps.session, { banner, firstPrompt, gitBranch: this.state.gitBranch });
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
    const st = this.state;
    if (opts.banner.length) this.screen.commit(opts.banner.flatMap((b) => bannerRows(cleanText(b), st.width, st.committer.wordWrap)));
    st.gitBranch = opts.gitBranch;
    st.allowBypassCycle = session.permissionMode() === "bypassPermissions";
    st.allowDontAskCycle = session.permissionMode() === "dontAsk";
    this.attach(session);
    this.renderNow();
    if (this.exitWhenReady !== null) {
      void this.exit(this.exitWhenReady);
      return;
    }
    const early = this.sentEarly.splice(0);
    st.queued = [];
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

  private onEntriesRemoved(from: number): void {
    const note = this.state.committer.rewind(from, this.state.transcript.entries);
    if (note.length) this.screen.commit(note);
  }

  private onEvent(e: AgentEvent): void {
    const st = this.state;
    st.lastEventAt = this.now();
    st.transcript.apply(e, st.lastEventAt);
    if (e.type === "user_message" && e.steering) {
      const text = typeof e.content === "string" ? e.content : "";
      const i = st.queued.indexOf(text);
      if (i >= 0) st.queued.splice(i, 1);
    }
    if (e.type === "tool_result" && e.display?.path) st.finder.touch(relativeTo(this.session.cwd, e.display.path));
    this.deps.onSessionEvent?.(e);
    // A child's own events feed its conversation only: its row changes on agent_progress, so
    // four children streaming cost no layout per delta. Only a pager showing that child redraws.
    if (e.type === "agent_event") {
      if (st.pager?.agentId === e.agentId) {
        this.pagerDirty = true;
        this.requestRender({ gapMs: STREAM_GAP_MS });
      }
      return;
    }
    if (st.pager) this.pagerDirty = true;
    if (e.type === "text_delta" || e.type === "thinking_delta" || e.type === "tool_input_delta") this.requestRender({ gapMs: STREAM_GAP_MS });
    else this.requestRender();
  }

  // ── work ───────────────────────────────────────────────────────────────────────────────────

  submit(text: string, images?: ImageData[]): void {
    const st = this.state;
    const trimmed = text.trim();
    if (!trimmed) return;
    if (!st.ready) {
      this.sentEarly.push(text);
      st.queued.push(text);
      this.requestRender();
      return;
    }
    st.history.add(text);
    const shell = shellCommandOf(text);
    if (shell !== null) return runShellCommand(this.state, this, shell, images);
    for (const m of text.matchAll(/(?:^|\s)@(?:"([^"]+)"|(\S+))/g)) if (m[1] ?? m[2]) st.finder.touch((m[1] ?? m[2])!);
    if (!images && ranAsCommand(st, this, text)) return;
    if (st.busy) {
      if (st.busy.kind !== "turn") {
        this.flash("wait for the current command to finish");
        return;
      }
      st.queued.push(text);
      this.session.queueSteering(text);
      this.requestRender();
      return;
    }
    this.runTurn(text, images);
  }

  /** A turn for background agents' results alone, when the app is idle and some wait. */
  private wakeIfIdle(): void {
    if (this.state.busy || !this.state.session || !(this.session.subagents?.pending() > 0)) return;
    this.runTurn("", undefined, { wake: true });
  }

  /** `display`: what the transcript shows of the prompt (the command typed); `wake`: a turn for background agents' results alone. */
  private runTurn(text: string, images?: ImageData[], o: { display?: string; wake?: boolean } = {}): void {
    const display = o.display;
    const abort = new AbortController();
    const startedAt = this.now();
    this.state.busy = { abort, kind: "turn", startedAt };
    // Images before the text, as the API's guide advises; the text's chips number them in order.
    const input: string | UserBlock[] = images?.length ? [...images.map(imageBlock), { type: "text", text }] : text;
    let handoff: PlanHandoff | undefined;
    const turn: Promise<Partial<AgentTurnResult>> = o.wake ? this.session.wake(abort.signal).then((r) => r ?? {}) : this.session.runTurn(input, abort.signal, display !== undefined ? { display } : undefined);
    this.turnDone = turn
      .then((r) => {
        this.unsavedTurn(display ?? text, r);
        handoff = r.planHandoff;
      })
      .catch((e: unknown) => this.state.transcript.notice(`Error: ${e instanceof Error ? e.message : String(e)}`, "error"))
      .finally(() => {
        if (this.state.busy?.abort === abort) this.state.busy = null;
        if (this.now() - startedAt >= this.notifyAfterMs) this.notifyAway("the turn is over");
        this.workEnded();
        if (handoff && !this.exiting) void implementPlan(this.switches, handoff);
      });
    this.renderNow();
  }

  runCommand(name: string, arg = ""): void {
    if (this.state.ready) void runSlashCommand(this.state, this, name, arg);
  }

  runPrompt(text: string, display?: string): void {
    if (this.state.busy) {
      this.flash("the agent is working: wait, or press Esc to interrupt it first");
      return;
    }
    this.runTurn(text, undefined, display !== undefined ? { display } : {});
  }

  /** Only while the user is in another window: a notification for what they are looking at is noise. */
  private notifyAway(what: string): void {
    if (!this.focused) this.deps.notify?.(what);
  }

  /** The log could not be written (a full disk): say what was not saved, and give back a message that was not. */
  private unsavedTurn(text: string, r: { notSaved?: string; keepInput?: boolean }): void {
    if (!r.notSaved) return;
    this.state.transcript.notice(r.notSaved, "error");
    if (r.keepInput && this.state.composer.isEmpty()) this.state.composer.setText(text);
  }

  async runBusy(kind: "compact" | "command", work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.state.busy) {
      this.flash("the agent is working: wait, or press Esc to interrupt it first");
      return;
    }
    const abort = new AbortController();
    this.state.busy = { abort, kind, startedAt: this.now() };
    this.renderNow();
    const done = work(abort.signal)
      .catch((e: unknown) => this.state.transcript.notice(`Error: ${e instanceof Error ? e.message : String(e)}`, "error"))
      .finally(() => {
        if (this.state.busy?.abort === abort) this.state.busy = null;
        this.workEnded();
      });
    this.turnDone = done;
    await done;
  }

  /** The turn or command is over: "interrupting…" does not outlive the work. */
  private workEnded(): void {
    const st = this.state;
    if (!st.busy) st.transcript.clearRetry();
    if (!st.busy && st.hint?.text === INTERRUPTING) st.hint = null;
    this.renderNow();
    // Results that came while it worked, and were not taken by its last step.
    if (!st.busy) queueMicrotask(() => this.wakeIfIdle());
  }

  interrupt(): void {
    if (!this.state.busy) return;
    this.state.busy.abort.abort();
    this.flash(INTERRUPTING);
  }

  /** The permission panel (the session's Asker). */
  askPermission(req: AskRequest, signal: AbortSignal): Promise<AskAnswer> {
    return askInPanel(this, req, signal, {
      cwd: this.session.cwd,
      notifyAway: (what) => this.notifyAway(what),
    });
  }

  switchSession(resume: string | null): Promise<void> {
    return switchSession(this.switches, resume);
  }

  forkFrom(id: string): Promise<boolean> {
    return forkSession(this.switches, id);
  }

  /** `signal`: the signal that ends the session, recorded as the reason a running turn stopped. */
  async exit(code = 0, signal?: "sigint" | "sigterm" | "sighup"): Promise<void> {
    const st = this.state;
    if (!st.ready) {
      // Nothing to close yet: leave as soon as the session is open (and closed again).
      this.exitWhenReady = code;
      this.flash("leaving as soon as the session is open…");
      return;
    }
    if (this.exiting) return;
    this.exiting = true;
    if (st.pager) this.closePager();
    st.ask?.resolve({ allow: false });
    st.busy?.abort.abort(signal);
    this.stopTimers();
    await this.turnDone;
    this.unsubscribe();
    // Finish what is on screen: the rest of the transcript goes to history, the live zone empties.
    this.commitHistory(true);
    this.screen.setLive([], null);
    this.screen.frame();
    this.screen.dispose();
    const session = this.session;
    const cost = session.costSoFar();
    const priced = modelInfo(session.model())?.price !== null;
    const stopped = runningProcessLines(session);
    const kept = !session.isEmpty();
    // Left at the prompt (Ctrl-D, /exit), or ended by a signal.
    await session.close(signal ? "other" : "prompt_input_exit");
    // The same money format as the status line, so the two never disagree ($0.026, not $0.0260).
    const line = kept
      ? `Resume this session with: khaelor --resume ${session.sessionId}  (cost ${priced ? formatCost(cost) : "unknown"})`
      : "Nothing was said in this session, so it was not kept.";
    this.deps.onExit(code, [...stopped, line].join("\n"));
  }

  // ── input ──────────────────────────────────────────────────────────────────────────────────

  onInput(events: Array<InputEvent | FocusChange>): void {
    const st = this.state;
    for (const ev of events) {
      if (this.exiting || this.lending.lent) return;
      if (ev.type === "focus") this.focused = ev.focused;
      else if (ev.type === "key" && ev.ctrl && ev.name === "z" && !ev.alt) this.suspend();
      else if (st.pager) pagerInput(st, this, ev);
      else if (st.ask && !typedAhead(st, this, st.ask, ev)) permissionInput(st, this, ev, st.ask);
      else composerInput(st, this, ev);
    }
    // A focus report changes nothing on screen: no frame for it.
    if (events.some((ev) => ev.type !== "focus")) this.renderNow();
  }

  /** Ctrl-Z: the terminal back to the shell until `fg` (see onResume). */
  suspend(): void {
    this.lending.suspend();
  }

  /** Ctrl-G: the prompt in the user's editor, the terminal lent to it until it exits. */
  editInEditor(): void {
    this.lending.editInEditor();
  }

  editKeybindings(): void {
    if (!this.keybindings) this.flash("keybindings are not read here");
    else this.keybindings.edit((file, done) => this.lending.editFileInEditor(file, done));
  }

  pastedImages(text: string): { ok: true; images: ImageData[] } | { ok: false; reason: string } | null {
    return pastedImages(text, this.state.session?.cwd ?? process.cwd());
  }

  pasteClipboardImage(): void {
    const read = this.deps.clipboardImage;
    if (read) return pasteClipboardImage(this.state, this, read);
    if (!this.saidNoClipboard) noClipboardNotice(this.state, this);
    this.saidNoClipboard = true;
  }

  copyToClipboard(text: string): Promise<CopyResult> {
    return this.deps.copy ? this.deps.copy(text) : Promise.resolve({ ok: false, error: "there is no clipboard here" });
  }

  async changeTheme(choice: ThemeChoice): Promise<ThemeResult> {
    if (!this.deps.changeTheme) return { theme: currentTheme(), choice, file: null, error: "the theme cannot change here" };
    const r = await this.deps.changeTheme(choice);
    // The live zone's styles are new objects: draw it again in them.
    this.screen.invalidate();
    this.renderNow();
    return r;
  }

  themeChoice(): ThemeChoice {
    return this.deps.themeChoice?.() ?? "auto";
  }

  /** After `fg`: the shell may have written below us; draw the live zone afresh. */
  onResume(): void {
    this.lending.resumed();
  }

  choose(title: string, items: ChooserItem[], onPick: (v: string) => void, onCancel?: () => void, opts: ChooserOptions = {}): void {
    openChooser(this.state, this, { title, items, onPick, ...(onCancel ? { onCancel } : {}), opts });
    this.renderNow();
  }

  /** A short message in the status line; the layout it asks for then asks for another at its end. */
  flash(text: string, ms = 2500): void {
    this.state.hint = { text, until: this.now() + ms };
    this.requestRender();
  }

  render(): void {
    this.renderNow();
  }

  redraw(): void {
    this.screen.invalidate();
  }

  // ── pager ──────────────────────────────────────────────────────────────────────────────────

  openPager(source?: PagerSource, opts: { title?: string; ofPrompt?: boolean } = {}): void {
    if (this.state.pager) return;
    const p = (this.state.pager = openPagerView(this.state, this.screen, source, opts));
    this.deps.onPager(true);
    p.view.draw(p.pager.render());
  }

  closePager(): void {
    const st = this.state;
    if (!st.pager) return;
    st.pager.view.close();
    st.pager = null;
    this.deps.onPager(false);
    this.renderNow();
  }

  // ── layout ─────────────────────────────────────────────────────────────────────────────────

  onResize(cols: number, rows: number): void {
    const st = this.state;
    this.screen.resize(cols, rows);
    st.width = cols;
    st.committer.resize(cols, st.transcript.entries);
    if (st.pager) st.pager.pager.resize(cols, rows);
    this.renderNow();
  }

  /** A layout before a frame of the screen's clock: the next one, or one at `when` (the earliest asked wins). */
  requestRender(when?: LayoutWhen): void {
    if (this.exiting || this.lending.lent) return;
    this.layoutDue = true;
    this.screen.requestLayout(this.layoutForFrame, when);
  }

  private readonly layoutForFrame = (): void => {
    if (this.layoutDue) this.renderNow();
  };

  renderNow(): void {
    this.layoutDue = false;
    if (this.exiting || this.lending.lent) return;
    const st = this.state;
    const now = this.now();
    st.frameNo = Math.floor(now / SPIN_MS);
    if (st.pager) {
      if (this.pagerDirty) {
        this.pagerDirty = false;
        st.pager.pager.refresh();
      }
      st.pager.view.draw(st.pager.pager.render());
    }
    this.commitHistory(false);
    const live = liveZone(st, { height: this.screen.rows, now });
    this.screen.setLive(live.rows, live.cursor);
    // What is on screen changes with time (a spinner, a clock, a flash's end): a layout then.
    if (live.changesAt !== null) this.requestRender({ inMs: Math.max(1, live.changesAt - now) });
  }

  /** What has settled goes to scrollback. `final`: everything is history now. */
  private commitHistory(final: boolean): void {
    const rows = this.state.committer.advance(this.state.transcript.entries, final);
    if (rows.length) this.screen.commit(rows);
  }

  // ── timers ─────────────────────────────────────────────────────────────────────────────────

  private stopTimers(): void {
    const st = this.state;
    this.layoutDue = false;
    this.keybindings?.close();
    if (st.guardTimer) clearTimeout(st.guardTimer);
    st.guardTimer = null;
  }
}

function relativeTo(root: string, path: string): string {
  return path.startsWith(root + "/") ? path.slice(root.length + 1) : path;
}

/** A banner line: between words, or as it always was with "wrap": "edge" (cut at the edge). */
function bannerRows(line: string, width: number, words: boolean): Row[] {
  return words ? proseRows([span(line, ui.dim)], width, [], [], true) : wrapSpans([span(line, ui.dim)], width);
}
