// The world the tools act on. Tools reach files, processes and ripgrep only through this.
export interface Workspace {
  /** Project root (the directory KHAELOR was started in, or --cwd). Never changes in a session. */
  readonly root: string;
  /** Current directory for relative paths and bash; a `cd` in bash carries over. */
  cwd: string;
  /** Absolute, normalised path for a model-supplied path (relative to cwd). */
  resolve(path: string): string;
}

/** A process the process tool started, as the session log records it (resume stops it if still running). */
export type StartedProcess = { toolUseId: string; command: string; name: string | null; /** Its group's id, when the result said. */ pid: number | null };

// What the local workspace adds for the tools (createWorkspace in ./local.ts builds one).
import type { EditJournal } from "./edit-journal.ts";
import type { ProcessRegistry } from "./process-registry.ts";
import type { ReadRecords } from "./read-records.ts";
import type { SpillFiles } from "./spill.ts";
import type { CommandConfinement } from "./confinement.ts";
export type { CommandConfinement, ConfinedCommand } from "./confinement.ts";

export interface LocalWorkspace extends Workspace {
  /** What the model has read (mtime, size, hash per absolute path), for stale-write checks. */
  readonly reads: ReadRecords;
  /** Files for outputs over the result budget. */
  readonly spill: SpillFiles;
  /** Every change write/edit made, for undo. */
  readonly edits: EditJournal;
  /** Processes from the process tool, and bash groups in flight. stopAll() on exit. */
  readonly processes: ProcessRegistry;
  /** The ripgrep executable. */
  ripgrepPath(): string;
  /**
   * Where read, edit and write get and put a text file's content when not the disk: an editor's
   * buffers over ACP (fs/read_text_file, fs/write_text_file), so unsaved changes are what the model
   * sees and changes. The disk still answers whether a path exists, what kind of file it is and
   * whether it is binary; bash, grep, glob, /undo and the shadow repository see only the disk.
   */
  readonly files?: TextFiles;
  /**
   * Where bash runs its commands when not here: the editor's terminal over ACP (terminal/create),
   * so the user watches the command in the editor. Absent, bash runs them as child processes here.
   */
  readonly terminal?: CommandTerminal;
  /**
   * Confines the commands bash and the process tool run (src/sandbox): absent, or answering null
   * (off, unavailable), they run as the user does.
   */
  confine?: CommandConfinement;
  /** After write/edit changed a file that held `before` (null: new): the session's /undo adopts it. */
  onFileChanged?: (abs: string, before: Uint8Array | null) => Promise<void>;
}

/** Text content by absolute path, from somewhere other than the disk (see LocalWorkspace.files). */
export interface TextFiles {
  readText(abs: string): Promise<string>;
  writeText(abs: string, text: string): Promise<void>;
}

/** How a command run in a terminal ended: its output (as much as the terminal kept) and exit. */
export type TerminalRun = { output: string; truncated: boolean; code: number | null; signal: string | null };

/** Runs one bash script to its end; `signal` aborted kills it (timeout or cancel). */
export interface CommandTerminal {
  run(script: string, opts: { cwd: string; env: Record<string, string>; toolUseId: string; signal: AbortSignal }): Promise<TerminalRun>;
}

export function isLocalWorkspace(ws: Workspace): ws is LocalWorkspace {
  const w = ws as Partial<LocalWorkspace>;
  return !!w.reads && !!w.spill && !!w.edits && !!w.processes && typeof w.ripgrepPath === "function";
}

