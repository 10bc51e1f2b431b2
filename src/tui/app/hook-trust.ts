// The project-trust question for the hooks a project's own settings define, asked once per
// project the first time the app opens there (the answer is kept in the user's data directory,
// src/trust). Worded as the MCP servers' question, so the two read as one rule.
import type { AgentSession } from "../../agent/types.ts";
import type { AppActions } from "./actions.ts";
import type { Transcript } from "../transcript/transcript.ts";
import { askTrust } from "./trust-question.ts";

export function askHookTrust(session: AgentSession, transcript: Transcript, actions: Pick<AppActions, "choose" | "flash" | "render">): void {
  askTrust(
    {
      cwd: session.cwd,
      items: session.hookTrust?.pending() ?? [],
      declineDetail: "remembered; the hooks stay off",
      onAnswer: (answer) => {
        session.hookTrust.answer(answer);
        actions.flash(answer === "trust" ? "the project's hooks run from now on" : "the project's hooks stay off");
        actions.render();
      },
    },
    transcript,
    actions,
  );
}
