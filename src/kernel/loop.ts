// The agent loop: query → execute → observe, until the model ends its turn without tool calls.
// Non-linear endings (budget, cancel, doom loop, too many malformed calls) are one small family of
// outcomes; recovery and nudging live in policies around the loop, not inside it.
import { newEventId } from "../events/id.ts";
import type { AgentEvent, DurableEvent, TurnEndReason, UserMessageEvent } from "../events/types.ts";
import { ModelError, type AssistantMessage, type ToolUseBlock, type UserBlock } from "../model/types.ts";
import type { ToolCall, ToolDisplay, ToolOutcome } from "../tools/types.ts";
import type { KernelDeps, PolicyVerdict } from "./types.ts";

export type TurnResult = {
  reason: TurnEndReason;
  /** Human-readable detail for anything but "finished". */
  message?: string;
  /** Assistant messages produced in this turn. */
  steps: number;
  /** The text of the last assistant message (the answer). */
  lastText: string;
};

/** Ends the loop from anywhere inside it; carries why. */
class TurnEnd extends Error {
  constructor(
    readonly reason: TurnEndReason,
    message = "",
  ) {
    super(message);
  }
}

const DEFAULT_STRIKES = 3;

const SIGNAL_REASONS = new Set<unknown>(["sigint", "sigterm", "sighup"]);

/**
 * `input` null: a turn woken by notices alone (a background subagent's result), no user message.
 * `messageId`: the id the user's message takes (the session names its turn's snapshot by it before the turn runs).
 * `display`: what the user typed when `input` is a prompt made from it (/init, /review), kept on the message for the transcript.
 */
export async function runTurn(deps: KernelDeps, input: string | UserBlock[] | null, signal: AbortSignal, messageId?: string, display?: string): Promise<TurnResult> {
  const started = Date.now();
  const policies = deps.policies ?? [];
  const budgets = deps.budgets ?? {};
  const durable: Durable = (e) => deps.emit({ ...e, id: newEventId(), ts: Date.now() } as AgentEvent);
  const userMessage = (content: string | UserBlock[], extra: Pick<UserMessageEvent, "steering" | "synthetic"> = {}) =>
    durable({ type: "user_message", content, ...extra });

  let steps = 0;
  let strikes = 0;
  let lastText = "";

  const checkBudgets = () => {
    if (signal.aborted) throw new TurnEnd("cancelled", "cancelled by the user");
    if (budgets.maxTurns !== undefined && steps >= budgets.maxTurns)
      throw new TurnEnd("max_turns", `reached the limit of ${budgets.maxTurns} turns`);
    const cost = deps.costSoFar?.() ?? 0;
    if (budgets.maxBudgetUsd !== undefined && cost >= budgets.maxBudgetUsd)
      throw new TurnEnd("max_budget", `spent $${cost.toFixed(4)} of the $${budgets.maxBudgetUsd} budget`);
    if (budgets.wallTimeMs !== undefined && Date.now() - started >= budgets.wallTimeMs)
      throw new TurnEnd("wall_time", `ran for longer than ${budgets.wallTimeMs} ms`);
  };

  const apply = (verdict: PolicyVerdict | undefined): boolean => {
    if (!verdict || verdict.kind === "continue") return false;
    if (verdict.kind === "stop") throw new TurnEnd(verdict.reason, verdict.message);
    userMessage(verdict.text, { synthetic: verdict.tag });
    return true;
  };

  /** Policies in order; the first that sends the model back wins, and the later ones are not asked. */
  const sentBack = async (list: typeof policies): Promise<boolean> => {
    for (const p of list) if (apply(await p.onStop?.())) return true;
    return false;
  };

  /** Notices (a process exited) and messages typed while we worked: delivered at a boundary. */
  const deliverNotices = (): number => {
    const notices = deps.takeNotices?.() ?? [];
    for (const n of notices) userMessage(n, { synthetic: "process_exit" });
    const agents = deps.takeAgentNotices?.() ?? [];
    for (const n of agents) userMessage(n, { synthetic: "agent" });
    return notices.length + agents.length;
  };
  const deliverQueued = (): boolean => {
    const steering = deps.takeSteering?.() ?? [];
    for (const s of steering) userMessage(s, { steering: true });
    return deliverNotices() + steering.length > 0;
  };

  // What happened while the user was away comes first, so the answer is to the user's message.
  deliverNotices();
  if (input !== null) {
    if (messageId) deps.emit({ type: "user_message", content: input, id: messageId, ts: Date.now(), ...(display !== undefined ? { display } : {}) });
    else userMessage(input);
  }
  for (const p of policies) p.onUserTurn?.();

  let result: TurnResult;
  try {
    for (;;) {
      checkBudgets();
      if (deps.context.needsCompaction()) await deps.context.compact("auto", signal);
      const message = await query(deps, signal, durable);
      steps++;
      lastText = textOf(message) || lastText;
      const calls = message.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
      if (calls.length === 0) {
        // The API paused a long run of its own tools (web searches): sending the message back resumes it.
        if (message.stop_reason === "pause_turn") continue;
        if (deliverQueued()) continue;
        if (await sentBack(policies)) continue;
        break;
      }
      // Output cut at max_tokens ends inside the last call's input: it must not run half-written.
      const truncated = message.stop_reason === "max_tokens" ? calls.at(-1)?.id : undefined;
      const outcomes = await executeAll(deps, calls, signal, truncated);
      strikes = outcomes.every((o) => o.malformed) ? strikes + 1 : 0;
      if (strikes >= (budgets.maxStrikes ?? DEFAULT_STRIKES))
        throw new TurnEnd("strikes", `the model made ${strikes} malformed tool calls in a row`);
      if (signal.aborted) throw new TurnEnd("cancelled", "cancelled by the user");
      for (const p of policies) apply(p.afterTools?.(calls, outcomes));
      deliverQueued();
    }
    result = { reason: "finished", steps, lastText };
  } catch (e) {
    if (e instanceof TurnEnd) result = { reason: e.reason, message: e.message, steps, lastText };
    else {
      const message = e instanceof Error ? e.message : String(e);
      durable({ type: "error", kind: e instanceof ModelError ? e.kind : "internal", message });
      result = { reason: "error", message, steps, lastText };
    }
  }
  // Who stopped it: a signal's name when the abort carried one (the terminal closed, kill), else the user.
  if (result.reason === "cancelled") durable({ type: "interruption", reason: SIGNAL_REASONS.has(signal.reason) ? signal.reason : "user" });
  durable({ type: "turn_end", reason: result.reason });
  return result;
}

/** A durable event before it is stamped with an id and time. */
type NewEvent = DurableEvent extends infer E ? (E extends DurableEvent ? Omit<E, "id" | "ts"> : never) : never;
type Durable = (e: NewEvent) => void;

/** One model call, streamed. A context overflow is compacted and retried once. */
async function query(deps: KernelDeps, signal: AbortSignal, durable: Durable): Promise<AssistantMessage> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await streamOnce(deps, signal, durable);
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      if (e.kind === "aborted") {
        if (e.partial.length > 0 || e.usage) {
          // An interrupted call is still billed for what the API reported before the stop.
          const model = deps.modelName();
          const usage = e.usage ?? { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
          durable({
            type: "assistant_message",
            interrupted: true,
            costUsd: deps.costOf?.(model, usage) ?? null,
            message: { id: "", model, content: e.partial, stop_reason: null, usage },
          });
        }
        throw new TurnEnd("cancelled", "cancelled by the user");
      }
      if (e.kind === "overflow" && attempt === 0 && (await deps.context.compact("overflow", signal))) continue;
      throw e;
    }
  }
}

async function streamOnce(deps: KernelDeps, signal: AbortSignal, durable: Durable): Promise<AssistantMessage> {
  const stream = deps.model.stream({
    model: deps.modelName(),
    system: deps.system(),
    messages: deps.context.messages(),
    tools: deps.tools.specs(),
    ...(deps.serverTools ? { serverTools: deps.serverTools() } : {}),
    maxTokens: deps.maxTokens,
    thinkingBudget: deps.thinkingBudget,
    ...(deps.effort ? { effort: deps.effort } : {}),
    ...(deps.fallbackModel ? { fallbackModel: deps.fallbackModel } : {}),
    signal,
  });
  for await (const ev of stream) {
    switch (ev.type) {
      case "message_done": {
        const costUsd = deps.costOf?.(ev.message.model, ev.message.usage) ?? null;
        durable({ type: "assistant_message", message: ev.message, costUsd });
        return ev.message;
      }
      case "retry":
        deps.emit({ type: "api_retry", attempt: ev.attempt, maxRetries: ev.maxRetries, delayMs: ev.delayMs, status: ev.status, message: ev.message, partialDiscarded: ev.partialDiscarded });
        break;
      default:
        deps.emit(ev);
    }
  }
  throw new ModelError("retryable", "the model stream ended without a complete message");
}

type Outcome = { isError: boolean; malformed: boolean };

/**
 * Runs the calls of one assistant message; every tool_use gets exactly one result, emitted in the
 * calls' order. Calls of a tool that says so (`concurrent`: the agent tool) start at once and run
 * side by side; the others run one after another, as the model wrote them.
 */
async function executeAll(deps: KernelDeps, calls: ToolUseBlock[], signal: AbortSignal, truncatedId?: string): Promise<Outcome[]> {
  let chain: Promise<unknown> = Promise.resolve();
  const runs = calls.map((block) => {
    const call: ToolCall = { id: block.id, name: block.name, input: block.input };
    const one = async (): Promise<ToolOutcome> =>
      signal.aborted
        ? { ...unrun(deps, call, "Cancelled by the user before this tool ran.", "error"), interrupted: true as const }
        : call.id === truncatedId
          ? unrun(
              deps,
              call,
              `Your response reached the output limit (max_tokens) while writing this ${call.name} call, so its input is incomplete and it was not run. Make the call again with less input: for a large file, write the first part, then add the rest with edit.`,
              "invalid_input",
              { notes: "the answer hit the output-token limit while writing this call, so it was not run; the agent was told to retry with less input", body: 0 },
            )
          : await execute(deps, call, signal);
    if (call.id !== truncatedId && deps.tools.describe(call)?.concurrent) return { call, outcome: one() };
    const outcome = chain.then(one);
    chain = outcome.catch(() => {});
    return { call, outcome };
  });
  const outcomes: Outcome[] = [];
  for (const { call, outcome } of runs) {
    const r = await outcome;
    deps.emit({
      type: "tool_result",
      id: newEventId(),
      ts: Date.now(),
      toolUseId: call.id,
      name: call.name,
      content: r.content,
      isError: r.isError,
      kind: r.kind,
      summary: r.summary,
      ...(r.display ? { display: r.display } : {}),
      ...(r.isError ? { interrupted: r.interrupted === true } : {}),
      durationMs: r.durationMs,
    });
    outcomes.push({ isError: r.isError, malformed: r.kind === "unknown_tool" || r.kind === "invalid_input" });
  }
  return outcomes;
}

/** One call: parsed and planned once; unknown tools, invalid input and calls that cannot succeed are answered without asking anyone. */
async function execute(deps: KernelDeps, call: ToolCall, signal: AbortSignal): Promise<ToolOutcome> {
  const ctx = { workspace: deps.workspace, signal, onProgress: (chunk: string) => deps.emit({ type: "tool_progress", toolUseId: call.id, chunk }) };
  const prepared = await deps.tools.prepare(call, ctx);
  // An unknown tool's row is named by what the model called.
  const summary = prepared.ok ? prepared.summary : prepared.outcome.kind === "unknown_tool" ? call.name : prepared.outcome.summary;
  const preview = prepared.ok ? prepared.preview : undefined;
  deps.emit({ type: "tool_start", toolUseId: call.id, name: call.name, summary, ...(prepared.facts ? { facts: prepared.facts } : {}), ...(preview ? { preview } : {}) });
  if (!prepared.ok) return prepared.outcome;
  const decision = await deps.gate.authorize(prepared, signal);
  if (!decision.allow) return { content: decision.message, isError: true, kind: "error", summary, durationMs: 0 };
  return prepared.run();
}

/** The answer to a call that is not run at all. */
function unrun(deps: KernelDeps, call: ToolCall, content: string, kind: "error" | "invalid_input", display?: ToolDisplay): ToolOutcome {
  const summary = deps.tools.describe(call)?.summary ?? call.name;
  return { content, isError: true, kind, summary, durationMs: 0, ...(display ? { display } : {}) };
}

function textOf(message: AssistantMessage): string {
  return message.content
    .filter((b) => b.type === "text")
    .map((b) => (b.type === "text" ? b.text : ""))
    .join("");
}
