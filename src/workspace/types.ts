// The world the tools act on. Tools reach files, processes and ripgrep only through this.
export interface Workspace {
  /** Project root (the directory KHAELOR was started in, or --cwd). Never changes in a session. */
  readonly root: string;
  /** Current directory for relative paths and bash; a `cd` in bash carries over. */
  cwd: string;
  /** Absolute, normalised path for a model-supplied path (relative to cwd). */
  resolve(path: string): string;
}
