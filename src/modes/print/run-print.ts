// Print mode: one task in (argument and/or stdin), the agent runs to completion, the answer (or
// json / stream-json) comes out on stdout, and the exit code says how it ended.
import { neutralizeControlsButLines } from "../../text/control-chars.ts";
import { systemInit } from "../../print/system-init.ts";
import type { TurnEndReason } from "../../events/types.ts";
import type { AgentSession } from "../../agent/types.ts";
import { buildResult, createTally } from "../../print/result.ts";
import { jsonPrinter, streamJsonPrinter, textPrinter, type Printer } from "../../print/printer.ts";
import { modelInfo } from "../../model/models.ts";
import { EXIT, exitCodeFor } from "../shared/exit-codes.ts";
import type { RunOptions } from "../shared/run-options.ts";
import { openAgentSession, SessionOpenError } from "../../agent/agent-session.ts";
import { sessionOptions } from "../shared/session-options.ts";
import { printSessionList } from "./session-list.ts";
import { serverNotices } from "../../mcp/session-mcp.ts";
import { terminalWriter } from "../../text/terminal-out.ts";
import { runPrompt, sessionCommandOf, shadowedCommandNotice } from "../shared/session-commands.ts";
import { onStopSignals } from "../shared/signals.ts";
import { mb, readStdin, STDIN_MAX_BYTES } from "./stdin.ts";

type TextWriter = { write(s: string): void };

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

  // Loaded only for --demo: its script and the fake API are not parsed at every start.
  const demoModule = opts.demo ? await import("../../demo/start-demo.ts") : null;
  const demo = demoModule ? await demoModule.startDemo() : null;
  if (demo && demoModule) {
    stderr.write(`${demoModule.DEMO_BANNER}\nSample project: ${demo.dir}\n\n`);
    opts = { ...opts, permissionMode: opts.permissionMode ?? "bypassPermissions" };
  }
  const prompt = await readTask(opts, demoModule ? { prompt: demoModule.DEMO_PROMPT } : null, stderr);
  if (typeof prompt === "number") return prompt;

  let session;
  try {
    // Nobody to ask: a call a rule says to ask about is denied.
    session = await openAgentSession({ ...sessionOptions(opts), ...(demo ? { api: { baseURL: demo.api.url, apiKey: demo.apiKey }, cwd: demo.dir } : {}) });
  } catch (e) {
    if (e instanceof SessionOpenError) {
      stderr.write(`khaelor: ${e.message}\n`);
      await demo?.close();
      // A stream-json or json reader waits for its result line, even when no session could start.
      if (!e.usage) finishRefused(opts, stdout, e.message, "", started);
      return e.usage ? EXIT.usage : EXIT.error;
    }
    throw e;
  }

  for (const n of session.notices) stderr.write(`khaelor: ${neutralizeControlsButLines(n)}\n`);
  // Print mode's one built-in command wins over a file of that name, and says so (as the app does).
  const shadowed = shadowedCommandNotice(session, prompt);
  if (shadowed) stderr.write(`khaelor: ${shadowed}\n`);
  const tooLarge = taskTooLarge(session, prompt);
  if (tooLarge) {
    stderr.write(`khaelor: ${tooLarge}\n`);
    await session.close();
    await demo?.close();
    finishRefused(opts, stdout, tooLarge, session.sessionId, started);
    return EXIT.usage;
  }
  // init lists the MCP servers as they stand once started (or at the startup deadline); the first
  // request would wait for them anyway.
  await session.mcp.ready();
  const offMcp = reportServerFailures(session, stderr);
  const printer = printerFor(opts, stdout, stderr);
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
  const offSignals = onStopSignals((s) => {
    signalExit = s.code;
    controller.abort(s.reason);
  });

  let reason: TurnEndReason;
  let message: string | undefined;
  let text = "";
  try {
    const r = await runPrompt(session, prompt, controller.signal);
    ({ reason, message, text } = r);
    if (r.notSaved) stderr.write(`khaelor: ${r.notSaved}\n`);
    // Agents the model ran in the background report back: the run waits for them, and the model
    // answers their results, before the result line.
    while (reason === "finished" && !controller.signal.aborted && (session.subagents.running() > 0 || session.subagents.pending() > 0)) {
      await Promise.race([session.subagents.idle(), new Promise((res) => controller.signal.addEventListener("abort", res, { once: true }))]);
      const w = controller.signal.aborted ? null : await session.wake(controller.signal);
      if (!w) break;
      reason = w.reason;
      message = w.message;
      text = w.lastText || text;
    }
  } catch (e) {
    // Whatever went wrong, the reader still gets its result line and one sentence, not a stack.
    reason = "error";
    message = e instanceof Error ? e.message : String(e);
    stderr.write(`khaelor: ${message}\n`);
  } finally {
    offSignals();
    offMcp();
    await session.close();
    await demo?.close();
  }
  // --json-schema: the answer is the object the model gave through StructuredOutput, as Claude Code's result.
  const structured = opts.jsonSchema ? session.structuredOutput?.() : undefined;
  if (opts.jsonSchema && reason === "finished") {
    if (structured === undefined) [reason, message] = ["error", "the model gave no answer matching --json-schema (it did not call StructuredOutput with a valid object, reminded once)"];
    else text = JSON.stringify(structured);
  }
  printer.finish(buildResult({ tally, reason, text, errorMessage: message, sessionId: session.sessionId, durationMs: Date.now() - started, ...(structured !== undefined ? { structuredOutput: structured } : {}) }));
  if (signalExit !== null) return signalExit;
  return exitCodeFor(reason);
}

/** The task: the argument and/or stdin (or the demo's); an exit code when there is none to run. */
async function readTask(opts: RunOptions, demo: { prompt: string } | null, stderr: TextWriter): Promise<string | number> {
  let prompt = opts.prompt ?? (demo ? demo.prompt : "");
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
  if (sessionCommandOf(prompt)?.name === "compact" && !opts.continue && opts.resume === null) {
    stderr.write("khaelor: /compact works on an existing session: add --continue or --resume <id>\n");
    return EXIT.usage;
  }
  return prompt;
}

/**
 * A task bigger than the model's whole context would only come back as an error from the API,
 * after sending it: said before, with the numbers.
 */
function taskTooLarge(session: AgentSession, prompt: string): string | null {
  const window = modelInfo(session.model())?.contextWindow;
  const estimate = Math.ceil(prompt.length / 4);
  if (window === undefined || estimate <= window) return null;
  return `the task is ${mb(Buffer.byteLength(prompt))} (about ${estimate.toLocaleString("en-US")} tokens), more than ${session.model()} takes (${window.toLocaleString("en-US")} tokens); nothing was sent. Pass a smaller input, or save it to a file and ask about it: KHAELOR reads the parts it needs.`;
}

/** A json or stream-json reader waits for its result line: it gets one for a run refused before it started. */
function finishRefused(opts: RunOptions, stdout: TextWriter, why: string, sessionId: string, started: number) {
  if (opts.outputFormat === "text") return;
  const printer = opts.outputFormat === "json" ? jsonPrinter(stdout, { write: () => {} }) : streamJsonPrinter(stdout, false);
  printer.finish(buildResult({ tally: createTally(), reason: "error", text: "", errorMessage: why, sessionId, durationMs: Date.now() - started }));
}

function printerFor(opts: RunOptions, stdout: TextWriter, stderr: TextWriter): Printer {
  if (opts.outputFormat === "json") return jsonPrinter(stdout, stderr);
  if (opts.outputFormat === "stream-json") return streamJsonPrinter(stdout, opts.includePartialMessages);
  return textPrinter(stdout, stderr, opts.verbose);
}

/** Each MCP server failure once on stderr, now and as servers change; returns the unsubscribe. */
function reportServerFailures(session: AgentSession, stderr: TextWriter): () => void {
  const reported = new Set<string>();
  const report = () => {
    for (const n of serverNotices(session.mcp.servers())) {
      if (reported.has(n)) continue;
      reported.add(n);
      stderr.write(`khaelor: ${n}\n`);
    }
  };
  report();
  return session.mcp.onChange(report);
}
