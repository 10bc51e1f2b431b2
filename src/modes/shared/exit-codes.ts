// Exit codes, the same in every mode (khaelor --help lists them).
import type { TurnEndReason } from "../../events/types.ts";

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  maxTurns: 3,
  budget: 4,
  doomLoop: 5,
  sighup: 129,
  sigint: 130,
  sigterm: 143,
} as const;

/** How a turn that ran to its end exits a one-shot run. */
export function exitCodeFor(reason: TurnEndReason): number {
  switch (reason) {
    case "finished":
    case "hook_stopped":
      return EXIT.ok;
    case "max_turns":
      return EXIT.maxTurns;
    case "max_budget":
    case "wall_time":
      return EXIT.budget;
    case "doom_loop":
      return EXIT.doomLoop;
    case "cancelled":
      return EXIT.sigint;
    default:
      return EXIT.error;
  }
}
