// Print mode: one task in (argument and/or stdin), the agent runs to completion, the answer (or
// json / stream-json) comes out on stdout, and the exit code says how it ended.
import { systemInit } from "../../print/system-init.ts";
import type { TurnEndReason } from "../../events/types.ts";
import { buildResult, createTally } from "../../print/result.ts";
import { jsonPrinter, streamJsonPrinter, textPrinter, type Printer } from "../../print/printer.ts";
import { modelInfo } from "../../model/models.ts";
import { EXIT, exitCodeFor } from "../shared/exit-codes.ts";
import type { RunOptions } from "../shared/run-options.ts";
import { openAgentSession, SessionOpenError } from "../../agent/agent-session.ts";
import { sessionOptions } from "../shared/session-options.ts";
import { printSessionList } from "./session-list.ts";
import { serverNotices } from "../../mcp/session-mcp.ts";
import { DEMO_BANNER, DEMO_PROMPT, startDemo } from "../../demo/start-demo.ts";
import { terminalWriter } from "../../text/terminal-out.ts";
import { mb, readStdin, STDIN_MAX_BYTES } from "./stdin.ts";

export async function runPrint(opts: RunOptions): Promise<number> {
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
    const read = await readStdin(prompt !== "");
    if (read.over) {
      stderr.write(`khaelor: the input on stdin is over ${mb(STDIN_MAX_BYTES)} (more than any model takes in one request); nothing was sent. Save it to a file and ask about it instead: KHAELOR reads the parts it needs.\n`);
      return EXIT.usage;
    }
    const piped = read.text.trimEnd();
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
  // Print mode's one built-in command wins over a file of that name, and says so (as the app does).
  const shadowed = session.slashCommands().find((c) => c.name === "compact");
  if (shadowed && /^\/compact(\s|$)/.test(prompt.trim())) stderr.write(`khaelor: /compact in ${shadowed.file} is not used: the built-in /compact wins (rename the file to use it)\n`);
  // A task bigger than the model's whole context would only come back as an error from the API,
  // after sending it: say so before, with the numbers.
  const window = modelInfo(session.model())?.contextWindow;
  const estimate = Math.ceil(prompt.length / 4);
  if (window !== undefined && estimate > window) {
    const why = `the task is ${mb(Buffer.byteLength(prompt))} (about ${estimate.toLocaleString("en-US")} tokens), more than ${session.model()} takes (${window.toLocaleString("en-US")} tokens); nothing was sent. Pass a smaller input, or save it to a file and ask about it: KHAELOR reads the parts it needs.`;
    stderr.write(`khaelor: ${why}\n`);
    await session.close();
    await demo?.close();
    if (opts.outputFormat !== "text") {
      const printer = opts.outputFormat === "json" ? jsonPrinter(stdout, { write: () => {} }) : streamJsonPrinter(stdout, false);
      printer.finish(buildResult({ tally: createTally(), reason: "error", text: "", errorMessage: why, sessionId: session.sessionId, durationMs: Date.now() - started }));
    }
    return EXIT.usage;
  }
  // init lists the MCP servers as they stand once started (or at the startup deadline); the first
  // request would wait for them anyway.
  await session.mcp.ready();
  const reported = new Set<string>();
  const reportFailures = () => {
    for (const n of serverNotices(session.mcp.servers())) {
      if (reported.has(n)) continue;
      reported.add(n);
      stderr.write(`khaelor: ${n}\n`);
    }
  };
  reportFailures();
  const offMcp = session.mcp.onChange(reportFailures);
  const printer: Printer =
    opts.outputFormat === "json"
      ? jsonPrinter(stdout, stderr)
      : opts.outputFormat === "stream-json"
        ? streamJsonPrinter(stdout, opts.includePartialMessages)
        : textPrinter(stdout, stderr, opts.verbose);
  const tally = createTally();
  printer.init(systemInit(session));
  session.subscribe((e) => {
    tally.observe(e);
    printer.onEvent(e);
  });

  // A closed terminal or a reader that went away (EIO, EPIPE) must not crash the run before the log is closed.
  for (const stream of [process.stdout, process.stderr])
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code !== "EIO" && e.code !== "EPIPE") throw e;
    });
  const controller = new AbortController();
  let signalExit: number | null = null;
  const onSignal = (code: number, reason: "sigint" | "sigterm" | "sighup") => () => {
    if (signalExit !== null) process.exit(code); // a second Ctrl-C: leave now
    signalExit = code;
    controller.abort(reason);
  };
  const onInt = onSignal(EXIT.sigint, "sigint");
  const onTerm = onSignal(EXIT.sigterm, "sigterm");
  const onHup = onSignal(EXIT.sighup, "sighup");
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
    offMcp();
    await session.close();
    await demo?.close();
  }
  printer.finish(buildResult({ tally, reason, text, errorMessage: message, sessionId: session.sessionId, durationMs: Date.now() - started }));
  if (signalExit !== null) return signalExit;
  return exitCodeFor(reason);
}
