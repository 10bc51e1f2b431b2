// Print mode: one task in (argument and/or stdin), the agent runs to completion, the answer (or
// json / stream-json) comes out on stdout, and the exit code says how it ended.
import { fstatSync } from "node:fs";
import type { TurnEndReason } from "../events/types.ts";
import { buildResult, createTally } from "../print/result.ts";
import { jsonPrinter, streamJsonPrinter, textPrinter, type Printer } from "../print/printer.ts";
import { EXIT, type CliOptions } from "./args.ts";
import { openAgentSession, SessionOpenError } from "../agent/agent-session.ts";
import { sessionOptions } from "./session-options.ts";
import { printSessionList } from "./sessions-command.ts";
import { DEMO_BANNER, DEMO_PROMPT, startDemo } from "./demo.ts";
import { terminalWriter } from "../text/terminal-out.ts";

export async function runPrint(opts: CliOptions): Promise<number> {
  const started = Date.now();
  // On a terminal, controls in the answer or in a notice become visible stand-ins; piped, byte-exact.
  const stdout = terminalWriter(process.stdout);
  const stderr = terminalWriter(process.stderr);

  if (opts.resume === "") {
    if (opts.prompt) {
      stderr.write("khaelor: --resume needs a session id in print mode (khaelor sessions lists them), or use --continue\n");
      return EXIT.usage;
    }
    return printSessionList(opts, "Pass a session id (or a unique prefix) to --resume:");
  }

  const demo = opts.demo ? await startDemo() : null;
  if (demo) {
    stderr.write(`${DEMO_BANNER}\nSample project: ${demo.dir}\n\n`);
    opts = { ...opts, permissionMode: opts.permissionMode ?? "bypassPermissions" };
  }
  let prompt = opts.prompt ?? (demo ? DEMO_PROMPT : "");
  if (!process.stdin.isTTY && !demo) {
    const piped = (await readStdin(prompt !== "")).trimEnd();
    prompt = prompt && piped ? `${prompt}\n\n${piped}` : prompt || piped;
  }
  if (!prompt.trim()) {
    // A TTY with TERM=dumb lands here without -p: say why, or the user is left guessing.
    const why = !opts.print && process.stdin.isTTY && process.stdout.isTTY && process.env.TERM === "dumb" ? "TERM=dumb, so khaelor runs in print mode, which needs a task: " : "no task: ";
    stderr.write(`khaelor: ${why}pass it after -p (khaelor -p "fix the failing test") or pipe it on stdin\n`);
    return EXIT.usage;
  }

  if (/^\/compact\b/.test(prompt.trim()) && !opts.continue && opts.resume === null) {
    stderr.write("khaelor: /compact works on an existing session: add --continue or --resume <id>\n");
    return EXIT.usage;
  }

  let session;
  try {
    // Nobody to ask: a call a rule says to ask about is denied.
    session = await openAgentSession({ ...sessionOptions(opts), ...(demo ? { api: { baseURL: demo.api.url, apiKey: demo.apiKey }, cwd: demo.dir } : {}) });
  } catch (e) {
    if (e instanceof SessionOpenError) {
      stderr.write(`khaelor: ${e.message}\n`);
      await demo?.close();
      // A stream-json or json reader waits for its result line, even when no session could start.
      if (!e.usage && opts.outputFormat !== "text") {
        const printer = opts.outputFormat === "json" ? jsonPrinter(stdout, { write: () => {} }) : streamJsonPrinter(stdout, false);
        printer.finish(buildResult({ tally: createTally(), reason: "error", text: "", errorMessage: e.message, sessionId: "", durationMs: Date.now() - started }));
      }
      return e.usage ? EXIT.usage : EXIT.error;
    }
    throw e;
  }

  for (const n of session.notices) stderr.write(`khaelor: ${n}\n`);
  const printer: Printer =
    opts.outputFormat === "json"
      ? jsonPrinter(stdout, stderr)
      : opts.outputFormat === "stream-json"
        ? streamJsonPrinter(stdout, opts.includePartialMessages)
        : textPrinter(stdout, stderr, opts.verbose);
  const tally = createTally();
  printer.init({ sessionId: session.sessionId, model: session.model(), tools: [...session.toolNames], cwd: session.cwd, permissionMode: session.permissionMode() });
  session.subscribe((e) => {
    tally.observe(e);
    printer.onEvent(e);
  });

  const controller = new AbortController();
  let signalExit: number | null = null;
  const onSignal = (code: number) => () => {
    if (signalExit !== null) process.exit(code); // a second Ctrl-C: leave now
    signalExit = code;
    controller.abort();
  };
  const onInt = onSignal(EXIT.sigint);
  const onTerm = onSignal(EXIT.sigterm);
  const onHup = onSignal(EXIT.sighup);
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);

  let reason: TurnEndReason;
  let message: string | undefined;
  let text = "";
  try {
    const compact = /^\/compact(\s+([\s\S]*))?$/.exec(prompt.trim());
    if (compact) {
      const ok = await session.compact(compact[2]?.trim() || undefined, controller.signal);
      reason = ok ? "finished" : "error";
      text = ok ? "Compacted the conversation." : "";
      message = ok ? undefined : "nothing to compact";
    } else {
      const r = await session.runTurn(prompt, controller.signal);
      reason = r.reason;
      message = r.message;
      text = r.lastText;
      if (r.notSaved) stderr.write(`khaelor: ${r.notSaved}\n`);
    }
  } catch (e) {
    // Whatever went wrong, the reader still gets its result line and one sentence, not a stack.
    reason = "error";
    message = e instanceof Error ? e.message : String(e);
    stderr.write(`khaelor: ${message}\n`);
  } finally {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onHup);
    await session.close();
    await demo?.close();
  }
  printer.finish(buildResult({ tally, reason, text, errorMessage: message, sessionId: session.sessionId, durationMs: Date.now() - started }));
  if (signalExit !== null) return signalExit;
  return exitCodeFor(reason);
}

export function exitCodeFor(reason: TurnEndReason): number {
  switch (reason) {
    case "finished":
      return EXIT.ok;
    case "max_turns":
      return EXIT.maxTurns;
    case "max_budget":
    case "wall_time":
      return EXIT.budget;
    case "doom_loop":
      return EXIT.doomLoop;
    case "cancelled":
      return EXIT.sigint;
    default:
      return EXIT.error;
  }
}

/** How long a pipe may stay silent before we decide nothing is coming, when the task was given as an argument. */
const STDIN_GRACE_MS = 1500;

/**
 * The task (or extra input) from stdin. With a task already on the command line, stdin is only
 * extra context, and a parent that leaves an empty pipe open (CI runners, ssh, spawn) must not
 * hang us: a pipe that sends nothing within a grace period is ignored. Files are read whole.
 */
async function readStdin(optional: boolean): Promise<string> {
  let kind: "file" | "pipe" | "other" = "other";
  try {
    const st = fstatSync(0);
    kind = st.isFile() ? "file" : st.isFIFO() || st.isSocket() ? "pipe" : "other";
  } catch {
    return "";
  }
  if (kind === "other") return "";
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve) => {
    process.stdin.on("data", (c: Buffer) => chunks.push(c));
    process.stdin.on("end", resolve);
    process.stdin.on("error", () => resolve());
  });
  if (!optional || kind === "file") {
    await done;
  } else {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
    const silent = new Promise<"silent">((resolve) => (timer = setTimeout(() => resolve("silent"), STDIN_GRACE_MS)));
    const outcome = await Promise.race([first, done, silent]);
    clearTimeout(timer);
    if (outcome === "silent") {
      process.stdin.pause();
      process.stdin.destroy();
      return "";
    }
    await done;
  }
  return Buffer.concat(chunks).toString("utf8");
}
