// Closing a session stops the processes the agent started (dev servers, watchers). Stopping a
// server the user may be using is never silent: before the session closes, the app notes what is
// running, and says afterwards what was stopped.
import type { AgentSession } from "../../agent/types.ts";
import { cleanText, clipText } from "../views/text.ts";

const COMMAND_CHARS = 60;

/** "stopped process ticker (python3 -m http.server)", one per process still running now. */
export function runningProcessLines(session: AgentSession): string[] {
  let running;
  try {
    running = session.processes().filter((p) => p.state === "running");
  } catch {
    return [];
  }
  return running.map((p) => `stopped process ${p.name ?? p.id} (${clipText(cleanText(p.command.split("\n")[0] ?? ""), COMMAND_CHARS)})`);
}
