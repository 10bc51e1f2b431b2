// One turn: the prompt (a custom command expanded, with its model and allowed-tools for this turn
// only; UserPromptSubmit and SessionStart context after it) → the kernel → the result. The /undo
// snapshot brackets it: no undo point, no turn; its end snapshot stays on git's queue, so the
// answer's end shows without waiting for git. When the log cannot be written (a full disk) the
// turn stops at once with that error instead of going on with work that would not survive a restart.
import type { EventBus } from "../events/bus.ts";
import { newEventId } from "../events/id.ts";
import { runCommandTools } from "../extensions/command-tools.ts";
import type { CommandTrust } from "../extensions/command-trust.ts";
import type { loadSessionExtensions } from "../extensions/session-extensions.ts";
import { resetHookTurn, type HookTurn } from "../hooks/attach.ts";
import type { HookService } from "../hooks/hooks.ts";
import { runTurn } from "../kernel/loop.ts";
import type { KernelDeps, PermissionGate } from "../kernel/types.ts";
import { isEffortLevel, lowerEffort } from "../model/effort.ts";
import type { EffortLevel, UserBlock } from "../model/types.ts";
import type { FoundCommand } from "../extensions/session-extensions.ts";
import type { PermissionEngine } from "../permissions/index.ts";
import type { SessionWriteError, SessionWriter } from "../session/log.ts";
import type { ToolRuntime } from "../tools/types.ts";
import { explainFsError } from "../workspace/fs-errors.ts";
import type { GitProtection } from "../workspace/git/index.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import type { HookWiring } from "./hook-wiring.ts";
import type { SessionRecord } from "./session-record.ts";
import type { AgentTurnResult } from "./types.ts";

/** A log write that failed, and the turn it stops (set by the writer's error callback). */
export type WriteFailures = { failure: SessionWriteError | null; stop: (() => void) | null };

export type TurnDeps = {
  cwd: string;
  bus: EventBus;
  writer: SessionWriter;
  writes: WriteFailures;
  record: SessionRecord;
  git: GitProtection;
  shadowDir: string;
  /** Resolves when the MCP servers are up or past their startup deadline. */
  mcpReady(): Promise<void>;
  engine: PermissionEngine;
  tools: ToolRuntime;
  gate: PermissionGate;
  workspace: LocalWorkspace;
  extensions: ReturnType<typeof loadSessionExtensions>;
  commandTrust: CommandTrust;
  hooks: HookService;
  hookTurn: HookTurn;
  wiring: HookWiring;
  /** The session's effort level (a command's `effort` replaces it for its turn). */
  effort: { get(): EffortLevel | undefined; set(level: EffortLevel | undefined): void };
  /** What the kernel needs for this turn, built fresh (model, budgets, thinking). */
  kernel(): KernelDeps;
  /** Instructions the next prompt carries for the model (plan mode's), or null. */
  reminder?: () => string | null;
  /** The app's words for a full disk differ from print mode's. */
  interactive: boolean;
};

export type TurnRunner = {
  /** null: a turn for the notices waiting alone (AgentSession.wake). `messageId`: the user message's id (default: a new one); `display`: what the user typed (/init). */
  run(input: string | UserBlock[] | null, signal: AbortSignal, o?: { messageId?: string; display?: string }): Promise<AgentTurnResult>;
  /** The last turn's end snapshot, still on git's queue: close() waits for it. */
  ending(): Promise<unknown>;
  /** A turn is running (a rewind waits for its end). */
  running(): boolean;
};

export function createTurnRunner(d: TurnDeps): TurnRunner {
  let ending: Promise<unknown> = Promise.resolve();
  const unsaved = (e: SessionWriteError, keepInput: boolean): AgentTurnResult => {
    const message = writeFailureMessage(e, d.interactive);
    return { reason: "error", message, notSaved: message, keepInput, steps: 0, lastText: "" };
  };
  let running = 0;
  const runner: TurnRunner = {
    ending: () => ending,
    running: () => running > 0,
    async run(input, signal, o) {
      running++;
      try {
        return await runOne(input, signal, o?.messageId ?? newEventId(), o?.display);
      } finally {
        running--;
      }
    },
  };
  return runner;

  async function runOne(input: string | UserBlock[] | null, signal: AbortSignal, messageId: string, display?: string): Promise<AgentTurnResult> {
    // Events held back by a failed write go first; if they still cannot be written, this message waits too.
    if (d.writes.failure) {
      if (!d.writer.retry()) return unsaved(d.writer.failure ?? d.writes.failure, true);
      d.writes.failure = null;
    }
    const turn = new AbortController();
    const follow = () => turn.abort(signal.reason);
    signal.addEventListener("abort", follow, { once: true });
    d.writes.stop = follow;
    const release = () => {
      d.writes.stop = null;
      signal.removeEventListener("abort", follow);
    };
    // The message's id names the turn's snapshot: a rewind to it finds the work tree as it was.
    try {
      // The first request waits for the MCP servers, at most until their startup deadline.
      await Promise.all([d.git.beginTurn(messageId), d.mcpReady()]);
    } catch (e) {
      release();
      // No undo point, no turn: on a full disk the log would be the next thing to fail.
      const message = `${explainFsError(e, d.shadowDir, "the /undo snapshot in", "Free some space and send your message again.")}`;
      return { reason: "error", message, notSaved: message, keepInput: true, steps: 0, lastText: "" };
    }
    d.wiring.setTurnSignal(turn.signal);
    resetHookTurn(d.hookTurn);
    const prepared: Prepared = input === null ? { content: null, end: () => {} } : await preparePrompt(d, input, turn.signal);
    if ("stopped" in prepared) {
      release();
      await d.git.endTurn().catch(() => {});
      return prepared.stopped;
    }
    try {
      const r = await runTurn(d.kernel(), prepared.content, turn.signal, messageId, display);
      if (!d.writes.failure) return r;
      return { ...unsaved(d.writes.failure, d.record.discarding()), steps: r.steps, lastText: r.lastText };
    } finally {
      prepared.end();
      d.record.endTurn();
      release();
      // Not awaited: the answer's end shows without waiting for git (17-76 ms measured at the end
      // of a turn over a slow link, seconds in a big repository).
      ending = d.git.endTurn().catch((e: unknown) => {
        d.bus.emit({ type: "error", id: newEventId(), ts: Date.now(), kind: "snapshot", message: `/undo will not cover this turn: ${explainFsError(e, d.shadowDir, "its snapshot in")}` });
      });
    }
  }
}

type Prepared = { content: string | UserBlock[] | null; end(): void } | { stopped: AgentTurnResult };

/**
 * A custom command or skill becomes its prompt; its model and allowed-tools last this turn only
 * (end() takes them back). Then UserPromptSubmit may stop, block or add context, and the
 * SessionStart context goes with the first prompt.
 */
async function preparePrompt(d: TurnDeps, input: string | UserBlock[], signal: AbortSignal): Promise<Prepared> {
  const typed = typeof input === "string" ? input : input.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
  // Found in the text: a command sent with images (pasted beside it) is still the command.
  const expanded = d.extensions.find(typed);
  // A project command grants and picks the model only in a trusted project: never its own !`cmd`
  // lines in a fresh clone, nor the most expensive model.
  const trusted = expanded !== null && d.commandTrust.grants(expanded.trust);
  const grants = trusted ? expanded.allowedTools.filter((rule) => !d.engine.rules().some((r) => r.rule === rule && r.behavior === "allow" && r.scope === "session")) : [];
  for (const rule of grants) d.engine.grant(rule, "session");
  const modelBefore = d.record.model();
  const model = trusted ? expanded.model : undefined;
  if (model) d.record.overrideModel(model);
  const effortBefore = d.effort.get();
  const effort = commandEffort(expanded, trusted, effortBefore);
  if (effort) d.effort.set(effort);
  const end = () => {
    for (const rule of grants) d.engine.removeRule({ rule, behavior: "allow", scope: "session" });
    if (model) d.record.overrideModel(modelBefore);
    if (effort) d.effort.set(effortBefore);
  };
  const stopped = (r: AgentTurnResult): Prepared => {
    end();
    return { stopped: r };
  };
  // After the grants: a (trusted) command's allowed-tools are what let its !`cmd` lines run.
  let prompt: string | UserBlock[] = input;
  try {
    if (expanded) {
      const body = await expanded.expand(runCommandTools({ tools: d.tools, gate: d.gate, workspace: d.workspace, cwd: d.cwd, signal }));
      // The images go with the command's prompt, where the text they came with went.
      const images = typeof input === "string" ? [] : input.filter((b) => b.type !== "text");
      prompt = images.length === 0 ? body : [...images, ...(typeof body === "string" ? [{ type: "text" as const, text: body }] : body)];
    }
  } catch (e) {
    end();
    throw e;
  }
  // A hook on one of the command's own lines said continue:false: the prompt is not sent.
  if (d.hookTurn.reason !== null) return stopped({ reason: "hook_stopped", message: `A hook stopped this command: ${d.hookTurn.reason}`, steps: 0, lastText: "" });
  let content: string | UserBlock[] = prompt;
  if (d.hooks.has("UserPromptSubmit")) {
    const o = await d.hooks.run("UserPromptSubmit", undefined, { prompt: typed }, signal);
    if (o.stop) return stopped({ reason: "hook_stopped", message: `A UserPromptSubmit hook stopped this prompt: ${o.stop}`, steps: 0, lastText: "" });
    if (o.block) return stopped({ reason: "error", message: `A UserPromptSubmit hook blocked this prompt: ${o.block}`, keepInput: true, steps: 0, lastText: "" });
    if (o.context.length > 0) content = withContext(prompt, "UserPromptSubmit", o.context);
  }
  const start = d.wiring.takeStartContext();
  if (start.length > 0) content = withContext(content, "SessionStart", start);
  const reminder = d.reminder?.() ?? null;
  if (reminder !== null) content = [...(typeof content === "string" ? [{ type: "text" as const, text: content }] : content), { type: "text", text: reminder }];
  return { content, end };
}

/**
 * A command's or skill's `effort` for its turn. Effort is billed: a project's command raises it only
 * where its trust item holds (trusted), a project's skill (which has none) may only lower it, as a
 * project's effortLevel setting may (the API's default is high).
 */
function commandEffort(found: FoundCommand | null, trusted: boolean, before: EffortLevel | undefined): EffortLevel | undefined {
  const wanted = found?.effort;
  if (!found || !isEffortLevel(wanted)) return undefined;
  const mayRaise = !found.project || (trusted && found.entry.kind === "command");
  return mayRaise ? wanted : lowerEffort(wanted, before ?? "high");
}

/** The user's message with a hook's context after it, as a block the model reads as context. */
function withContext(input: string | UserBlock[], event: string, context: string[]): UserBlock[] {
  const blocks: UserBlock[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
  return [...blocks, { type: "text", text: `<system-reminder>\n${event} hook additional context:\n${context.join("\n")}\n</system-reminder>` }];
}

function writeFailureMessage(e: SessionWriteError, interactive: boolean): string {
  const todo = interactive
    ? "Free some space and send your message again: what is waiting is saved then."
    : "Free some space, then continue with khaelor --continue.";
  return `${e.message}. KHAELOR stopped so no more work goes unrecorded. ${todo}`;
}
