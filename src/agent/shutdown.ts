// How a session ends. close(): the last turn's snapshot first (a SessionEnd hook that edits files
// must not land in it), then SessionEnd, then the agent's processes and MCP servers, then whatever
// still carries the session's mark; a session nobody spoke in leaves nothing behind. A crash or a
// plain process.exit must not leave the model's processes running either: killOnExit.
import { rmSync } from "node:fs";
import type { HookService } from "../hooks/hooks.ts";
import type { McpManager } from "../mcp/manager.ts";
import { imagesDirOf } from "../session/image-store.ts";
import type { SessionWriter } from "../session/log.ts";
import { metaPathOf } from "../session/paths.ts";
import type { GitProtection } from "../workspace/git/index.ts";
import { findMarked, killMarkedSync, stopMarked } from "../workspace/marked-processes.ts";
import { markEntry } from "../workspace/orphans.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import type { SessionEndReason } from "./types.ts";

export type ShutdownParts = {
  /** The session's subagents: cancelled and waited for, so each one's end is in the log. */
  children: { cancelAll(reason?: unknown): void; idle(): Promise<void> };
  sessionId: string;
  workspace: LocalWorkspace;
  mcp: McpManager;
  hooks: HookService;
  writer: SessionWriter;
  git: GitProtection;
  spillDir: string;
  /** The last turn's end snapshot, still on git's queue. */
  ending(): Promise<unknown>;
  spoke(): boolean;
};

/** Installs the exit guard now; returns close(), which runs once. */
export function prepareShutdown(p: ShutdownParts): (reason?: SessionEndReason) => Promise<void> {
  // …nor what left their groups (setsid, double forks): anything still carrying the session's mark.
  const mark = markEntry(p.sessionId);
  const killOnExit = () => {
    p.workspace.processes.killAllSync();
    p.mcp.killSync();
    killMarkedSync(mark);
  };
  process.on("exit", killOnExit);
  let closed = false;
  return async (reason = "other") => {
    if (closed) return;
    closed = true;
    p.children.cancelAll("close");
    await p.children.idle();
    await p.ending();
    if (p.hooks.has("SessionEnd")) await p.hooks.run("SessionEnd", reason, { reason }, new AbortController().signal);
    await Promise.all([p.workspace.processes.stopAll(), p.mcp.close()]);
    await stopMarked(findMarked(mark) ?? []);
    process.off("exit", killOnExit);
    p.writer.close();
    if (p.spoke()) return;
    rmSync(p.writer.path, { force: true });
    rmSync(metaPathOf(p.writer.path), { force: true });
    rmSync(p.spillDir, { recursive: true, force: true });
    rmSync(imagesDirOf(p.writer.path), { recursive: true, force: true });
    p.git.forget();
  };
}
