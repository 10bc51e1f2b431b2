// A minimal ConversationContext for kernel tests: events → messages, no compaction unless asked.
// (The real, incremental view with compaction lives in src/session; the kernel only needs the interface.)
import type { AgentEvent } from "../../src/events/types.ts";
import type { ConversationContext } from "../../src/kernel/types.ts";
import type { Message, UserBlock } from "../../src/model/types.ts";

export function memoryContext(): ConversationContext & { apply(e: AgentEvent): void; compactions: string[]; overfull: boolean } {
  const messages: Message[] = [];
  const pushUser = (blocks: UserBlock[]) => {
    const last = messages.at(-1);
    if (last?.role === "user") last.content = [...(typeof last.content === "string" ? [{ type: "text" as const, text: last.content }] : last.content), ...blocks];
    else messages.push({ role: "user", content: blocks });
  };
  const ctx = {
    compactions: [] as string[],
    overfull: false,
    apply(e: AgentEvent) {
      if (e.type === "user_message") pushUser(typeof e.content === "string" ? [{ type: "text", text: e.content }] : e.content);
      else if (e.type === "assistant_message") messages.push({ role: "assistant", content: e.message.content });
      else if (e.type === "tool_result") pushUser([{ type: "tool_result", tool_use_id: e.toolUseId, content: e.content, is_error: e.isError }]);
    },
    messages: () => structuredClone(messages),
    async compact(trigger: string) {
      ctx.compactions.push(trigger);
      ctx.overfull = false;
      return true;
    },
    needsCompaction: () => ctx.overfull,
  };
  return ctx;
}
