// Interactive mode: the terminal app. The terminal layer (src/tui/term) owns raw mode, the modes
// we push, capability probing, Ctrl-Z and the restore on every way out; this file opens the agent
// session with the permission panel as its Asker and connects terminal, screen and app. It leaves
// the terminal as it found it, with one line saying how to resume.
//
// Startup is ordered for the first frame and the first keystroke: only the terminal layer and the
// screen are imported up front; the "starting" line is drawn while the terminal still answers the
// capability queries; keys typed from then on are kept and handed to the composer as soon as it
// exists.
import { resolve } from "node:path";
import type { InputEvent } from "../../tui/term/decoder.ts";
import { capsFromEnv } from "../../tui/term/caps.ts";
import { openTerminal, type TerminalSession } from "../../tui/term/terminal.ts";
import { notificationSequence, type NotificationMode } from "../../tui/term/notify.ts";
import { createScreen, type ScreenCaps, type ScreenOutput } from "../../tui/screen/screen.ts";
import { setWidthRule } from "../../tui/render/width.ts";
import { resolveTheme, setTheme, type ThemeChoice } from "../../tui/views/theme.ts";
import type { App } from "../../tui/app/app.ts";
import type { AppDeps } from "../../tui/app/app-deps.ts";
import { VERSION } from "../../version.ts";
import { editFile, editText } from "../../platform/editor.ts";
import { imagePasteCommand, pasteImage } from "../../platform/clipboard.ts";
import { EXIT } from "../shared/exit-codes.ts";
import type { RunOptions } from "../shared/run-options.ts";
import type { AgentSession, Asker, SessionOptions } from "../../agent/types.ts";
import { sessionOptions } from "../shared/session-options.ts";
import { forTerminal } from "../../text/terminal-out.ts";
import { onStopSignals } from "../shared/signals.ts";
import type { Demo } from "../../demo/start-demo.ts";
import type { AttachedStatusLine } from "./status-line.ts";
import { gitSync } from "../../workspace/git/run-git.ts";

const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF = "\x1b[?1000l\x1b[?1006l";

export async function runInteractive(opts: RunOptions): Promise<number> {
  const stdout = process.stdout;
  const { term, screen, theme } = await openScreen();

  // Typed while starting: kept for the composer.
  let early: InputEvent[] | null = [];
  const offEarly = term.onInput((evs) => early?.push(...evs));
  // The link's measure (src/tui/screen/link.ts): DA1 answers go to the screen (the app drops replies).
  term.onInput((evs) => {
    for (const e of evs) if (e.type === "reply" && e.kind === "device-attributes") screen.linkAnswered();
  });
  screen.measureLink();

  // The terminal layer's restore does not know about mouse reporting (on while the pager shows).
  let mouse = false;
  const mouseOffAtExit = () => {
    if (mouse) stdout.write(MOUSE_OFF);
  };
  process.on("exit", mouseOffAtExit);

  // The app (composer first) before the session: keys typed from here on edit the prompt while the
  // session opens (permissions, snapshots, the log); what is sent meanwhile runs once it is open.
  const [{ App: AppClass }, { toAppInput }, { FileFinder }, { historyPath, PromptHistory }, { keybindingsSource }, demoModule] = await Promise.all([
    import("../../tui/app/app.ts"),
    import("../../tui/app/app-input.ts"),
    import("../../tui/app/file-finder.ts"),
    import("../../tui/app/history.ts"),
    import("../../tui/app/keybinding-files.ts"),
    opts.demo ? import("../../demo/start-demo.ts") : null,
  ]);
  const demo = demoModule ? await demoModule.startDemo() : null;
  // The demo shows the permission panel: it runs in the default mode unless told otherwise.
  if (demo) opts = { ...opts, permissionMode: opts.permissionMode ?? "default" };
  const cwd = resolve(demo?.dir ?? opts.cwd ?? process.cwd());

  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((r) => (resolveExit = r));
  const unsubscribe: Array<() => void> = [];
  const leave = async (line: string | null, toStderr: string | null) => {
    for (const off of unsubscribe) off();
    await term.close();
    process.off("exit", mouseOffAtExit);
    if (line !== null) stdout.write(forTerminal(stdout, `${line}\n`));
    if (toStderr !== null) process.stderr.write(forTerminal(process.stderr, `khaelor: ${toStderr}\n`));
    await demo?.close();
  };

  // From the settings once the session is open (it reads them first).
  let notifications: NotificationMode = "auto";
  let statusLine: AttachedStatusLine | null = null;
  const app: App = new AppClass({
    session: null,
    screen,
    history: new PromptHistory(historyPath(cwd)),
    finder: new FileFinder(cwd),
    links: supportsLinks(process.env),
    keybindings: keybindingsSource(),
    reopen: async (resume, keep, fork) =>
      (await import("../../agent/agent-session.ts")).openAgentSession({
        ...sessionOptions({ ...opts, resume, continue: false, forkSession: fork !== undefined, resumeSessionAt: null, prompt: null, ...(keep ?? {}) }),
        ...(fork ? { forkBefore: fork.before } : {}),
        ...io,
        deferStart: true,
        ...(keep && !fork ? { startSource: "clear" as const } : {}),
      }),
    onPager(open) {
      term.altScreen = open;
      if (open === mouse) return;
      mouse = open;
      // Wheel events only while the pager is up: on the main screen the terminal keeps its own
      // scrolling and selection.
      term.write(open ? MOUSE_ON : MOUSE_OFF);
    },
    ...terminalDeps(term, theme, () => notifications),
    onSessionEvent: (e) => statusLine?.onEvent(e),
    onExit(code, line) {
      // The demo's project is a temporary copy, removed on the way out: its session cannot be
      // resumed, so the last line (how to resume) is replaced; the lines before it (stopped processes) stay.
      const said = demo ? [...line.split("\n").slice(0, -1), `Demo over; its sample project (${demo.dir}) was removed, so there is no session to resume.`].join("\n") : line;
      void leave(said, null).then(() => resolveExit(code));
    },
  });
  offEarly();
  unsubscribe.push(
    term.onInput((evs) => app.onInput(toAppInput(evs))),
    term.onResize((c, r) => app.onResize(Math.max(1, c), Math.max(1, r))),
    term.onResume(() => app.onResume()),
    term.onStopRequest(() => app.suspend()),
    // SIGTERM/SIGHUP/SIGINT: the terminal layer restores the terminal at once and re-raises; this
    // listener (still installed) then ends the session properly: processes stopped, log closed.
    onStopSignals((s) => void app.exit(s.code, s.reason), { secondExits: false }),
  );
  app.showStarting();
  const typed = toAppInput(early ?? []);
  early = null;
  if (typed.length) app.onInput(typed);

  // --resume without an id: the user picks the session here, in the app.
  if (opts.resume === "") {
    const picked = await pickSession(app, cwd);
    if (typeof picked !== "string") {
      app.abandon();
      await leave(null, null);
      // Another project's session was picked: how to resume it, once the terminal is back.
      if (picked?.say) process.stderr.write(forTerminal(process.stderr, `khaelor: ${picked.say}\n`));
      return EXIT.ok;
    }
    opts = { ...opts, resume: picked };
  }

  const ask: Asker = (req, signal) => app.askPermission(req, signal);
  const io: SessionOptions = { ask, sandboxOffers: true, trustQuestion: true, ...(demo ? { api: { baseURL: demo.api.url, apiKey: demo.apiKey }, cwd: demo.dir } : {}) };
  const { openAgentSession, SessionOpenError } = await import("../../agent/agent-session.ts");
  let session: AgentSession;
  try {
    session = await openAgentSession({ ...sessionOptions(opts), ...io });
  } catch (e) {
    app.abandon();
    await leave(null, e instanceof SessionOpenError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e));
    return EXIT.error;
  }
  notifications = await applySettings(app, session, theme);
  app.sessionOpened(session, {
    banner: bannerOf(session, demo, demoModule),
    firstPrompt: opts.prompt ?? (demoModule ? demoModule.DEMO_PROMPT : null),
    gitBranch: session.replayed?.header?.git?.branch ?? currentBranch(session.cwd),
  });
  statusLine = (await import("./status-line.ts")).attachStatusLine(app);
  unsubscribe.push(() => statusLine?.stop());
  statusLine.start();
  return exited;
}

/** Colours for the background the terminal reported; "theme" in settings may say otherwise once read. */
type Theme = { choice(): ThemeChoice; apply(choice: ThemeChoice): void };

/**
 * Raw mode, the capability queries and the restore-on-anything handlers start here; the first
 * frame (the "starting" line) does not wait for the terminal's answers.
 */
async function openScreen(): Promise<{ term: TerminalSession; screen: ReturnType<typeof createScreen>; theme: Theme }> {
  const stdout = process.stdout;
  // Colour depth comes from the environment only; synchronized output may still turn on when the
  // terminal answers (the screen reads its caps object at every frame).
  const envCaps = capsFromEnv(process.env);
  const opening = openTerminal();
  const screenCaps: ScreenCaps = { colorDepth: envCaps.colorDepth, syncOutput: envCaps.syncOutput, remote: envCaps.remote };
  // Frames go through the terminal session once it is open: it knows which link probes are still
  // unanswered when Ctrl-Z comes (an answer after the stop would reach the shell as typed text).
  let opened: TerminalSession | null = null;
  const output: ScreenOutput = {
    write: (d) => (opened ? opened.write(d) : stdout.write(d)),
    once: (event, l) => stdout.once(event, l),
    _refreshSize: () => (stdout as { _refreshSize?(): void })._refreshSize?.(),
  };
  // "auto" cursor: drawn as a cell while an answer streams (no cursor trip per frame), the real
  // cursor while typing and at rest (IME and screen readers follow it).
  const screen = createScreen({ output, caps: screenCaps, cursorStyle: "auto", cols: Math.max(1, stdout.columns || 80), rows: Math.max(1, stdout.rows || 24) });
  screen.setLive([{ spans: [{ text: `KHAELOR ${VERSION} starting…`, style: { dim: true } }] }], null);
  screen.frame();
  const term = (opened = await opening);
  screenCaps.syncOutput = term.caps.syncOutput;
  // Every row from here on is laid out with the widths this terminal uses (the starting line is ASCII).
  setWidthRule(term.caps.widths);
  let themeChoice: ThemeChoice = "auto";
  const theme: Theme = {
    choice: () => themeChoice,
    apply(choice) {
      themeChoice = choice;
      setTheme(resolveTheme(choice, term.caps.background, process.env), envCaps.colorDepth);
    },
  };
  theme.apply("auto");
  screen.resize(Math.max(1, term.cols), Math.max(1, term.rows));
  return { term, screen, theme };
}

/** What the app asks of the terminal and the machine: suspend, the editor, notifications, the theme, the clipboard. */
function terminalDeps(term: TerminalSession, theme: Theme, notifications: () => NotificationMode): Pick<AppDeps, "suspend" | "editText" | "editFile" | "answersIn" | "notify" | "themeChoice" | "changeTheme" | "copy" | "clipboardImage"> {
  return {
    suspend: () => term.suspend(),
    editText: (text) => term.handOver(() => editText(text)),
    editFile: (file) => term.handOver(() => editFile(file)),
    answersIn: () => term.answersIn(),
    notify: (what) => {
      const seq = notificationSequence("KHAELOR", what, notifications(), process.env, term.caps.inTmux);
      if (seq) term.write(seq);
    },
    themeChoice: () => theme.choice(),
    async changeTheme(choice) {
      theme.apply(choice);
      const resolved = resolveTheme(choice, term.caps.background, process.env);
      try {
        return { theme: resolved, choice, file: (await import("../../agent/config.ts")).saveUserSetting("theme", choice) };
      } catch (e) {
        return { theme: resolved, choice, file: null, error: (e as Error).message };
      }
    },
    copy: async (text) => (await import("../../tui/term/clipboard.ts")).copyToClipboard(text, { write: (d) => void term.write(d), env: process.env, inTmux: term.caps.inTmux }),
    ...clipboardImageDep(),
  };
}

/** The settings the app reads once the session is open (it reads them first); returns the notification mode. */
async function applySettings(app: App, session: AgentSession, theme: Theme): Promise<NotificationMode> {
  const { settings } = (await import("../../agent/config.ts")).loadSettings(session.cwd);
  if (settings.notifyAfterSeconds !== undefined) app.notifyAfterMs = settings.notifyAfterSeconds * 1000;
  if (settings.theme && settings.theme !== "auto") theme.apply(settings.theme);
  app.state.committer.wordWrap = settings.wrap !== "edge";
  if (settings.editorMode === "vim") app.state.vim = { mode: "insert", pending: "" };
  void noticeNewerRelease(app, settings.autoUpdates);
  return settings.notifications ?? "auto";
}

/** After the first frame and the session open: a newer release is one line in the transcript when the daily check answers. */
async function noticeNewerRelease(app: App, autoUpdates: boolean | undefined): Promise<void> {
  const line = await (await import("../../install/update-check.ts")).startUpdateCheck({ version: VERSION, autoUpdates: () => autoUpdates }).done;
  if (line === null) return;
  app.transcript.notice(line, "info");
  app.requestRender();
}

function bannerOf(session: AgentSession, demo: Demo | null, demoModule: { DEMO_BANNER: string } | null): string[] {
  const banner = [`KHAELOR ${VERSION} · ${session.model()} · ${session.cwd}`];
  if (demo && demoModule) banner.push(demoModule.DEMO_BANNER, `Sample project: ${demo.dir}`);
  return banner;
}

/** The sessions of this project in a chooser (typing searches them, Ctrl-A all projects); null when there are none (said on the way out) or the user leaves it; what to say when another project's session was picked. */
async function pickSession(app: App, cwd: string): Promise<string | { say: string } | null> {
  const [{ sessionChooser, elsewhereLine }, { describeSession }] = await Promise.all([import("../../tui/app/session-picker.ts"), import("../../tui/app/commands.ts")]);
  const chooser = sessionChooser(cwd, {
    leave: "leaves",
    describe: describeSession,
    skipped: (line) => {
      app.transcript.notice(line, "warn");
      app.requestRender();
    },
  });
  if (chooser.empty) {
    process.stderr.write(forTerminal(process.stderr, `khaelor: no sessions in ${cwd} to resume; run khaelor there to start one\n`));
    return null;
  }
  return new Promise<string | { say: string } | null>((resolve) =>
    app.choose(
      chooser.title,
      chooser.items,
      (value) => {
        const p = chooser.pick(value);
        // Another project's session opens there, not here: the way out says how.
        resolve(p?.kind === "here" ? p.id : p ? { say: elsewhereLine(p) } : null);
      },
      () => resolve(null),
      chooser.options,
    ),
  );
}

/**
 * OSC 8 hyperlinks, where the terminal is known to show them (others may print them raw). The
 * terminal layer's capabilities do not cover links, so this stays an environment check here.
 */
function supportsLinks(env: NodeJS.ProcessEnv): boolean {
  const prog = env.TERM_PROGRAM ?? "";
  return ["iTerm.app", "WezTerm", "vscode", "ghostty"].includes(prog) || !!env.KITTY_WINDOW_ID || !!env.WT_SESSION;
}

function currentBranch(cwd: string): string | null {
  const b = gitSync(["rev-parse", "--abbrev-ref", "HEAD"], { cwd, timeoutMs: 1000 })?.trim() ?? "";
  return b && b !== "HEAD" ? b : null;
}

/** Ctrl-V's clipboard image, where this machine has a command for it (the app says so otherwise). */
function clipboardImageDep(): { clipboardImage?: () => Promise<Buffer> } {
  const command = imagePasteCommand(process.platform, process.env);
  return command ? { clipboardImage: () => pasteImage(command, process.env) } : {};
}
