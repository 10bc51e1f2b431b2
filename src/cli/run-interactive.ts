// The interactive app comes with the TUI; until it lands, a TTY session runs in print mode.
import type { CliOptions } from "./args.ts";

export async function runInteractive(opts: CliOptions): Promise<number> {
  return (await import("./run-print.ts")).runPrint(opts);
}
