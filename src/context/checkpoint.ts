// The summarising step of compaction: one model call turns the part of the conversation being cut
// into a structured checkpoint the model can carry on from.
//
// The transcript is sent as plain text in one user message rather than as the original messages:
// no tool definitions are needed, no tool_use/tool_result pairing can break, and long tool outputs
// are cut to their head and tail so the request itself cannot overflow.
import { describeServerResult } from "../model/server-blocks.ts";
import { zeroUsage, type AssistantBlock, type Message, type ModelClient, type ModelEvent, type Usage, type UserBlock } from "../model/types.ts";

export const CHECKPOINT_SECTIONS = [
  "Objective",
  "User's instructions and constraints",
  "Decisions",
  "Done",
  "Failed attempts (and why)",
  "Files touched",
  "Running processes",
  "Next steps",
] as const;

const SYSTEM = `You write checkpoints of coding sessions. A coding agent is about to lose the early part of its conversation to save context; your checkpoint is all it will keep of it, so it must be able to continue the work from your text alone.

Write exactly these sections, as markdown headings, in this order:
${CHECKPOINT_SECTIONS.map((s) => `## ${s}`).join("\n")}

Rules:
- Be concrete: exact file paths, function names, commands, error messages, numbers. No pleasantries.
- Under "User's instructions and constraints", keep every instruction the user gave, close to verbatim, including preferences about style, tools, and what not to do.
- Under "Failed attempts", say what was tried and why it did not work, so it is not tried again.
- Under "Running processes", list processes the agent started that may still run (command, id or port); write "none" if there are none.
- Under "Next steps", say what the agent was doing at the cut and what remains.
- Project instructions (AGENTS.md / CLAUDE.md) stay in the system prompt; do not copy them.
- Write "none" under a section with nothing to say.`;

/** Per-block caps in the transcript: the summary needs what happened, not every byte of output. */
const CAPS = { text: 12_000, toolInput: 600, toolResult: 1_500 };

function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.65);
  const tail = max - head;
  return `${text.slice(0, head)}\n[… ${text.length - max} characters omitted …]\n${text.slice(-tail)}`;
}

function blockText(b: UserBlock | AssistantBlock, caps: typeof CAPS): string | null {
  switch (b.type) {
    case "text":
      return cap(b.text, caps.text);
    case "image":
      return "[image]";
    case "thinking":
    case "redacted_thinking":
      return null;
    case "tool_use":
      return `[tool call ${b.name} ${cap(JSON.stringify(b.input ?? {}), caps.toolInput)}]`;
    case "tool_result": {
      const c = typeof b.content === "string" ? b.content : b.content.map((x) => (x.type === "text" ? x.text : "[image]")).join("\n");
      return `[tool result${b.is_error ? " (error)" : ""}]\n${cap(c, caps.toolResult)}`;
    }
    case "server_tool_use":
      return `[${b.name} ${cap(JSON.stringify(b.input ?? {}), caps.toolInput)}]`;
    case "web_search_tool_result":
    case "web_fetch_tool_result":
    case "unknown_block":
      return `[${b.type === "unknown_block" ? b.block.type : b.type}]\n${cap(describeServerResult(b), caps.toolResult)}`;
  }
}

/** The conversation as readable text, newest part kept when it must be shortened to `maxChars`. */
export function transcriptOf(messages: Message[], maxChars: number, caps = CAPS): string {
  const parts = messages.map((m) => {
    const blocks = typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content;
    const body = blocks
      .map((b) => blockText(b, caps))
      .filter((t): t is string => t !== null)
      .join("\n");
    return `### ${m.role === "user" ? "User" : "Assistant"}\n${body}`;
  });
  let total = parts.reduce((n, p) => n + p.length + 2, 0);
  // Over budget: keep the first message (it usually states the objective) and the newest ones.
  let dropped = 0;
  while (total > maxChars && parts.length > 2) {
    total -= parts[1]!.length + 2;
    parts.splice(1, 1);
    dropped++;
  }
  if (dropped > 0) parts.splice(1, 0, `[… ${dropped} earlier messages omitted …]`);
  return parts.join("\n\n");
}

export type SummariseRequest = {
  client: ModelClient;
  model: string;
  /** What is being cut, as the model saw it. */
  messages: Message[];
  contextWindow: number;
  /** From `/compact <instructions>`. */
  instructions?: string;
  signal?: AbortSignal;
  /** Retries of the summarising call, so the user sees them like any other. */
  onRetry?: (ev: Extract<ModelEvent, { type: "retry" }>) => void;
};

/** Room left in the window for the checkpoint itself and the prompt around the transcript. */
const SUMMARY_MAX_TOKENS = 8_000;

export async function summarise(req: SummariseRequest): Promise<{ text: string; usage: Usage; model: string }> {
  const budgetTokens = Math.max(4_000, req.contextWindow - SUMMARY_MAX_TOKENS - 4_000);
  const transcript = transcriptOf(req.messages, Math.floor(budgetTokens * 3));
  const focus = req.instructions ? `\n\nThe user asked the checkpoint to focus on: ${req.instructions}` : "";
  const prompt = `Here is the part of the session to checkpoint:\n\n<transcript>\n${transcript}\n</transcript>\n\nWrite the checkpoint now.${focus}`;
  let text = "";
  let usage: Usage = zeroUsage();
  let model = req.model;
  for await (const ev of req.client.stream({
    model: req.model,
    system: [{ type: "text", text: SYSTEM }],
    messages: [{ role: "user", content: prompt }],
    tools: [],
    maxTokens: SUMMARY_MAX_TOKENS,
    signal: req.signal,
  })) {
    if (ev.type === "retry") req.onRetry?.(ev);
    if (ev.type === "message_done") {
      usage = ev.message.usage;
      model = ev.message.model;
      text = ev.message.content
        .filter((b) => b.type === "text")
        .map((b) => (b.type === "text" ? b.text : ""))
        .join("")
        .trim();
    }
  }
  if (!text) throw new Error("the model returned an empty checkpoint");
  return { text, usage, model };
}
