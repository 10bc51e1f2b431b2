// Interactive mode: the terminal app. Sets the terminal up (raw keys, bracketed paste), opens the
// agent session with the permission panel as its Asker, and hands keys, resizes and agent events
// to the app. Leaves the terminal as it found it, with one line saying how to resume.
//
// The first frame comes before anything slow: only the screen is imported up front; the agent
// session (tree-sitter, permissions, git snapshots) and the app load behind a "starting" line.
import { spawnSync } from "node:child_process";
import type { ColorDepth } from "../tui/render/colors.ts";
import { createScreen } from "../tui/views/screen.ts";
import type { App } from "../tui/app/app.ts";
import { VERSION } from "../version.ts";
import { EXIT, type CliOptions } from "./args.ts";
import type { AgentSession } from "./agent-session.ts";
import type { Asker } from "./gate.ts";

/** A lone ESC is the Escape key once no more bytes follow within this time. */
const ESC_WAIT_MS = 30;

export async function runInteractive(opts: CliOptions): Promise<number> {
  if (opts.resume === "") return (await import("./sessions-command.ts")).printSessionList(opts, "Pass a session id (or a unique prefix) to --resume:");
  const stdin = process.stdin;
  const stdout = process.stdout;

  const cols = Math.max(1, stdout.columns || 80);
  const rows = Math.max(1, stdout.rows || 24);
  const screen = createScreen({ output: stdout, caps: { colorDepth: colorDepth(process.env), syncOutput: true, remote: !!process.env.SSH_CONNECTION }, cols, rows });
  let mouse = false;
  const restore = () => {
    let s = "\x1b[?2004l\x1b[?25h";
    if (mouse) s += "\x1b[?1000l\x1b[?1006l";
    stdout.write(s);
    if (stdin.isTTY) stdin.setRawMode(false);
    stdin.pause();
  };
  // Raw mode first: keys typed while starting wait for the composer instead of echoing.
  if (stdin.isTTY) stdin.setRawMode(true);
  stdout.write("\x1b[?2004h"); // bracketed paste
  screen.setLive([{ spans: [{ text: `KHAELOR ${VERSION} starting…`, style: { dim: true } }] }], null);
  screen.frame();
  const crash = (e: unknown) => {
    restore();
    process.stderr.write(`\nkhaelor: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(EXIT.error);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  const giveUp = (message: string) => {
    process.off("uncaughtException", crash);
    process.off("unhandledRejection", crash);
    screen.setLive([], null);
    screen.frame();
    screen.dispose();
    restore();
    process.stderr.write(`khaelor: ${message}\n`);
    return EXIT.error;
  };

  const [{ openAgentSession, SessionOpenError }, { DEMO_BANNER, DEMO_PROMPT, startDemo }, { preloadHighlighting }, { App: AppClass }, { FileFinder }, { historyPath, PromptHistory }, { InputDecoder }] =
    await Promise.all([
      import("./agent-session.ts"),
      import("./demo.ts"),
      import("../tui/markdown/index.ts"),
      import("../tui/app/app.ts"),
      import("../tui/app/file-finder.ts"),
      import("../tui/app/history.ts"),
      import("../tui/app/input.ts"),
    ]);

  const demo = opts.demo ? await startDemo() : null;
  // The demo shows the permission panel: it runs in the default mode unless told otherwise.
  if (demo) opts = { ...opts, permissionMode: opts.permissionMode ?? "default" };

  let app: App | null = null;
  const ask: Asker = (req, signal) => (app ? app.askPermission(req, signal) : Promise.resolve({ allow: false }));
  const io = { interactive: true, ask, ...(demo ? { api: { baseURL: demo.api.url, apiKey: demo.apiKey }, cwd: demo.dir } : {}) };
  const highlighting = preloadHighlighting().catch(() => []);

  let session: AgentSession;
  try {
    session = await openAgentSession(opts, io);
  } catch (e) {
    await demo?.close();
    if (e instanceof SessionOpenError) return giveUp(e.message);
    giveUp(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return EXIT.error;
  }
  // A resumed session's history is laid out once: wait for highlighting so it is laid out right.
  if (session.replayed) await highlighting;

  return new Promise<number>((resolveExit) => {
    const decoder = new InputDecoder();
    let escTimer: ReturnType<typeof setTimeout> | null = null;
    const onData = (chunk: Buffer | string) => {
      if (escTimer) {
        clearTimeout(escTimer);
        escTimer = null;
      }
      const events = decoder.feed(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
      if (events.length) app?.onInput(events);
      if (decoder.pending) {
        escTimer = setTimeout(() => {
          escTimer = null;
          const late = decoder.flush();
          if (late.length) app?.onInput(late);
        }, ESC_WAIT_MS);
      }
    };
    const onResize = () => app?.onResize(Math.max(1, stdout.columns || 80), Math.max(1, stdout.rows || 24));
    const onTerm = () => void app?.exit(EXIT.sigterm);

    app = new AppClass({
      session,
      screen,
      history: new PromptHistory(historyPath(session.cwd)),
      finder: new FileFinder(session.cwd),
      links: supportsLinks(process.env),
      gitBranch: session.replayed?.header?.git?.branch ?? currentBranch(session.cwd),
      reopen: (resume) => openAgentSession({ ...opts, resume, continue: false, forkSession: false, prompt: null }, io),
      setMouse(on) {
        if (on === mouse) return;
        mouse = on;
        // Wheel events only while the pager is up: on the main screen the terminal keeps its own
        // scrolling and selection.
        stdout.write(on ? "\x1b[?1000h\x1b[?1006h" : "\x1b[?1000l\x1b[?1006l");
      },
      onExit(code, line) {
        stdin.off("data", onData);
        stdout.off("resize", onResize);
        process.off("SIGTERM", onTerm);
        process.off("SIGHUP", onTerm);
        if (escTimer) clearTimeout(escTimer);
        restore();
        stdout.write(`${line}\n`);
        process.off("uncaughtException", crash);
        process.off("unhandledRejection", crash);
        void (demo?.close() ?? Promise.resolve()).then(() => resolveExit(code));
      },
    });
    stdin.on("data", onData);
    stdin.resume();
    stdout.on("resize", onResize);
    process.on("SIGTERM", onTerm);
    process.on("SIGHUP", onTerm);

    const banner = [`KHAELOR ${VERSION} · ${session.model()} · ${session.cwd}`];
    if (demo) banner.push(DEMO_BANNER, `Sample project: ${demo.dir}`);
    const first = opts.prompt ?? (demo ? DEMO_PROMPT : null);
    app.start(banner, null);
    if (first) void highlighting.then(() => app?.submit(first));
  });
}

function colorDepth(env: NodeJS.ProcessEnv): ColorDepth {
  if (env.NO_COLOR) return "none";
  if (env.COLORTERM === "truecolor" || env.COLORTERM === "24bit") return "truecolor";
  if ((env.TERM ?? "").includes("256color")) return "256";
  return "16";
}

/** OSC 8 hyperlinks, where the terminal is known to show them (others may print them raw). */
function supportsLinks(env: NodeJS.ProcessEnv): boolean {
  const prog = env.TERM_PROGRAM ?? "";
  return ["iTerm.app", "WezTerm", "vscode", "ghostty"].includes(prog) || !!env.KITTY_WINDOW_ID || !!env.WT_SESSION;
}

function currentBranch(cwd: string): string | null {
  try {
    const r = spawnSync("git", ["rev-parse", "--abbrev-ref", "HEAD"], { cwd, encoding: "utf8", timeout: 1000 });
    const b = r.status === 0 ? r.stdout.trim() : "";
    return b && b !== "HEAD" ? b : null;
  } catch {
    return null;
  }
}
