// The model's view: durable events → Messages API messages, updated one event at a time.
//
// Invariants (checked by test/session/view.test.ts over random event sequences):
// - messages() is always a valid request body: it starts with the user, roles alternate, every
//   tool_use is answered in the very next user message (tool results first), nothing is empty.
// - A tool_use that never got its result (a crash, a lost line) is answered by a synthetic
//   "interrupted before it finished" error result, so the next request is accepted.
// - A compaction replaces the events before its firstKeptEventId with its summary; the cut is
//   moved earlier if needed so that no tool_use/tool_result pair is split.
// - A rewind drops from the projection everything from its target to itself (compactions made in
//   that stretch too: what they summarised before the target comes back verbatim); the events stay
//   in the log, and the view is rebuilt from the ones still in effect (session/branch.ts, the one
//   projection every replay uses). A rewind that left the files as they are tells the model so.
import type {
  AssistantMessageEvent,
  CompactionEvent,
  DurableEvent,
  InterruptionEvent,
  RewindEvent,
  ToolResultEvent,
  UndoEvent,
  UserMessageEvent,
} from "../events/types.ts";
import { answeredCall } from "../model/server-blocks.ts";
import { afterRewind, cutsConversation } from "./branch.ts";
import type { AssistantBlock, Message, ToolResultBlock, ToolResultContent, UserBlock } from "../model/types.ts";

/** The events that shape what the model sees. */
export type ViewEvent = UserMessageEvent | AssistantMessageEvent | ToolResultEvent | InterruptionEvent | UndoEvent | RewindEvent;

/** A rewind of the code only is a notice to the model; one of the conversation reshapes the view instead. */
const isViewEvent = (e: DurableEvent): e is ViewEvent =>
  e.type === "user_message" || e.type === "assistant_message" || e.type === "tool_result" || e.type === "interruption" || e.type === "undo" || (e.type === "rewind" && !e.conversation);

/** What a rewind tells the model, if anything: the files are not where the conversation left them. */
function rewindNote(e: RewindEvent): string | null {
  const skipped = e.code && e.code.skipped.length > 0 ? ` Not restored: ${e.code.skipped.map((s) => `${s.path} (${s.reason})`).join(", ")}.` : "";
  if (!e.conversation) {
    const restored = e.code && e.code.restored.length > 0 ? ` Restored: ${e.code.restored.join(", ")}.` : "";
    return `[The user put the files back to how they were before an earlier message of this conversation; the conversation itself goes on.${restored}${skipped}]`;
  }
  if (e.filesKept)
    return "[The user took the conversation back to this point but left the files as they are now: they may hold changes made after this point (by you or by the user) that this conversation no longer shows. Read a file again before relying on what you remember of it.]";
  return skipped ? `[The user took the conversation and the files back to this point, except files the user had changed since:${skipped}]` : null;
}

export const INTERRUPTED_RESULT =
  "Interrupted before it finished: KHAELOR stopped while this tool call was in progress, so its result is unknown. Check the current state (files, processes) before relying on it.";

export const UNREADABLE_RESULT =
  "This tool call ran, but its result could not be read back from the session log (the line is corrupted), so what it returned is unknown. Do not run it again blindly: check its effects (files, processes) first.";

export const SUMMARY_PREAMBLE =
  "This conversation was compacted to fit the context window. Below is a checkpoint of everything before this point; the messages after it are verbatim.";

/** Rough size, for token estimates: characters of what is sent (an image counts as ~1,600 tokens). */
const IMAGE_CHARS = 6400;
export function blockChars(b: UserBlock | AssistantBlock): number {
  switch (b.type) {
    case "text":
      return b.text.length;
    case "image":
      return IMAGE_CHARS;
    case "thinking":
      return b.thinking.length + b.signature.length / 4;
    case "redacted_thinking":
      return b.data.length / 4;
    case "tool_use":
      return b.name.length + JSON.stringify(b.input ?? {}).length + 20;
    case "tool_result":
      return contentChars(b.content) + 20;
    case "server_tool_use":
    case "web_search_tool_result":
    case "web_fetch_tool_result":
    case "unknown_block":
      // Search results carry encrypted page text; a fetched page is all there. Its JSON is the size.
      return JSON.stringify(b).length;
  }
}
export const contentChars = (c: ToolResultContent): number =>
  typeof c === "string" ? c.length : c.reduce((n, b) => n + (b.type === "text" ? b.text.length : IMAGE_CHARS), 0);

export function prunedStub(e: ToolResultEvent): string {
  const text = typeof e.content === "string" ? e.content : e.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
  // The tools' spill marker: "the full output (N characters) is in <path>" (older: "saved to <path>").
  const spill = /full output(?: \([^)\n]{0,200}\))? (?:is in|saved to|written to) (\S+?)[.,;:)]?(?:\s|$)/i.exec(text)?.[1];
  const where = spill ? `The full output is saved in ${spill}; read it if you need it again.` : "Run the tool again if you need it.";
  return `[Old output of ${e.name} (${e.summary}) removed to save context. ${where}]`;
}

/** Builds valid messages from view events, keeping the last message open for merging. */
class MessageBuilder {
  /** Finished messages; only the last one is ever extended. */
  readonly msgs: Message[] = [];
  /** tool_use ids of the last assistant message still waiting for a result. */
  pending = new Map<string, string>();
  results: ToolResultBlock[] = [];
  rest: UserBlock[] = [];
  chars = 0;

  constructor(private readonly pruned: ReadonlySet<string>) {}

  private userBlocks(blocks: UserBlock[]) {
    for (const b of blocks) {
      if (b.type === "text" && b.text.trim() === "") continue;
      if (b.type === "tool_result") {
        // A tool result typed into a user message is only honoured if it answers something.
        if (this.pending.delete(b.tool_use_id)) this.results.push(b);
        continue;
      }
      this.rest.push(b);
      this.chars += blockChars(b);
    }
  }

  userText(text: string) {
    this.userBlocks([{ type: "text", text }]);
  }

  user(e: UserMessageEvent) {
    this.userBlocks(typeof e.content === "string" ? [{ type: "text", text: e.content }] : e.content);
  }

  toolResult(e: ToolResultEvent) {
    if (!this.pending.delete(e.toolUseId)) return; // duplicate or orphan: answering nothing would break the request
    const content = this.pruned.has(e.toolUseId) ? prunedStub(e) : nonEmpty(e.content);
    const block: ToolResultBlock = { type: "tool_result", tool_use_id: e.toolUseId, content, ...(e.isError ? { is_error: true } : {}) };
    this.results.push(block);
    this.chars += blockChars(block);
  }

  assistant(e: AssistantMessageEvent) {
    const blocks = e.message.content.filter(
      (b) =>
        // A thinking block cut off by an abort has no signature; the API would reject it.
        !(b.type === "thinking" && b.signature === "") && !(b.type === "text" && b.text.trim() === "") && !(e.interrupted && b.type === "tool_use"),
    );
    if (blocks.length === 0) return;
    this.closeUser();
    const last = this.msgs[this.msgs.length - 1];
    if (last?.role === "assistant") last.content = [...last.content, ...blocks];
    else this.msgs.push({ role: "assistant", content: blocks });
    for (const b of blocks) {
      this.chars += blockChars(b);
      if (b.type === "tool_use") this.pending.set(b.id, b.name);
    }
  }

  /** The open user message, with synthetic results for tool calls that will never be answered. */
  private openUser(): Message | null {
    const synthetic: ToolResultBlock[] = [...this.pending.keys()].map((id) => ({
      type: "tool_result",
      tool_use_id: id,
      content: INTERRUPTED_RESULT,
      is_error: true,
    }));
    const content = [...this.results, ...synthetic, ...this.rest];
    return content.length > 0 ? { role: "user", content } : null;
  }

  private closeUser() {
    const open = this.openUser();
    if (open) {
      this.chars += this.pending.size * (INTERRUPTED_RESULT.length + 20);
      this.msgs.push(open);
    }
    this.pending = new Map();
    this.results = [];
    this.rest = [];
  }

  snapshot(): Message[] {
    const out = this.msgs.slice();
    const open = this.openUser();
    if (open) out.push(open);
    if (out[0]?.role === "assistant") out.unshift({ role: "user", content: "(The earlier part of this conversation is not available.)" });
    return out;
  }
}

const nonEmpty = (c: ToolResultContent): ToolResultContent => {
  if (typeof c === "string") return c === "" ? "(no output)" : c;
  const blocks = c.filter((b) => b.type !== "text" || b.text !== "");
  return blocks.length > 0 ? blocks : "(no output)";
};

function noticeOf(e: InterruptionEvent | UndoEvent): string {
  if (e.type === "undo") {
    const restored = e.restored.length > 0 ? ` Restored: ${e.restored.join(", ")}.` : "";
    const skipped = e.skipped.length > 0 ? ` Not restored: ${e.skipped.map((s) => `${s.path} (${s.reason})`).join(", ")}.` : "";
    return `[The user undid the last changes: files are back to an earlier snapshot.${restored}${skipped}]`;
  }
  return e.reason === "crash_recovery"
    ? "[KHAELOR stopped unexpectedly here and the session was resumed.]"
    : "[The user interrupted the previous response.]";
}

export interface ConversationView {
  apply(e: DurableEvent): void;
  /** Valid Messages API messages; a fresh array each call. */
  messages(): Message[];
  /** The events the view currently shows (after the last compaction's cut), oldest first. */
  retained(): readonly ViewEvent[];
  /** The summary standing in for everything before retained()[0] ("" when nothing was compacted). */
  summary(): string;
  pruned(): ReadonlySet<string>;
  /** Approximate size of messages() in characters. */
  chars(): number;
  /** tool_use ids (in order) that have no result yet: in flight, or lost to a crash. */
  unansweredToolUses(): string[];
  /** How many compactions are in effect. */
  compactions(): number;
  /** The events the projection stands on, oldest first: before any compaction too, without what rewinds dropped (each rewind of the conversation stands where it cut). */
  history(): readonly DurableEvent[];
  /** Every event the view took, rewound ones and the rewinds included, in log order. */
  applied(): readonly DurableEvent[];
}

export function createConversationView(): ConversationView {
  let items: ViewEvent[] = [];
  let summary = "";
  const pruned = new Set<string>();
  let builder = new MessageBuilder(pruned);
  // Replaying the same event twice (a sink that also applies what compact() applied) is harmless.
  const seen = new Set<string>();
  let compactions = 0;
  /** The inputs of the projection (view events and compactions), and everything ever applied. */
  let effective: Array<ViewEvent | CompactionEvent> = [];
  const applied: DurableEvent[] = [];

  const push = (e: ViewEvent) => {
    switch (e.type) {
      case "user_message":
        return builder.user(e);
      case "assistant_message":
        return builder.assistant(e);
      case "tool_result":
        return builder.toolResult(e);
      case "interruption":
      case "undo":
        return builder.userText(noticeOf(e));
      case "rewind": {
        const note = rewindNote(e);
        return note ? builder.userText(note) : undefined;
      }
    }
  };

  const rebuild = () => {
    builder = new MessageBuilder(pruned);
    if (summary) builder.userText(`${SUMMARY_PREAMBLE}\n\n${summary}`);
    for (const e of items) push(e);
  };

  const compact = (c: CompactionEvent) => {
    compactions++;
    for (const id of c.prunedToolUseIds ?? []) pruned.add(id);
    const k = safeCut(items, items.findIndex((e) => e.id === c.firstKeptEventId));
    if (k > 0 || c.summary !== summary) {
      items = items.slice(Math.max(k, 0));
      summary = c.summary;
    }
    rebuild();
  };

  const take = (e: ViewEvent | CompactionEvent) => {
    if (e.type === "compaction") compact(e);
    else {
      items.push(e);
      push(e);
    }
  };

  /** Back to the events before (or through) `to`, the rewind last (it may have a note for the model). */
  const rewind = (r: RewindEvent) => {
    effective = afterRewind(effective, r);
    items = [];
    summary = "";
    pruned.clear();
    compactions = 0;
    builder = new MessageBuilder(pruned);
    for (const e of effective) take(e);
  };

  return {
    apply(e) {
      if (seen.has(e.id)) return;
      seen.add(e.id);
      if (cutsConversation(e)) {
        applied.push(e);
        rewind(e);
      } else if (e.type === "compaction" || isViewEvent(e)) {
        applied.push(e);
        effective.push(e);
        take(e);
      }
    },
    messages: () => builder.snapshot(),
    retained: () => items,
    summary: () => summary,
    pruned: () => pruned,
    chars: () => builder.chars + (summary ? summary.length + SUMMARY_PREAMBLE.length : 0),
    unansweredToolUses: () => [...builder.pending.keys()],
    compactions: () => compactions,
    history: () => effective,
    applied: () => applied,
  };
}

/**
 * The latest index ≤ k where the events can be cut without splitting a tool_use from its result.
 * -1 (the id is not among the retained events) keeps everything.
 */
export function safeCut(items: readonly ViewEvent[], k: number): number {
  if (k <= 0) return 0;
  for (let cut = k; cut > 0; cut--) if (isSafeCut(items, cut)) return cut;
  return 0;
}

export function isSafeCut(items: readonly ViewEvent[], cut: number): boolean {
  const first = items[cut];
  if (!first || first.type === "tool_result") return false;
  const before = new Set<string>();
  for (let i = 0; i < cut; i++) {
    const e = items[i]!;
    if (e.type === "assistant_message") for (const b of e.message.content) if (b.type === "tool_use" || b.type === "server_tool_use") before.add(b.id);
  }
  for (let i = cut; i < items.length; i++) {
    const e = items[i]!;
    if (e.type === "tool_result" && before.has(e.toolUseId)) return false;
    // A server tool's result comes in an assistant message: after a pause_turn, in the next one.
    if (e.type === "assistant_message" && e.message.content.some((b) => before.has(answeredCall(b) ?? ""))) return false;
  }
  return true;
}
