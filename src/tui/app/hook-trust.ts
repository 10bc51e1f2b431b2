// The project-trust question for the hooks a project's own settings define, asked once per
// project the first time the app opens there (the answer is kept in the user's data directory,
// src/trust). Worded as the MCP servers' question, so the two read as one rule.
import type { AgentSession } from "../../agent/types.ts";
import type { AppActions } from "./actions.ts";
import type { Transcript } from "../transcript/transcript.ts";

export function askHookTrust(session: AgentSession, transcript: Transcript, actions: Pick<AppActions, "choose" | "flash" | "render">): void {
  const items = session.hookTrust?.pending() ?? [];
  if (items.length === 0) return;
  transcript.notice(
    [
      `This project's files define ${items.length === 1 ? "a command" : `${items.length} commands`} KHAELOR would run on your machine:`,
      ...items.map((i) => `  ${i.kind} ${i.name} (${i.file}):\n    ${i.command}`),
      "Run them only if you trust where this project came from.",
    ].join("\n"),
    "warn",
  );
  actions.choose(
    `Trust ${session.cwd} and run ${items.length === 1 ? "it" : "them"}? (remembered for this project)`,
    [
      { label: "Trust and run", detail: "now and in later sessions; a changed command asks again", value: "trust" },
      { label: "Do not run", detail: "remembered; the hooks stay off", value: "decline" },
    ],
    (answer) => {
      session.hookTrust.answer(answer === "trust" ? "trust" : "decline");
      actions.flash(answer === "trust" ? "the project's hooks run from now on" : "the project's hooks stay off");
      actions.render();
    },
  );
}
