// What the Messages API insists on for a conversation, as a checkable function: the view promises
// these after every event, and tests (and the crash test's fake server) check them.
import type { Message } from "../model/types.ts";

/** Every broken rule, in order; empty when the messages form a valid request. */
export function messageProblems(messages: Message[]): string[] {
  const problems: string[] = [];
  if (messages.length === 0) return ["no messages"];
  if (messages[0]!.role !== "user") problems.push("the first message is not from the user");
  let openToolUses: string[] = [];
  messages.forEach((m, i) => {
    const at = `message ${i} (${m.role})`;
    if (i > 0 && messages[i - 1]!.role === m.role) problems.push(`${at}: same role as the message before`);
    const blocks = typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content;
    if (blocks.length === 0) problems.push(`${at}: empty content`);
    for (const b of blocks) if (b.type === "text" && b.text.trim() === "") problems.push(`${at}: empty text block`);
    if (m.role === "user") {
      const results = blocks.filter((b) => b.type === "tool_result");
      const ids = results.map((b) => (b.type === "tool_result" ? b.tool_use_id : ""));
      for (const id of openToolUses) if (!ids.includes(id)) problems.push(`${at}: tool_use ${id} has no tool_result`);
      for (const id of ids) if (!openToolUses.includes(id)) problems.push(`${at}: tool_result ${id} answers no tool_use of the previous message`);
      if (new Set(ids).size !== ids.length) problems.push(`${at}: duplicate tool_result`);
      const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
      if (firstOther >= 0 && blocks.slice(firstOther).some((b) => b.type === "tool_result")) problems.push(`${at}: tool_result after other content`);
      openToolUses = [];
    } else {
      if (openToolUses.length > 0) problems.push(`${at}: follows unanswered tool_use`);
      openToolUses = blocks.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
      if (new Set(openToolUses).size !== openToolUses.length) problems.push(`${at}: duplicate tool_use id`);
    }
  });
  if (openToolUses.length > 0) problems.push(`the last message has unanswered tool_use ${openToolUses.join(", ")}`);
  return problems;
}
