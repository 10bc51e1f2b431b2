// The session as the UI knows it: an ordered list of entries (user prompts, assistant answers,
// thinking, tool calls, notices) folded from AgentEvents, live or replayed. The live zone, the
// history commit and the transcript pager all read this one list, so what scrolls into history is
// exactly what the pager shows later.
import type { AgentEvent, DurableEvent, UserShellRecord } from "../../events/types.ts";
import { shellOutputOf } from "../../events/user-shell.ts";
import { answeredCall, describeServerCall, describeServerResult, isServerBlock, searchHits, serverError } from "../../model/server-blocks.ts";
import type { AssistantBlock, ServerBlock, ToolResultContent } from "../../model/types.ts";
import { agentSummary, endedView, progressed, startedView } from "./agents.ts";
import { CUT_NOTICE, type AgentView, type Entry, type NoticeLevel, type RetryView } from "./entry.ts";
import { appendTail } from "./output-tail.ts";
import { shownResult, shownText } from "./tool-output.ts";
import { compactionNotice, rewindNotice, syntheticNotice, undoNotice } from "./event-notices.ts";

/** The words the permission prompt used for each place a rule can be saved. */
const SCOPE_WORDS: Record<string, string> = { local: "this project, not committed", project: "this project", session: "this session only", user: "every project" };

export type UsageTotals = { input: number; output: number; cacheRead: number; cacheWrite: number; lastContext: number | null };

export class Transcript {
  readonly entries: Entry[] = [];
  private nextKey = 1;
  /** Entries of the message being streamed, by content-block index. */
  private blocks = new Map<number, Entry>();
  /** Entries created since the last message_start (voided when a retry discards a partial). */
  private sinceStart: Entry[] = [];
  private tools = new Map<string, Extract<Entry, { kind: "tool" }>>();
  private denied = new Map<string, string>();
  private agentViews = new Map<string, AgentView>();
  /** Each subagent's own conversation, folded from its agent_event (deltas included), for the pager. */
  readonly children = new Map<string, Transcript>();
  readonly usage: UsageTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, lastContext: null };
  /**
   * The request being retried, while the client waits: shown as one live line, never as an entry
   * (eight failed attempts are not eight lines of history). Gone when an attempt starts streaming;
   * a turn that finally fails says so in its error entry.
   */
  retry: RetryView | null = null;
  /** Bumped on every change, so views know when to recompute. */
  version = 0;
  /** Called when entries are removed (a discarded partial), so the history commit can rewind. */
  onRemoved: (fromIndex: number) => void = () => {};

  apply(e: AgentEvent, now = Date.now()): void {
    this.version++;
    switch (e.type) {
      case "user_message": {
        const text = userText(e.content);
        if (e.shell) this.shellEnd(e, e.shell);
        else if (e.synthetic) this.push({ kind: "notice", text: syntheticNotice(e.synthetic, text), level: "info" });
        else if (e.display !== undefined) this.push({ kind: "user", text: e.display, steering: e.steering === true });
        else if (text !== "" || typeof e.content === "string") this.push({ kind: "user", text, steering: e.steering === true });
        break;
      }
      case "message_start":
        this.retry = null;
        this.blocks.clear();
        this.sinceStart = [];
        break;
      case "thinking_delta": {
        const b = this.block(e.index, () => ({ kind: "thinking", text: "", done: false, startedAt: now, durationMs: null }));
        if (b.kind === "thinking") b.text += e.thinking;
        break;
      }
      case "text_delta": {
        const b = this.block(e.index, () => ({ kind: "assistant", text: "", done: false, interrupted: false }));
        if (b.kind === "assistant") b.text += e.text;
        break;
      }
      case "tool_input_delta": {
        if (!this.tools.has(e.id)) {
          const t = this.block(e.index, () => toolEntry(e.id, e.name, e.name, {}));
          if (t.kind === "tool") this.tools.set(e.id, t);
        }
        break;
      }
      case "block_done":
        this.blockDone(e, now);
        break;
      case "api_retry":
        if (e.partialDiscarded) this.discardPartial();
        this.retry = { attempt: e.attempt, maxRetries: e.maxRetries ?? null, status: e.status, message: e.message, until: now + e.delayMs };
        break;
      case "assistant_message":
        this.retry = null;
        this.applyAssistant(e, now);
        break;
      case "tool_start": {
        const t = this.tools.get(e.toolUseId) ?? this.addTool(e.toolUseId, e.name, {});
        t.view.summary = e.summary;
        t.view.status = "running";
        t.view.startedAt = now;
        break;
      }
      // A hook shows as a row of its own while it runs (which hook, how long), its plain output under it
      // as a command's; what it said (a block, a systemMessage), as a notice.
      case "hook_start": {
        const t = this.addTool(e.runId, "hook", {});
        t.view.summary = `hook ${e.label}`;
        t.view.status = "running";
        t.view.startedAt = now;
        break;
      }
      case "hook_end":
        this.hookEnd(e);
        break;
      // A `!` command: a row like a bash call's, its output live under it, finished by its user message.
      case "shell_start": {
        const t = this.addTool(e.runId, "shell", {});
        t.view.summary = `! ${e.command}`;
        t.view.status = "running";
        t.view.startedAt = now;
        break;
      }
      case "shell_progress": {
        const t = this.tools.get(e.runId);
        if (t) t.view.outputTail = appendTail(t.view.outputTail, e.chunk);
        break;
      }
      case "tool_progress": {
        const t = this.tools.get(e.toolUseId);
        if (t) t.view.outputTail = appendTail(t.view.outputTail, e.chunk);
        break;
      }
      case "tool_result":
        this.toolResult(e);
        break;
      case "permission_decision":
        if (e.decision === "deny") this.denied.set(e.toolUseId, e.message ?? "denied");
        if (e.savedRule) this.push({ kind: "notice", text: `Saved rule: allow ${e.savedRule.rule} (${SCOPE_WORDS[e.savedRule.scope] ?? e.savedRule.scope})`, level: "info" });
        break;
      case "compaction":
        this.retry = null;
        this.push({ kind: "notice", text: compactionNotice(e), level: "info" });
        break;
      case "compacting":
        this.push({ kind: "notice", text: "Compacting the conversation…", level: "info" });
        break;
      case "interruption":
        this.retry = null;
        this.markInterrupted();
        // Said once: an answer or a tool of this turn already marked "interrupted" says it.
        if (e.reason === "crash_recovery") this.push({ kind: "notice", text: "Interrupted: KHAELOR stopped during this turn", level: "warn" });
        else if (!this.turnShowsInterruption()) this.push({ kind: "notice", text: "Interrupted", level: "warn" });
        break;
      case "error":
        this.retry = null;
        this.push({ kind: "notice", text: `Error: ${e.message}`, level: "error" });
        break;
      case "undo":
        this.push({ kind: "notice", text: undoNotice(e), level: "info" });
        break;
      case "rewind":
        this.push({ kind: "notice", text: rewindNotice(e), level: e.code?.skipped.length ? "warn" : "info" });
        break;
      case "setting_change":
        if (e.model) this.push({ kind: "notice", text: `Model: ${e.model}`, level: "info" });
        break;
      case "agent_start":
      case "agent_progress":
      case "agent_event":
      case "agent_end":
        this.applyAgent(e, now);
        break;
      case "turn_end":
        this.retry = null;
        this.markInterruptedIfOpen(e.reason !== "finished");
        if (e.reason !== "finished" && e.reason !== "cancelled" && e.reason !== "error") this.push({ kind: "notice", text: `Stopped: ${e.reason.replace(/_/g, " ")}`, level: "warn" });
        break;
      default:
        break;
    }
  }

  private applyAgent(e: Extract<AgentEvent, { type: "agent_start" | "agent_progress" | "agent_event" | "agent_end" }>, now: number): void {
    if (e.type === "agent_event") {
      this.children.get(e.agentId)?.apply(e.event, now);
      return;
    }
    if (e.type === "agent_progress") {
      const v = this.agentViews.get(e.agentId);
      if (v) progressed(v, e);
      return;
    }
    if (e.type === "agent_start") {
      const v = startedView(e, now);
      this.agentViews.set(e.agentId, v);
      this.children.set(e.agentId, new Transcript());
      const t = this.tools.get(e.toolUseId);
      if (t) (t.view.agents ??= []).push(v);
      return;
    }
    const known = this.agentViews.get(e.agentId);
    const v = endedView(known, e);
    this.agentViews.set(e.agentId, v);
    const t = this.tools.get(e.toolUseId);
    // Its call's row is still open (a foreground call): the summary goes there. A background
    // agent's call answered long ago: its summary is a line of its own.
    if (t && (t.view.status === "running" || t.view.status === "pending") && !v.background) {
      if (!known) (t.view.agents ??= []).push(v);
    } else this.push({ kind: "notice", text: `${agentSummary(v)}${v.description ? ` (${v.description})` : ""}`, level: v.status === "completed" ? "info" : "warn" });
  }

  /** Every subagent seen, in the order they started. */
  agents(): AgentView[] {
    return [...this.agentViews.values()];
  }

  /** Background agents still running: their calls are history, so the live zone shows them. */
  runningBackground(): AgentView[] {
    return this.agents().filter((v) => v.background && v.status === "running");
  }

  private blockDone(e: Extract<AgentEvent, { type: "block_done" }>, now: number): void {
    // The API's own tools (web search, fetch) ran on its side: their rows come from the blocks.
    if (isServerBlock(e.block)) {
      const row = this.serverBlock(e.block, now, true);
      if (row && !this.blocks.has(e.index)) {
        this.blocks.set(e.index, row);
        this.sinceStart.push(row);
      }
      return;
    }
    // An answer's text is done only with its message: only then is the stop reason known, and
    // an answer cut by the output-token limit must not reach history without saying so.
    const b = this.blocks.get(e.index);
    // Nothing more comes to its text, so what waits for more (a table, a half link) shows.
    if (b?.kind === "assistant") b.textEnded = true;
    if (b?.kind === "thinking" && !b.done) {
      b.done = true;
      b.durationMs = now - b.startedAt;
    }
  }

  private hookEnd(e: Extract<AgentEvent, { type: "hook_end" }>): void {
    const t = this.tools.get(e.runId);
    if (t) {
      t.view.durationMs = e.durationMs;
      t.view.status = e.ok ? "ok" : "error";
      if (!e.ok && e.message) t.view.error = e.message;
      // Its plain output (exit 0) is shown as a command's is: the last lines under the row, all of it in the pager.
      if (e.output) {
        t.view.output = e.output;
        t.view.resultTail = lastLines(e.output, RESULT_LINES);
      }
    }
    if (e.message && e.ok) this.push({ kind: "notice", text: e.message, level: "info" });
  }

  private shellEnd(e: Extract<AgentEvent, { type: "user_message" }>, shell: UserShellRecord): void {
    const t = this.tools.get(shell.runId) ?? this.addTool(shell.runId, "shell", {});
    const output = shellOutputOf(e.content);
    t.view.summary = `! ${shell.command}`;
    t.view.durationMs = shell.durationMs;
    t.view.outputTail = [];
    t.view.output = output;
    t.view.resultTail = lastLines(output, RESULT_LINES);
    t.view.status = shell.stopped ? "interrupted" : shell.exitCode === 0 ? "ok" : "error";
  }

  private toolResult(e: Extract<AgentEvent, { type: "tool_result" }>): void {
    const t = this.tools.get(e.toolUseId) ?? this.addTool(e.toolUseId, e.name, {});
    const deniedMessage = this.denied.get(e.toolUseId);
    t.view.summary = e.summary || t.view.summary;
    t.view.durationMs = e.durationMs;
    t.view.outputTail = [];
    if (e.display?.diff) t.view.diff = e.display.diff;
    if (e.display?.path) t.view.path = e.display.path;
    const text = resultText(e.content);
    if (deniedMessage !== undefined) {
      t.view.status = "denied";
      t.view.error = deniedMessage;
    } else {
      const shown = shownResult(e.name, text, e.display);
      t.view.output = shownText(shown);
      // A command's output is what the user wants to see of it: its last lines stay under the
      // row, whether it passed, failed or was stopped (the end is where errors are).
      if (e.name === "bash") t.view.resultTail = lastLines(shown.body, RESULT_LINES, e.display?.lines);
      if (e.isError) {
        // The result says whether it was cancelled; a log written before it did, only its text.
        t.view.status = (e.interrupted ?? /^Cancelled by the user|cancelled by the user|interrupted/i.test(text)) ? "interrupted" : "error";
        t.view.error = shown.notes || shown.body;
      } else t.view.status = "ok";
    }
  }

  /** Replayed durable events (--resume): no deltas, whole messages. */
  applyAll(events: readonly DurableEvent[]): void {
    for (const e of events) this.apply(e, e.ts);
  }

  notice(text: string, level: NoticeLevel = "info"): void {
    this.version++;
    this.push({ kind: "notice", text, level });
  }

  /** The work ended (a command's compaction failed after its retries): no retry is pending any more. */
  clearRetry(): void {
    if (this.retry === null) return;
    this.retry = null;
    this.version++;
  }

  /** The call waited for the user's answer: its running time starts now, not when it was announced. */
  restartClock(toolUseId: string, now: number): void {
    const t = this.tools.get(toolUseId);
    if (t && t.view.status === "running") t.view.startedAt = now;
  }

  hasRunningTool(): boolean {
    for (const t of this.tools.values()) if (t.view.status === "running") return true;
    return false;
  }

  private applyAssistant(e: Extract<DurableEvent, { type: "assistant_message" }>, now: number): void {
    const u = e.message.usage;
    this.usage.input += u.input_tokens;
    this.usage.output += u.output_tokens;
    this.usage.cacheRead += u.cache_read_input_tokens;
    this.usage.cacheWrite += u.cache_creation_input_tokens;
    const ctx = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;
    if (ctx > 0) this.usage.lastContext = ctx;
    const streamed = this.blocks.size > 0;
    const cutAt = e.message.stop_reason === "max_tokens" ? e.message.content.length - 1 : -1;
    e.message.content.forEach((block: AssistantBlock, index) => {
      const existing = this.blocks.get(index);
      if (existing) {
        if (existing.kind === "assistant") {
          existing.done = true;
          if (block.type === "text") existing.text = block.text;
          if (e.interrupted) existing.interrupted = true;
          if (index === cutAt) existing.cut = true;
        } else if (existing.kind === "thinking" && !existing.done) {
          existing.done = true;
          existing.durationMs = now - existing.startedAt;
        } else if (existing.kind === "tool" && block.type === "tool_use") existing.input = block.input;
        return;
      }
      if (isServerBlock(block)) {
        this.serverBlock(block, now, false);
        return;
      }
      if (streamed && block.type !== "tool_use") return;
      if (block.type === "text" && block.text !== "") this.push({ kind: "assistant", text: block.text, done: true, interrupted: e.interrupted === true, cut: index === cutAt });
      else if (block.type === "thinking") this.push({ kind: "thinking", text: block.thinking, done: true, startedAt: now, durationMs: null });
      else if (block.type === "tool_use" && !this.tools.has(block.id)) this.addTool(block.id, block.name, block.input);
    });
    this.blocks.clear();
    // Cut while thinking: there is no answer to mark, but the user still needs to know.
    if (cutAt >= 0 && e.message.content[cutAt]?.type === "thinking") this.push({ kind: "notice", text: CUT_NOTICE, level: "warn" });
  }

  private turnShowsInterruption(): boolean {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.kind === "user" && !e.steering) return false;
      if ((e.kind === "assistant" && e.interrupted) || (e.kind === "tool" && e.view.status === "interrupted")) return true;
    }
    return false;
  }

  private markInterrupted(): void {
    for (const e of this.entries) {
      if (e.kind === "assistant" && !e.done) {
        e.done = true;
        e.interrupted = true;
      } else if (e.kind === "thinking" && !e.done) e.done = true;
      else if (e.kind === "tool" && (e.view.status === "running" || e.view.status === "pending")) {
        e.view.status = "interrupted";
        e.view.outputTail = [];
      }
    }
  }

  private markInterruptedIfOpen(any: boolean): void {
    if (any) this.markInterrupted();
    else for (const e of this.entries) if ((e.kind === "assistant" || e.kind === "thinking") && !e.done) e.done = true;
  }

  private discardPartial(): void {
    const drop = new Set(this.sinceStart);
    const first = this.entries.findIndex((e) => drop.has(e));
    if (first < 0) return;
    for (const e of this.sinceStart) if (e.kind === "tool") this.tools.delete(e.view.id);
    const kept = this.entries.filter((e) => !drop.has(e));
    this.entries.length = 0;
    this.entries.push(...kept);
    this.blocks.clear();
    this.sinceStart = [];
    this.onRemoved(first);
  }

  private block(index: number, make: () => DistributiveOmit<Entry, "key">): Entry {
    let b = this.blocks.get(index);
    if (!b) {
      b = this.push(make());
      this.blocks.set(index, b);
      this.sinceStart.push(b);
    }
    return b;
  }

  /**
   * A row per server tool call (`web_search "query"`), finished by its result: the URLs found, or
   * the page fetched and its size. A result of a kind this version does not know gets a row of its
   * own. Returns the row the block created, if it created one. Seen twice (streamed, then in the
   * message), a block changes nothing the second time. `live`: streamed now, so timed.
   */
  private serverBlock(block: ServerBlock, now: number, live: boolean): Extract<Entry, { kind: "tool" }> | null {
    if (block.type === "server_tool_use") {
      if (this.tools.has(block.id)) return null;
      const t = this.addTool(block.id, block.name, block.input);
      t.view.summary = describeServerCall(block);
      t.view.status = "running";
      // Replayed, call and result come together: how long the API took is not known.
      t.view.startedAt = live ? now : null;
      return t;
    }
    const callId = answeredCall(block);
    let t = callId ? this.tools.get(callId) : undefined;
    if (t && t.view.status !== "running") return null;
    const created = !t;
    if (!t) {
      const type = block.type === "unknown_block" ? block.block.type : block.type;
      t = this.addTool(callId ?? `${type}-${this.nextKey}`, type, {});
      t.view.summary = type;
    }
    t.view.durationMs = t.view.startedAt !== null ? now - t.view.startedAt : null;
    const error = serverError(block);
    const text = describeServerResult(block);
    t.view.output = text;
    if (error) {
      t.view.status = "error";
      t.view.error = error;
      return created ? t : null;
    }
    t.view.status = "ok";
    const hits = searchHits(block);
    if (block.type === "web_search_tool_result") {
      t.view.summary += ` (${hits.length} result${hits.length === 1 ? "" : "s"})`;
      t.view.resultTail = hits.slice(0, RESULT_LINES).map((h) => h.url);
    } else {
      t.view.resultTail = lastLines(text, RESULT_LINES);
    }
    return created ? t : null;
  }

  private addTool(id: string, name: string, input: unknown): Extract<Entry, { kind: "tool" }> {
    const t = this.push(toolEntry(id, name, name, input)) as Extract<Entry, { kind: "tool" }>;
    this.tools.set(id, t);
    return t;
  }

  private push(e: DistributiveOmit<Entry, "key">): Entry {
    const entry = { ...e, key: this.nextKey++ } as Entry;
    this.entries.push(entry);
    return entry;
  }
}

type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;

function toolEntry(id: string, name: string, summary: string, input: unknown): DistributiveOmit<Entry, "key"> {
  return { kind: "tool", input, view: { id, name, summary, status: "pending", startedAt: null, durationMs: null, outputTail: [] } };
}

/**
 * A message as the user wrote it. Images sent from the composer are named by their chips in the
 * text ("[image 1: shot.png, 24 KB]"); images without one (from an editor over ACP, from
 * stream-json) are shown as "[image]" each.
 */
function userText(content: string | Array<{ type: string; text?: string }>): string {
  if (typeof content === "string") return content;
  // Context added for the model (plan mode's instructions, a hook's) is not what the user typed.
  const text = content
    .filter((b) => b.type === "text" && !(b.text ?? "").startsWith("<system-reminder>"))
    .map((b) => b.text ?? "")
    .join("\n");
  const images = content.filter((b) => b.type === "image").length;
  const unnamed = images - (text.match(/\[image \d+: [^\]\n]*\]/g)?.length ?? 0);
  return unnamed > 0 ? [...Array.from({ length: unnamed }, () => "[image]"), text].filter((t) => t !== "").join(" ") : text;
}

function resultText(content: ToolResultContent): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? b.text : "[image]")).join("\n");
}

const RESULT_LINES = 4;

/** `total`: lines of the whole output when the text is only its head and tail (a 50 MB build log). */
function lastLines(text: string, n: number, total?: number): string[] {
  const lines = text.split("\n");
  while (lines.length > 0 && (lines[lines.length - 1] ?? "").trim() === "") lines.pop();
  const all = total !== undefined && total > lines.length ? total : lines.length;
  // "… 1 earlier line" would take the row the line itself needs.
  return all > n + 1 ? [`… ${(all - n).toLocaleString("en-US")} earlier lines`, ...lines.slice(-n)] : lines;
}
