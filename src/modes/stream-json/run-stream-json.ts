// `khaelor -p --input-format stream-json --output-format stream-json`: the way the Claude Agent SDK
// and `claude -p` wrappers drive an agent. User messages arrive as NDJSON on stdin and run as turns,
// one after another in one session, each answered with its messages and a result; control requests
// (initialize, interrupt, set_permission_mode, set_model, ...) are answered as they arrive, also
// while a turn runs; with `--permission-prompt-tool stdio` permission asks go to the host as
// can_use_tool requests. End of input ends the session once the queued turns are done.
import { neutralizeControlsButLines } from "../../text/control-chars.ts";
import type { TurnEndReason } from "../../events/types.ts";
import type { UserBlock } from "../../model/types.ts";
import { streamJsonPrinter } from "../../print/printer.ts";
import { systemInit } from "../../print/system-init.ts";
import { buildResult, createTally } from "../../print/result.ts";
import { SessionOpenError } from "../../agent/agent-session.ts";
import type { AgentSession, PlanHandoff } from "../../agent/types.ts";
import { resolve } from "node:path";
import { EXIT } from "../shared/exit-codes.ts";
import type { RunOptions } from "../shared/run-options.ts";
import { runPrompt } from "../shared/session-commands.ts";
import { onStopSignals } from "../shared/signals.ts";
import { createControlChannel } from "./control.ts";
import { handleControl } from "./control-requests.ts";
import { hostAsker } from "./host-asker.ts";
import { launchOf, lazySession } from "./lazy-session.ts";
import { readHostInput } from "./read-input.ts";
import { turnQueue } from "./turn-queue.ts";

/** A host's message (with the host's own uuid for it), or (null) a wake-up for background agents' results. */
type Queued = { content: string | UserBlock[] | null; uuid: string | undefined };

export async function runStreamJson(opts: RunOptions): Promise<number> {
  const stderr = (s: string) => void process.stderr.write(`khaelor: ${s}\n`);
  let hostGone = false;
  const writeLine = (o: object) => {
    if (!hostGone) process.stdout.write(`${JSON.stringify(o)}\n`);
  };
  const printer = streamJsonPrinter({ write: (s) => void (hostGone || process.stdout.write(s)) }, opts.includePartialMessages, opts.replayUserMessages);
  const control = createControlChannel(writeLine);
  const saidOnce = new Set<string>();
  const once = (key: string, text: string) => {
    if (saidOnce.has(key)) return;
    saidOnce.add(key);
    stderr(text);
  };

  let sessionId = "";
  const cwd = resolve(opts.cwd ?? process.cwd());
  /** A line that could not be taken, as one event on stdout (and a line on stderr); reading goes on. */
  const invalid = (lineNo: number, error: string) => {
    stderr(`stdin line ${lineNo}: ${error}; skipped`);
    writeLine({ type: "system", subtype: "invalid_input", line: lineNo, error, session_id: sessionId });
  };

  // Permission asks: the host's canUseTool callback answers them when it asked for that.
  const stdioAsks = opts.permissionPromptTool === "stdio";
  if (opts.permissionPromptTool !== null && !stdioAsks)
    once("prompt-tool", `--permission-prompt-tool ${opts.permissionPromptTool}: only "stdio" is supported (MCP permission tools are not); calls that would ask are denied`);
  let current: AbortController | null = null;
  const interrupt = () => current?.abort();
  const ask = stdioAsks ? hostAsker({ control, cwd, once, interrupt }) : null;

  // The session opens at the first thing that needs it, so initialize's settings come first.
  let tally = createTally();
  const launch = launchOf(opts);
  const session = lazySession(opts, launch, ask, async (s) => {
    sessionId = s.sessionId;
    for (const n of s.notices) stderr(neutralizeControlsButLines(n));
    // As in print mode: init lists the --mcp-config servers once started (the first request waits for them anyway).
    await s.mcp.ready();
    printer.init(systemInit(s));
    s.subscribe((e) => {
      tally.observe(e);
      printer.onEvent(e);
    });
    // A background agent's result wakes the parent: a turn of its own, after whatever is queued.
    s.subagents.onNotice(() => queue.push({ content: null, uuid: undefined }));
  });

  const queue = turnQueue<Queued>();
  let signalExit: number | null = null;
  // Every end but the end of input is said on stderr; a second one exits at once.
  const stop = (code: number, why: string) => {
    if (signalExit !== null) process.exit(code);
    stderr(`${why}; ending the session`);
    signalExit = code;
    queue.clear();
    queue.end();
    interrupt();
  };
  const offSignals = onStopSignals((s) => stop(s.code, `stopped by ${s.name}`));
  // A host that stops reading (closed pipe) cannot see anything more: the turn stops, the log stays.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (hostGone) return;
    hostGone = true;
    stop(EXIT.error, `the host closed its end of our output (${e.code ?? e.message})`);
  });

  const reading = readHostInput(process.stdin as AsyncIterable<Uint8Array>, {
    user: (content, uuid) => queue.push({ content, uuid }),
    control: (line) => void handleControl(line, { opts, launch, session, control, cwd, once, interrupt, writeLine }),
    response: (line, lineNo) => {
      if (!control.settle(line)) invalid(lineNo, `control_response for ${line.response.request_id}, which is not an open request`);
    },
    invalid,
    refuse: (requestId, error) => writeLine({ type: "control_response", response: { subtype: "error", request_id: requestId, error } }),
    stopped: () => signalExit !== null,
  }).catch((e: unknown) => {
    // A read error, not the end of input: said, and the input counts as ended.
    if (signalExit === null) stderr(`could not read stdin: ${e instanceof Error ? e.message : String(e)}`);
  });
  void reading.finally(() => {
    control.closeAll("the host closed its input");
    queue.end();
  });

  // An approved plan's implementation, the next turn in the new session, before anything queued.
  let seeded: Queued | null = null;
  /** A plan approved for a clean context: a new session (the planning one closed, kept, resumable), said in a system line, and its first prompt. */
  const handOff = async (planning: AgentSession, h: PlanHandoff): Promise<Queued | null> => {
    let next: AgentSession;
    try {
      next = await session.renew();
    } catch (e) {
      stderr(`the approved plan's new session could not be opened (${e instanceof Error ? e.message : String(e)}); this session goes on`);
      return null;
    }
    await planning.close();
    writeLine({ type: "system", subtype: "plan_handoff", session_id: next.sessionId, planning_session_id: planning.sessionId, plan_file: h.planFile });
    return { content: h.prompt, uuid: undefined };
  };

  // At the end of input, agents still running in the background report first (as in print mode).
  const nextOrBackground = async (): Promise<Queued | null> => {
    if (seeded) {
      const q = seeded;
      seeded = null;
      return q;
    }
    const q = await queue.next();
    if (q) return q;
    const open = session.current();
    if (signalExit !== null || !open || open.subagents.running() === 0) return null;
    await open.subagents.idle();
    return { content: null, uuid: undefined };
  };
  const wakeFor = async (s: AgentSession, signal: AbortSignal) => {
    const r = await s.wake(signal);
    return r && { reason: r.reason, text: r.lastText, message: r.message };
  };
  let lastReason: TurnEndReason = "finished";
  try {
    for (let q = await nextOrBackground(); q; q = await nextOrBackground()) {
      let s: AgentSession;
      try {
        s = await session.get();
      } catch (e) {
        if (!(e instanceof SessionOpenError)) throw e;
        stderr(e.message);
        return e.usage ? EXIT.usage : EXIT.error;
      }
      tally = createTally();
      const started = Date.now();
      const turn = new AbortController();
      current = turn;
      const r = q.content === null ? await wakeFor(s, turn.signal) : await runPrompt(s, q.content, turn.signal, q.uuid);
      current = null;
      if (!r) continue;
      lastReason = r.reason;
      printer.finish(buildResult({ tally, reason: r.reason, text: r.text, errorMessage: r.message, sessionId: s.sessionId, durationMs: Date.now() - started }));
      if ("planHandoff" in r && r.planHandoff && signalExit === null) seeded = await handOff(s, r.planHandoff);
    }
  } finally {
    offSignals();
    await session.current()?.close();
  }
  if (signalExit !== null) return signalExit;
  // Each turn's result already says how it ended; the exit code only flags a run that failed.
  return lastReason === "error" || lastReason === "strikes" ? EXIT.error : EXIT.ok;
}
