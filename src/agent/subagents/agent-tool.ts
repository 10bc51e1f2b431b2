// The model's way to delegate: the `agent` tool (Claude Code's `Agent`, as hooks and stream-json
// hosts name it). One call opens one child session of the type asked for and answers with the
// child's final text; a child that fails or is cancelled answers with an error result. In the
// background it answers at once, and the result reaches the parent as a notice later.
import { z } from "zod";
import type { AgentDefinition } from "../../extensions/agents.ts";
import { environmentSection } from "../../context/system-prompt.ts";
import { newEventId, newSessionId } from "../../events/id.ts";
import type { DurableEvent } from "../../events/types.ts";
import type { EffortLevel, SystemBlock } from "../../model/types.ts";
import type { ConversationView } from "../../session/view.ts";
import { FAMILIES } from "../../model/models.ts";
import type { PermissionEngine } from "../../permissions/index.ts";
import { builtinTools } from "../../tools/builtin.ts";
import type { Tool, ToolResult } from "../../tools/types.ts";
import type { AgentCatalog } from "./catalog.ts";
import { READ_ONLY_AGENTS } from "./catalog.ts";
import type { ChildOutcome } from "./child.ts";
import type { Children, Settled } from "./spawn.ts";
import { extraToolFilter } from "./extra-tools.ts";
import { makeWorktree, settleWorktree, type Worktree } from "./worktree.ts";

const EFFORTS = ["low", "medium", "high", "max"] as const;

const Input = z.strictObject({
  description: z.string().min(1).describe("3-5 words"),
  prompt: z.string().min(1),
  subagent_type: z.string().optional(),
  model: z.enum(["sonnet", "opus", "haiku"]).optional(),
  effort: z.enum(EFFORTS).optional(),
  run_in_background: z.boolean().optional(),
  isolation: z.literal("worktree").optional(),
});
type Input = z.infer<typeof Input>;


export type AgentToolParts = {
  catalog: AgentCatalog;
  children: Children;
  engine: Pick<PermissionEngine, "rules">;
  /** The parent's model now (a child without its own model inherits it). */
  parentModel(): string;
  /** The parent's effort level now (a child without its own works at it). */
  parentEffort?(): EffortLevel | undefined;
  /** The built-in tools the parent has (a child never gets more). */
  parentTools: readonly string[];
  /** The parent's project directory (a worktree is made from it). */
  cwd: string;
  /** The project's instruction files and git status as seen from `cwd`, for a child's prompt. */
  projectContext?: (cwd: string) => string;
  /** What a fork inherits: the parent's system prompt and conversation (absent: no fork here). */
  fork?: () => ForkSource | undefined;
};

/**
 * A child's own system prompt: its definition's body, then where it works and, as Claude Code gives
 * its subagents, the project's instruction files and git status (unless the definition omits them).
 */
function childSystem(def: AgentDefinition, cwd: string, project: ((cwd: string) => string) | undefined): SystemBlock[] {
  const context = [environmentSection(cwd, new Date()), ...(project && !def.omitClaudeMd ? [project(cwd)] : [])].join("\n\n");
  return [
    { type: "text", text: def.prompt || `You are the ${def.name} agent. ${def.description}` },
    { type: "text", text: context },
  ];
}

export type ForkSource = { system(): SystemBlock[]; view(): ConversationView };

function forkDefinition(): AgentDefinition {
  return { name: FORK, description: "a copy of this conversation", prompt: "", source: "built-in", disallowedTools: [] };
}

export function agentTool(p: AgentToolParts): Tool<Input> {
  return {
    name: "agent",
    claudeName: "Agent",
    kind: "think",
    concurrent: true,
    description: describe(p.catalog.list()),
    inputSchema: Input,
    // Its own calls are asked about one by one, through the parent's gate.
    readOnly: true,
    destructive: false,
    summarize: (i) => `${i.subagent_type ?? "general-purpose"}: ${i.description}`,
    run: (input, ctx) => runAgent(p, input, ctx.toolUseId, ctx.signal),
  };
}

function describe(defs: AgentDefinition[]): string {
  const lines = defs.map((d) => `- ${d.name}: ${d.description.replace(/\s+/g, " ")}${d.tools ? ` (tools: ${d.tools.join(", ")})` : ""}`);
  return [
    "Launch a subagent: its own context and tools; it answers with one final message, which only you see. For searches needing many reads and independent work; several calls in one message run at once. It knows nothing of this conversation: give a self-contained prompt. run_in_background: you are told when it ends. isolation worktree: it works in a git worktree, kept if changed.",
    "Types (subagent_type, default general-purpose):",
    ...lines,
    `- ${FORK}: a copy of you with this whole conversation, your tools and model; for a side task that needs what you know.`,
  ].join("\n");
}

/** subagent_type "fork": a child that is the parent, from here on: its conversation, system prompt, tools and model. */
export const FORK = "fork";

/**
 * A fork's history: the parent's conversation as its view holds it (a compaction's summary, then
 * what it kept), every call of the parent's last message answered (this one says it is the fork,
 * the others that the parent runs them), so the prompt follows a valid conversation.
 */
function forkHistory(src: ForkSource, toolUseId: string): DurableEvent[] {
  const view = src.view();
  const events: DurableEvent[] = [];
  const kept = view.retained();
  const stamp = () => ({ id: newEventId(), ts: Date.now() });
  if (view.summary()) events.push({ type: "compaction", ...stamp(), summary: view.summary(), firstKeptEventId: kept[0]?.id ?? "", tokensBefore: 0, tokensAfter: 0, trigger: "auto" });
  events.push(...kept);
  const names = new Map<string, string>();
  for (const e of kept) if (e.type === "assistant_message") for (const b of e.message.content) if (b.type === "tool_use") names.set(b.id, b.name);
  for (const id of view.unansweredToolUses()) {
    const content = id === toolUseId ? "You are the fork this call started: the parent's conversation is yours up to here. Do the task in the next message yourself (open no agents) and end with your report." : "The parent runs this call; its result is not part of the fork.";
    events.push({ type: "tool_result", ...stamp(), toolUseId: id, name: names.get(id) ?? "unknown", content, isError: false, kind: "ok", summary: "forked", durationMs: 0 });
  }
  return events;
}

async function runAgent(p: AgentToolParts, input: Input, toolUseId: string, signal: AbortSignal): Promise<ToolResult> {
  const type = input.subagent_type ?? "general-purpose";
  const fork = type === FORK ? p.fork?.() : undefined;
  if (type === FORK && !fork) return { content: "A fork cannot start here: this session has no conversation to fork.", isError: true };
  const def = fork ? forkDefinition() : p.catalog.get(type);
  if (!def) return { content: `Unknown agent type "${type}". Available agent types: ${[...p.catalog.list().map((d) => d.name), FORK].join(", ")}.`, isError: true };
  const model = fork ? p.parentModel() : modelFor(input.model ?? def.model, p.parentModel());
  // Sent as the parent's is (src/model/effort.ts): the API's effort parameter where the child's model takes it, else nothing.
  const effort: EffortLevel | undefined = input.effort ?? def.effort ?? p.parentEffort?.();
  let tree: Worktree | null = null;
  if (input.isolation === "worktree") {
    const made = await makeWorktree(p.cwd, toolUseId);
    if ("error" in made) return { content: `The agent was not started: ${made.error}`, isError: true };
    tree = made;
  }
  const onlyReads = def.source === "built-in" && READ_ONLY_AGENTS.has(def.name);
  const background = input.run_in_background === true;
  // Once the child ends: its worktree kept or removed, and a background one's result told.
  const settle = async (o: ChildOutcome): Promise<Settled & { result: ToolResult }> => {
    const kept = tree ? await settleWorktree(p.cwd, tree) : null;
    const result = resultOf(def.name, agentId, model, o, kept);
    const text = typeof result.content === "string" ? result.content : "";
    return {
      result,
      ...(kept ? { worktree: { path: kept.path, branch: kept.branch } } : {}),
      ...(background ? { notice: `Background agent ${agentId} (${def.name}: ${input.description}) ${result.isError ? "did not finish" : "finished"}:\n${text}` } : {}),
    };
  };
  const agentId = newSessionId();
  const spawned = p.children.start(
    {
      agentId,
      toolUseId,
      agentType: def.name,
      description: input.description,
      system: fork ? fork.system() : childSystem(def, tree?.path ?? p.cwd, p.projectContext),
      prompt: input.prompt,
      ...(fork ? { history: forkHistory(fork, toolUseId) } : {}),
      model,
      ...(effort ? { effort } : {}),
      tools: childTools(def, p.parentTools, p.engine),
      keepTool: extraToolFilter(def, p.engine),
      onlyReads,
      ...(def.maxTurns !== undefined ? { maxTurns: def.maxTurns } : {}),
      cwd: tree?.path ?? p.cwd,
      sharedTree: tree === null,
      background,
      ...(tree ? { worktree: tree.path } : {}),
    },
    signal,
    settle,
  );
  if (!background) return (await spawned.outcome).result;
  return {
    content: `Started the ${def.name} agent in the background (agentId: ${agentId}). You will be told its result when it finishes; do not wait for it or poll.`,
    display: { notes: "running in the background" },
  };
}

export function resultOf(type: string, agentId: string, model: string, o: ChildOutcome, kept: { branch: string; path: string; note: string } | null): ToolResult {
  const cost = o.costUsd === null ? "cost unknown" : `$${o.costUsd.toFixed(4)}`;
  const tail = [
    `agentId: ${agentId} (${type}, ${model}; ${o.steps} step${o.steps === 1 ? "" : "s"}, ${o.usage.input_tokens + o.usage.output_tokens} tokens, ${cost}, ${Math.round(o.durationMs)} ms)`,
    ...(kept ? [kept.note] : []),
  ].join("\n");
  const head =
    o.status === "completed"
      ? o.text || "(The agent ended without a final message.)"
      : o.status === "cancelled"
        ? `The ${type} agent was cancelled before it finished.${o.text ? ` ${o.text}` : ""}`
        : `The ${type} agent failed: ${o.text}`;
  return {
    content: `${head}\n\n${tail}`,
    isError: o.status !== "completed",
    // The user reads the answer; the id and the figures are in the row's notes.
    display: { body: head.length, notes: tail.split("\n").join("; ") },
  };
}

/** sonnet, opus, haiku: KHAELOR's newest of the family; inherit or none: the parent's. */
export function modelFor(asked: string | undefined, parent: string): string {
  if (!asked || asked === "inherit") return parent;
  return FAMILIES[asked] ?? asked;
}

/**
 * The child's tools: the definition's list (Claude Code's names or ours) within the parent's own
 * built-ins, less its disallowedTools and whatever the parent's rules deny whole (a bare `Bash`
 * deny). Never the agent tool: a child opens no children (depth 1).
 */
export function childTools(def: AgentDefinition, parentTools: readonly string[], engine: Pick<PermissionEngine, "rules">): Tool[] {
  const norm = (n: string) => n.replace(/\(.*$/, "").trim().toLowerCase();
  const wanted = def.tools ? new Set(def.tools.map(norm)) : null;
  const banned = new Set(def.disallowedTools.filter((n) => !n.includes("(")).map(norm));
  const deniedWhole = new Set(engine.rules().filter((r) => r.behavior === "deny" && /^[A-Za-z]+(\(\*\))?$/.test(r.rule.trim())).map((r) => norm(r.rule)));
  // Claude Code's Write, MultiEdit and Edit are one rule family: a denied Edit takes write too.
  if (deniedWhole.has("edit")) deniedWhole.add("write");
  return builtinTools().filter((t) => parentTools.includes(t.name) && (!wanted || wanted.has(t.name) || (t.name === "write" && wanted.has("multiedit"))) && !banned.has(t.name) && !deniedWhole.has(t.name));
}
