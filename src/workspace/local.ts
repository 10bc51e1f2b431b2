// The workspace on the local machine: paths, file reads and writes with their bookkeeping, spill
// files, ripgrep and child processes. Tools reach the world only through this object.
import { homedir } from "node:os";
import { isAbsolute, normalize, resolve as resolvePath } from "node:path";
import { ripgrepPath } from "../assets/embedded.ts";
import { EditJournal } from "./edit-journal.ts";
import { sessionMark } from "./orphans.ts";
import { ProcessRegistry } from "./process-registry.ts";
import { ReadRecords } from "./read-records.ts";
import { SpillFiles } from "./spill.ts";
import type { CommandTerminal, LocalWorkspace, TextFiles } from "./types.ts";

export type WorkspaceOptions = {
  /** Project root; also the first cwd. */
  root: string;
  /** Where over-budget outputs are saved (a per-session directory). */
  spillDir: string;
  /** Applied to what spill files keep (the session's redactor); none in tests of the tools alone. */
  redact?: (text: string) => string;
  /** Marks the processes the session starts (see orphans.ts); optional for tests. */
  sessionId?: string;
  /** Files read and written elsewhere than the disk (an ACP editor's buffers); absent, the disk. */
  files?: TextFiles;
  /** Where bash runs commands (an ACP editor's terminal); absent, child processes here. */
  terminal?: CommandTerminal;
};

export function createWorkspace(opts: WorkspaceOptions): LocalWorkspace {
  const root = normalize(resolvePath(opts.root));
  return {
    root,
    cwd: root,
    resolve(path: string): string {
      let p = path.trim();
      if (p === "~" || p.startsWith("~/")) p = homedir() + p.slice(1);
      return normalize(isAbsolute(p) ? p : resolvePath(this.cwd, p));
    },
    reads: new ReadRecords(),
    spill: new SpillFiles(opts.spillDir, opts.redact),
    edits: new EditJournal(),
    processes: new ProcessRegistry(opts.sessionId ? sessionMark(opts.sessionId) : {}),
    ripgrepPath,
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.terminal ? { terminal: opts.terminal } : {}),
  };
}
