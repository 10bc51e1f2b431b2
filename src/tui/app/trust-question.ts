// The project-trust question, one wording for every kind of command a project's files define
// (MCP servers, hooks): the commands shown as they would run, then trust or not, remembered per
// project (src/trust). Esc leaves the question for next time.
import type { TrustItem } from "../../trust/project-trust.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { AppActions } from "./actions.ts";
import { revealedNotice } from "../views/invisibles.ts";

export type TrustQuestion = {
  cwd: string;
  items: readonly TrustItem[];
  /** What "Do not run" leaves behind, e.g. "/mcp can trust later". */
  declineDetail: string;
  onAnswer(answer: "trust" | "decline"): void;
};

export function askTrust(q: TrustQuestion, transcript: Transcript, actions: Pick<AppActions, "choose">): void {
  const { items } = q;
  if (items.length === 0) return;
  // Hidden characters in a command show as markers (a right-to-left override can make it read as another).
  transcript.notice(
    revealedNotice([
      `This project's files define ${items.length === 1 ? "a command" : `${items.length} commands`} KHAELOR would run on your machine:`,
      ...items.map((i) => `  ${i.kind} ${i.name} (${i.file}):\n    ${i.command}`),
      "Run them only if you trust where this project came from.",
    ].join("\n")),
    "warn",
  );
  actions.choose(
    `Trust ${q.cwd} and run ${items.length === 1 ? "it" : "them"}? (remembered for this project)`,
    [
      { label: "Trust and run", detail: "now and in later sessions; a changed command asks again", value: "trust" },
      { label: "Do not run", detail: q.declineDetail, value: "decline" },
    ],
    (answer) => q.onAnswer(answer === "trust" ? "trust" : "decline"),
  );
}
