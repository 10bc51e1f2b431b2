// Session opening: which log a session continues (a new one, the latest, one by id, a fork), and
// what of the workspace a resumed session gets back. Problems a user can act on are
// SessionOpenErrors; what the user should read before the first prompt goes to `notices`.
import { existsSync, statSync } from "node:fs";
import { LIMITS, readRegularFile } from "../workspace/safe-read.ts";
import type { DurableEvent } from "../events/types.ts";
import type { SessionWriteError } from "../session/log.ts";
import { branchUpTo } from "../session/branch.ts";
import { replaySession, type Replayed } from "../session/replay.ts";
import { newEventId } from "../events/id.ts";
import {
  forkSession,
  latestSession,
  NewerSessionError,
  openSession,
  resolveSession,
  SessionEmptyError,
  SessionLockedError,
  SessionNotFoundError,
  SessionUnwritableError,
} from "../session/store.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import type { SessionOptions } from "./types.ts";

/** The session cannot start; `usage` when the cause is how KHAELOR was invoked (exit code 2). */
export class SessionOpenError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** The log a session writes to: null writer for a new session (created once the mode is known). */
export function openLog(o: SessionOptions, dir: string, notices: string[], onWriteError: (e: SessionWriteError) => void) {
  if (!o.resume) return { writer: null, replayed: null, forkedFrom: undefined, seedEvents: undefined, lostProcesses: [] };
  try {
    const path = "latest" in o.resume ? latestSession(dir)?.path : resolveSession(dir, o.resume.id).path;
    if (!path) throw new SessionOpenError(`no session to continue in ${dir}: start one with khaelor -p "..."`);
    if (o.fork) {
      const fork = forkSession(path);
      checkResumeAt(o.resumeAt, fork.replayed);
      notices.push(...fork.warnings);
      const seed = forkSeed(o, fork.events, fork.replayed);
      const replayed = seed === fork.events ? fork.replayed : replaySession(fork.replayed.header ? [fork.replayed.header, ...seed] : seed);
      return { writer: null, replayed, forkedFrom: fork.forkedFrom, seedEvents: seed, lostProcesses: [] };
    }
    const s = openSession(path, { onError: (e) => onWriteError(e) });
    try {
      checkResumeAt(o.resumeAt, s.replayed);
    } catch (e) {
      s.writer.close();
      throw e;
    }
    notices.push(...s.warnings);
    if (s.crashed) notices.push("the previous run of this session stopped unexpectedly; unfinished tool calls were marked as interrupted");
    return { writer: s.writer, replayed: s.replayed, forkedFrom: undefined, seedEvents: undefined, lostProcesses: s.lostProcesses };
  } catch (e) {
    if (e instanceof SessionLockedError || e instanceof SessionNotFoundError || e instanceof NewerSessionError || e instanceof SessionUnwritableError || e instanceof SessionEmptyError)
      throw new SessionOpenError(e.message);
    throw e;
  }
}

/**
 * What a fork starts from: the source's current branch, through --resume-session-at's message
 * (nothing after it is copied), or, for the app's "fork from here", through the picked user
 * message followed by a rewind to before it that leaves the files as they are (so the message
 * comes back to be edited, and the model is told the files may differ).
 */
function forkSeed(o: SessionOptions, branch: DurableEvent[], replayed: Replayed): DurableEvent[] {
  if (o.resumeAt !== undefined) return branchUpTo(branch, o.resumeAt, "through") ?? branch;
  if (o.forkBefore === undefined) return branch;
  const id = o.forkBefore;
  const target = replayed.view.history().find((e) => e.id === id);
  if (!target || target.type !== "user_message" || target.steering || target.synthetic)
    throw new SessionOpenError(`cannot fork from message ${id}: it is not a message of session ${replayed.header?.sessionId ?? "?"} as its conversation stands (nothing was changed)`);
  const now = Date.now();
  return [...(branchUpTo(branch, id, "through") ?? branch), { type: "rewind", id: newEventId(now), ts: now, to: id, keep: "before", conversation: true, filesKept: true }];
}

/** --resume-session-at names a message the conversation holds (as it stands: not one rewound away). */
function checkResumeAt(id: string | undefined, replayed: Replayed): void {
  if (id === undefined || replayed.view.history().some((e) => e.id === id && e.type !== "compaction" && e.type !== "rewind")) return;
  const known = replayed.events.some((e) => e.id === id);
  throw new SessionOpenError(
    known
      ? `--resume-session-at ${id}: that message was rewound away from this session's conversation; pass the uuid of a message still in it (nothing was changed)`
      : `--resume-session-at ${id}: no message of session ${replayed.header?.sessionId ?? "?"} has that uuid (nothing was changed)`,
  );
}

/**
 * A resumed session picks up where the model was: in the directory its last bash command left,
 * and knowing the files it read or wrote, as long as they have not changed on disk since (then
 * the stale-write check asks it to read them again, as it would have live).
 */
export function restoreWorkspace(ws: LocalWorkspace, events: DurableEvent[]) {
  for (const e of events) {
    if (e.type !== "tool_result" || e.isError) continue;
    // What the tools said they touched: the file a read, write or edit did, the directory a command left.
    const path = e.display?.path;
    if (path) {
      try {
        const st = statSync(path);
        // +1: the event time is whole milliseconds, the file time finer.
        if (st.isFile() && st.mtimeMs <= e.ts + 1) ws.reads.record(path, readRegularFile(path, { maxBytes: LIMITS.workFile }).bytes, st.mtimeMs);
      } catch {
        // Gone since: the model will find out when it uses the file.
      }
    }
    const cwd = e.display?.cwd;
    if (cwd && existsSync(cwd)) ws.cwd = cwd;
  }
}
