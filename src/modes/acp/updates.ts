// A session's events as ACP session/update notifications, live (as they happen) and replayed (for
// session/load). Plain translation: the session log stays the truth.
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { AgentEvent, DurableEvent, PermissionMode } from "../../events/types.ts";
import { modelInfo } from "../../model/models.ts";
import { answeredCall, describeServerCall, describeServerResult, serverError } from "../../model/server-blocks.ts";
import type { AssistantBlock, ServerToolUseBlock, ToolResultContent, UserBlock } from "../../model/types.ts";
import { builtinFacts } from "../../tools/builtin.ts";
import { shellOutputOf } from "../../events/user-shell.ts";
import type { ToolFacts } from "../../tools/types.ts";
import { createAgentUpdates } from "./agent-updates.ts";
import { plannedDiff, toolKind, toolLocations } from "./tool-view.ts";

type Input = Record<string, unknown>;

export function resultText(content: ToolResultContent): string {
  return typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("\n");
}

const textContent = (text: string): ToolCallContent => ({ type: "content", content: { type: "text", text } });

/**
 * One of the API's own tool calls (web search, web fetch, tool search) from a finished message:
 * the API ran it, so it is shown once, already done, with what it found.
 */
function serverCallUpdate(b: ServerToolUseBlock, content: AssistantBlock[]): SessionUpdate {
  const result = content.find((r) => answeredCall(r) === b.id);
  return {
    sessionUpdate: "tool_call",
    toolCallId: b.id,
    title: describeServerCall(b),
    kind: toolKind(undefined, b.name),
    status: !result || serverError(result) !== null ? "failed" : "completed",
    rawInput: b.input,
    content: [textContent(result ? describeServerResult(result) : "no result (the answer was cut off)")],
  };
}

export function modeUpdate(mode: PermissionMode): SessionUpdate {
  return { sessionUpdate: "current_mode_update", currentModeId: mode };
}

/** Live translation for one session; it remembers each call's input, facts and planned change. */
export function createLiveUpdates(opts: { root: string; costSoFar: () => number }) {
  // Relative paths are relative to the model's working directory, which a bash `cd` moves; the
  // bash results say where it is now.
  let cwd = opts.root;
  const calls = new Map<string, { input: Input; facts?: ToolFacts; diff?: ToolCallContent | null; terminalId?: string }>();
  const agents = createAgentUpdates();
  const translate = (e: AgentEvent): SessionUpdate[] => {
    switch (e.type) {
      case "agent_start":
      case "agent_progress":
      case "agent_event":
      case "agent_end":
        return agents.translate(e);
      case "text_delta":
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: e.text } }];
      case "thinking_delta":
        return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: e.thinking } }];
      case "assistant_message": {
        // The text streamed already; the API's own calls in it are shown now that they are done.
        const content = e.message.content;
        const out: SessionUpdate[] = content.flatMap((b) => (b.type === "server_tool_use" ? [serverCallUpdate(b, content)] : []));
        for (const b of e.message.content) {
          if (b.type !== "tool_use") continue;
          calls.set(b.id, { input: (b.input ?? {}) as Input });
        }
        const u = e.message.usage;
        const size = modelInfo(e.message.model)?.contextWindow;
        if (size && !e.interrupted)
          out.push({
            sessionUpdate: "usage_update",
            used: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens,
            size,
            cost: { amount: opts.costSoFar(), currency: "USD" },
          });
        return out;
      }
      case "tool_start": {
        const c = calls.get(e.toolUseId);
        const input = c?.input ?? {};
        // The change the tool planned (against the file as it is just before this call): what lands.
        const diff = plannedDiff(e.preview);
        if (c) Object.assign(c, { facts: e.facts, diff });
        return [
          {
            sessionUpdate: "tool_call",
            toolCallId: e.toolUseId,
            title: e.summary,
            kind: toolKind(e.facts, e.name),
            status: "in_progress",
            locations: toolLocations(e.facts),
            rawInput: input,
            ...(diff ? { content: [diff] } : {}),
          },
        ];
      }
      case "tool_result": {
        const c = calls.get(e.toolUseId);
        calls.delete(e.toolUseId);
        // Only a command's result says where its shell ended up.
        if (e.display?.cwd) cwd = e.display.cwd;
        // A command run in the editor's terminal stays shown there, above what the model was told.
        const content: ToolCallContent[] = [...(c?.terminalId ? [{ type: "terminal" as const, terminalId: c.terminalId }] : []), textContent(resultText(e.content))];
        // What the edit did: the change it planned, which run() applies exactly or refuses.
        if (!e.isError && c?.diff) content.push(c.diff);
        // A background agent's call is answered at once; it is done when its child is.
        const status = e.isError ? "failed" : agents.running(e.toolUseId) ? "in_progress" : "completed";
        return [{ sessionUpdate: "tool_call_update", toolCallId: e.toolUseId, title: e.summary, kind: toolKind(c?.facts, e.name), status, content, rawOutput: e.content }];
      }
      case "setting_change":
        return e.permissionMode ? [modeUpdate(e.permissionMode)] : [];
      default:
        return [];
    }
  };
  /** bash's command runs in the editor's terminal `terminalId`: its updates keep showing it. */
  const attachTerminal = (toolUseId: string, terminalId: string) => {
    const c = calls.get(toolUseId);
    if (c) c.terminalId = terminalId;
  };
  return { translate, cwd: () => cwd, attachTerminal };
}

/** A `!` command the user ran, as the user's message: the command, then what it printed, fenced. */
function shellText(command: string, output: string): string {
  const fence = "`".repeat(Math.max(3, ...[...output.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return output === "" ? `! ${command}` : `! ${command}\n${fence}\n${output}\n${fence}`;
}

function userChunks(content: string | UserBlock[]): SessionUpdate[] {
  if (typeof content === "string") return [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: content } }];
  const out: SessionUpdate[] = [];
  for (const b of content) {
    if (b.type === "text") out.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: b.text } });
    else if (b.type === "image") out.push({ sessionUpdate: "user_message_chunk", content: { type: "image", data: b.source.data, mimeType: b.source.media_type } });
  }
  return out;
}

/** The whole conversation as a client shows it, for session/load: what the user said, the answers, the calls and their results. */
export function replayUpdates(events: DurableEvent[], cwd: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  const inputs = new Map<string, { name: string; input: Input }>();
  for (const e of events) {
    switch (e.type) {
      case "user_message":
        if (e.synthetic === "shell" && e.shell) out.push(...userChunks(shellText(e.shell.command, shellOutputOf(e.content))));
        else if (!e.synthetic) out.push(...userChunks(e.display ?? e.content));
        break;
      case "assistant_message":
        for (const b of e.message.content) {
          if (b.type === "server_tool_use") out.push(serverCallUpdate(b, e.message.content));
          else if (b.type === "text" && b.text) out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: b.text } });
          else if (b.type === "thinking" && b.thinking) out.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: b.thinking } });
          else if (b.type === "tool_use") inputs.set(b.id, { name: b.name, input: (b.input ?? {}) as Input });
        }
        break;
      case "tool_result": {
        const input = inputs.get(e.toolUseId)?.input ?? {};
        // A log keeps names and inputs: the facts are the tools' own, read from them again.
        const facts = builtinFacts(e.name, input, cwd);
        const content: ToolCallContent[] = [textContent(resultText(e.content))];
        if (e.display?.diff) content.push(textContent(e.display.diff));
        out.push({
          sessionUpdate: "tool_call",
          toolCallId: e.toolUseId,
          title: e.summary,
          kind: toolKind(facts, e.name),
          status: e.isError ? "failed" : "completed",
          locations: toolLocations(facts),
          rawInput: input,
          content,
        });
        break;
      }
      case "setting_change":
        if (e.permissionMode) out.push(modeUpdate(e.permissionMode));
        break;
    }
  }
  return out;
}
