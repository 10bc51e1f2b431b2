// --resume: the log's events → everything the session had in memory. Durable events are the
// truth; this is a fold over them.
import type { DurableEvent, PermissionMode, SessionHeader } from "../events/types.ts";
import type { ToolUseBlock } from "../model/types.ts";
import type { StartedProcess } from "../workspace/types.ts";
import { createSummaryBuilder } from "./summary.ts";
import { createConversationView, type ConversationView } from "./view.ts";

export type SavedGrant = { rule: string; decision: "allow" | "deny" };

export type Replayed = {
  header: SessionHeader | null;
  events: DurableEvent[];
  view: ConversationView;
  costUsd: number;
  title: string;
  turns: number;
  model: string;
  permissionMode: PermissionMode;
  /** Rules the user saved for this session ("allow always" with scope session). */
  grants: SavedGrant[];
  /** Processes started by the process tool and never seen to stop. Only lost if the session crashed. */
  lostProcesses: StartedProcess[];
  /** tool_use ids with no result: the session stopped while they ran. */
  danglingToolUses: string[];
  /** The last user turn has no turn_end: KHAELOR stopped in the middle of it. */
  turnOpen: boolean;
  lastEventId: string | null;
  /** Every tool the model called in this session: the resume contract is that none of them may be missing now. */
  toolNamesUsed: string[];
};

const PROCESS_TOOL = "process";
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

export function replaySession(events: DurableEvent[]): Replayed {
  const view = createConversationView();
  const header = (events.find((e) => e.type === "session_header") as SessionHeader | undefined) ?? null;
  const summary = createSummaryBuilder(header?.sessionId ?? "");
  let model = header?.model ?? "";
  let permissionMode: PermissionMode = header?.permissionMode ?? "default";
  const grants = new Map<string, SavedGrant>();
  const processes = new Map<string, StartedProcess & { keys: string[] }>();
  const toolUses = new Map<string, ToolUseBlock>();
  let turnOpen = false;

  for (const e of events) {
    view.apply(e);
    summary.add(e);
    switch (e.type) {
      case "setting_change":
        if (e.model) model = e.model;
        if (e.permissionMode) permissionMode = e.permissionMode;
        break;
      case "permission_decision":
        if (e.savedRule?.scope === "session") grants.set(`${e.decision} ${e.savedRule.rule}`, { rule: e.savedRule.rule, decision: e.decision });
        break;
      case "user_message":
        if (!e.steering && !e.synthetic) turnOpen = true;
        if (e.synthetic === "process_exit") {
          const text = typeof e.content === "string" ? e.content : e.content.map((b) => (b.type === "text" ? b.text : "")).join(" ");
          for (const [id, p] of processes) if (p.keys.some((k) => text.includes(k))) processes.delete(id);
        }
        break;
      case "turn_end":
        turnOpen = false;
        break;
      case "assistant_message":
        for (const b of e.message.content) if (b.type === "tool_use") toolUses.set(b.id, b);
        break;
      case "tool_result": {
        const use = toolUses.get(e.toolUseId);
        if (!use || use.name !== PROCESS_TOOL || e.isError) break;
        trackProcess(processes, use, e.content);
        break;
      }
    }
  }
  const s = summary.result();
  return {
    header,
    events,
    view,
    costUsd: s.costUsd,
    title: s.title,
    turns: s.turns,
    model,
    permissionMode,
    grants: [...grants.values()],
    lostProcesses: [...processes.values()].map(({ keys: _keys, ...p }) => p),
    danglingToolUses: view.unansweredToolUses(),
    turnOpen,
    lastEventId: events.length > 0 ? events[events.length - 1]!.id : null,
    toolNamesUsed: [...new Set([...toolUses.values()].map((b) => b.name))].sort(),
  };
}

// The process tool's calls: {action: "start", command, name?} starts one (its result names the
// id), {action: "stop"|"kill", id|name} ends it.
function trackProcess(processes: Map<string, StartedProcess & { keys: string[] }>, use: ToolUseBlock, content: unknown) {
  const input = (use.input ?? {}) as Record<string, unknown>;
  const action = str(input.action);
  if (action === "start") {
    const text = typeof content === "string" ? content : JSON.stringify(content);
    // The process tool answers `Started "name" as p1 (pid 42) …` (the name part only when given).
    const id = /Started (?:"[^"\n]{0,500}" as )?([A-Za-z0-9_.-]+) \(pid/.exec(text)?.[1];
    const name = str(input.name);
    const keys = [id, name].filter((k): k is string => !!k);
    const pid = Number(/\(pid (\d+)\)/.exec(text)?.[1] ?? NaN);
    processes.set(use.id, { toolUseId: use.id, command: str(input.command) ?? "", name, pid: Number.isInteger(pid) && pid > 1 ? pid : null, keys });
  } else if (action === "stop" || action === "kill") {
    const target = str(input.id) ?? str(input.name);
    if (!target) return;
    for (const [id, p] of processes) if (p.keys.includes(target)) processes.delete(id);
  }
}
