// MCP in the app: /mcp (each server's status, its tools, reconnect, trusting a server declined
// before), and a notice when a server fails.
import type { AgentSession, ServerView } from "../../agent/types.ts";
import type { AppActions } from "./actions.ts";
import { sessionOf, type AppState } from "./state.ts";
import { askTrust } from "./trust-question.ts";

function status(s: ServerView): string {
  switch (s.status.state) {
    case "connected":
      return `connected · ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`;
    case "failed":
      return `failed: ${s.status.reason}`;
    case "needs-approval":
      return `needs approval: ${s.status.reason}`;
    case "disabled":
      return "disabled";
    case "pending":
      return "connecting…";
  }
}

/** /mcp: the servers, then a chooser to reconnect one (or to review a project's servers). */
export function showMcp(state: AppState, actions: AppActions): void {
  const s = sessionOf(state);
  const servers = s.mcp.servers();
  const t = state.transcript;
  if (servers.length === 0) {
    t.notice("No MCP servers. Add one with khaelor mcp add <name> <command> [args...], or in .mcp.json.");
    return;
  }
  const lines = ["MCP servers:"];
  for (const v of servers) {
    lines.push(`  ${v.name} (${v.scope}, ${v.transport}) — ${status(v)}`, `    ${v.target}`);
    if (v.tools.length) lines.push(`    tools: ${v.tools.map((x) => x.name).join(", ")}`);
  }
  t.notice(lines.join("\n"));
  actions.choose(
    "Reconnect a server? (Enter reconnects; Esc leaves them)",
    servers
      .filter((v) => v.status.state !== "disabled" && v.transport !== "invalid")
      .map((v) => ({ label: v.name, detail: v.status.state === "needs-approval" ? "review and trust it first" : status(v), value: v.name })),
    (name) => {
      const v = servers.find((x) => x.name === name);
      if (v?.status.state === "needs-approval") {
        askProjectTrust(state, actions, [name]);
        return;
      }
      actions.flash(`reconnecting ${name}…`);
      void s.mcp.reconnect(name).then(() => {
        const now = s.mcp.servers().find((x) => x.name === name);
        if (now) state.transcript.notice(`MCP server ${name}: ${status(now)}`, now.status.state === "connected" ? "info" : "warn");
        actions.render();
      });
    },
  );
}

/** /mcp's question for servers not trusted yet (the start-up question is start-trust.ts). */
function askProjectTrust(state: AppState, actions: AppActions, names: string[]): void {
  const s = sessionOf(state);
  const items = s.mcp.trustItems().filter((i) => names.includes(i.name));
  askTrust(
    {
      cwd: s.cwd,
      items,
      declineDetail: "remembered; /mcp can trust later",
      onAnswer: (answer) => {
        void s.mcp.answerTrust(answer, items.map((i) => i.name)).then(() => actions.render());
        actions.flash(answer === "trust" ? "starting the project's MCP servers…" : "the project's MCP servers stay off");
      },
    },
    state.transcript,
    actions,
  );
}

/** A notice for each server that fails (at start or later), and for each tool its list lost; returns the unsubscribe. */
export function watchMcp(state: AppState, actions: AppActions, session: AgentSession): () => void {
  const said = new Map<string, string>();
  const toldOf = new Set<string>();
  const check = () => {
    for (const v of session.mcp.servers()) {
      const reason = v.status.state === "failed" ? v.status.reason : null;
      if (reason && said.get(v.name) !== reason) state.transcript.notice(`MCP server ${v.name} failed: ${reason}`, "warn");
      if (reason) said.set(v.name, reason);
      else said.delete(v.name);
      for (const n of v.notices.map((n) => `MCP server ${v.name}: ${n}`)) {
        if (toldOf.has(n)) continue;
        toldOf.add(n);
        state.transcript.notice(n, "warn");
      }
    }
    actions.render();
  };
  const off = session.mcp.onChange(check);
  check();
  return off;
}
