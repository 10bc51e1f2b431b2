// The project-trust question at start: one question for everything a project's own files would
// run (its .mcp.json servers, its hooks, and its commands' allowed-tools), so a project asks once, not once per kind. The one
// answer is recorded for all of them (src/trust); /mcp can still trust a declined server later.
import type { AppActions } from "./actions.ts";
import { sessionOf, type AppState } from "./state.ts";
import { askTrust } from "./trust-question.ts";

export function askStartTrust(state: AppState, actions: Pick<AppActions, "choose" | "flash" | "render">): void {
  const s = sessionOf(state);
  const servers = s.mcp.pendingTrust();
  const hooks = s.hookTrust?.pending() ?? [];
  const commands = s.commandTrust?.pending() ?? [];
  const what = [servers.length > 0 ? "MCP servers" : "", hooks.length > 0 ? "hooks" : "", commands.length > 0 ? "commands' allowed-tools" : ""].filter(Boolean).join(" and ");
  askTrust(
    {
      cwd: s.cwd,
      items: [...servers, ...hooks, ...commands],
      declineDetail: servers.length > 0 ? "remembered; /mcp can trust a server later" : hooks.length > 0 ? "remembered; the hooks stay off" : "remembered; the commands run without their grants",
      onAnswer: (answer) => {
        if (hooks.length > 0) s.hookTrust.answer(answer);
        if (commands.length > 0) s.commandTrust.answer(answer);
        if (servers.length > 0) void s.mcp.answerTrust(answer, servers.map((i) => i.name)).then(() => actions.render());
        actions.flash(answer === "trust" ? `the project's ${what} are trusted from now on` : `the project's ${what} stay off`);
        actions.render();
      },
    },
    state.transcript,
    actions,
  );
}
