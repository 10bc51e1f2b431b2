// The statusLine command wired to the app: it hears the session's events (whichever session the
// app has open, after /clear or /resume too), runs the user's command on those that change what
// the line can show, and puts its line into the app's state.
import type { AgentEvent } from "../../events/types.ts";
import type { App } from "../../tui/app/app.ts";
import { runStatusCommand, statusCommand } from "./status-line-command.ts";
import { statusLineInput, statusTallies } from "./status-line-input.ts";

/** Events after which the line may read differently (a delta changes nothing it shows). */
const UPDATES = new Set<AgentEvent["type"]>(["session_header", "user_message", "assistant_message", "tool_result", "compaction", "setting_change", "turn_end", "undo"]);

export type AttachedStatusLine = { onEvent(e: AgentEvent): void; start(): void; stop(): void };

export function attachStatusLine(app: App): AttachedStatusLine {
  const tallies = statusTallies(Date.now);
  const startedAt = Date.now();
  const setting = () => app.state.session?.statusLine() ?? null;
  const cmd = statusCommand(
    () => setting()?.command ?? "",
    () => {
      const session = app.state.session;
      if (!session) return {};
      return statusLineInput({ session, usage: app.state.transcript.usage, tallies, startedAt, now: Date.now(), vimMode: app.state.vim?.mode ?? null });
    },
    {
      run(stdin, signal) {
        const s = setting();
        const session = app.state.session;
        return s && session ? runStatusCommand(s.command, session.cwd, stdin, signal) : Promise.resolve("");
      },
      now: Date.now,
      later(fn, ms) {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      },
      show(line) {
        const pad = setting()?.padding ?? 0;
        const next = line ? { spans: pad > 0 ? [{ text: " ".repeat(pad) }, ...line] : line } : null;
        if (next === null && !app.state.customStatus) return;
        app.state.customStatus = next;
        app.requestRender();
      },
      notice(text) {
        app.transcript.notice(text, "warn");
        app.requestRender();
      },
    },
  );
  return {
    onEvent(e) {
      tallies.observe(e);
      if (UPDATES.has(e.type) && setting()) cmd.request();
    },
    start() {
      for (const e of app.state.session?.replayed?.events ?? []) tallies.observe(e);
      if (setting()) cmd.request();
    },
    stop: () => cmd.stop(),
  };
}
