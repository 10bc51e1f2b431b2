// The seam the sandbox (src/sandbox) fills: bash and the process tool ask it how to start a command.
/** Wraps a command so the OS confines it (bubblewrap, Seatbelt). */
export interface CommandConfinement {
  /** `command` is what would run unconfined (`bash -c script`); null: run it unconfined (the sandbox is off). */
  /** `line`: the command as the model wrote it (an excluded command runs unconfined). */
  wrap(command: string[], opts: { cwd: string; pty: boolean; line: string }): ConfinedCommand | null;
}

export type ConfinedCommand = {
  argv: string[];
  /** Added to the command's environment (the proxy's address). */
  env: Record<string, string>;
  /** Open descriptors of ours the command gets as its fds 3, 4, … (the session's network namespace). */
  fds: number[];
  /** After finish: the command left processes running that the sandbox ended with it. */
  leftBehind(): boolean;
  /** The command ended with this output: what the sandbox blocked, one line each for the model. */
  finish(output: string): string[];
};
