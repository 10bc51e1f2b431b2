// The project-trust question at start: one question for everything a project's own files would
// run or widen (its .mcp.json servers, its hooks, its commands' allowed-tools, and settings that
// allow more or pick a model), so a project asks once, not once per kind. The one
// answer is recorded for all of them (src/trust); /mcp can still trust a declined server later.
import type { AppActions } from "./actions.ts";
import { sessionOf, type AppState } from "./state.ts";
import { askTrust } from "./trust-question.ts";

export function askStartTrust(state: AppState, actions: Pick<AppActions, "choose" | "flash" | "render">): void {
  const s = sessionOf(state);
  const items = s.trust.pending();
  const kinds = new Set(items.map((i) => i.kind));
  const what = [kinds.has("plugin") ? "plugins" : "", kinds.has("MCP server") ? "MCP servers" : "", kinds.has("hook") ? "hooks" : "", kinds.has("command") ? "commands' allowed-tools" : "", kinds.has("setting") ? "settings" : ""].filter(Boolean).join(" and ");
  askTrust(
    {
      cwd: s.cwd,
      items,
      declineDetail: `remembered; ${[kinds.has("MCP server") ? "/mcp can trust a server later" : "", kinds.has("setting") ? "/permissions a setting" : ""].filter(Boolean).join(", ") || "the project's files may only restrict"}`,
      onAnswer: (answer) => {
        void s.trust.answer(answer).then(() => actions.render());
        actions.flash(answer === "trust" ? `the project's ${what} are trusted from now on` : `the project's ${what} stay off`);
        actions.render();
      },
    },
    state.transcript,
    actions,
  );
}
