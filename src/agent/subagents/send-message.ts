// SendMessage (Claude Code's name): a message to one of this session's agents by its id. A running
// agent reads it at its next step; one that has ended goes on from its own log (its conversation,
// then this message) and answers as the agent tool does: its final text, or an error result.
import { existsSync } from "node:fs";
import { z } from "zod";
import type { Tool, ToolResult } from "../../tools/types.ts";
import { resultOf, type AgentToolParts } from "./agent-tool.ts";
import type { Settled } from "./spawn.ts";

const Input = z.strictObject({
  to: z.string().min(1).describe("The agentId the agent tool answered with (or the id of the agent call that started it)"),
  message: z.string().min(1),
  summary: z.string().optional().describe("5-10 words, for the user"),
});
type Input = z.infer<typeof Input>;

export function sendMessageTool(p: Pick<AgentToolParts, "children">): Tool<Input> {
  return {
    name: "send_message",
    claudeName: "SendMessage",
    kind: "think",
    concurrent: true,
    description:
      "Message one of your agents by its agentId (in the agent tool's result): a running one reads it at its next step; a finished one goes on with its context and answers. For follow-ups, instead of a new agent.",
    inputSchema: Input,
    readOnly: true,
    destructive: false,
    summarize: (i) => `message to ${i.to}: ${i.summary ?? i.message.split("\n")[0]!.slice(0, 60)}`,
    run: (input, ctx) => send(p, input, ctx.toolUseId, ctx.signal),
  };
}

async function send(p: Pick<AgentToolParts, "children">, input: Input, toolUseId: string, signal: AbortSignal): Promise<ToolResult> {
  const found = p.children.find(input.to);
  if (!found) {
    const ids = p.children.ids();
    return { content: `No agent ${input.to} in this session.${ids.length ? ` Its agents: ${ids.join(", ")}.` : " It has started none."}`, isError: true };
  }
  if (found.running) {
    found.send(input.message);
    return { content: `Sent: agent ${input.to} is running and reads the message at its next step. Its result reaches you as before.` };
  }
  const r = found.request;
  if (!existsSync(r.cwd)) return { content: `Agent ${input.to} cannot go on: its worktree ${r.cwd} was removed when it ended without changes.`, isError: true };
  const spawned = p.children.start({ ...r, toolUseId, prompt: input.message, resume: true, background: false }, signal, async (o): Promise<Settled & { result: ToolResult }> => ({ result: resultOf(r.agentType, r.agentId, r.model, o, null) }));
  return (await spawned.outcome).result;
}
