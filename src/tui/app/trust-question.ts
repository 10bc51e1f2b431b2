// The project-trust question, one wording for every kind of command a project's files define
// (MCP servers, hooks) and the settings they widen permissions with: the commands shown as they
// would run, the settings in plain words, then trust or not, remembered per
// project (src/trust). Esc leaves the question for next time.
import type { TrustItem } from "../../agent/types.ts";
import type { Transcript } from "../transcript/transcript.ts";
import type { AppActions } from "./actions.ts";
import { revealedNotice } from "../views/invisibles.ts";

/** Items listed in full; the rest are counted. */
const MAX_LISTED = 15;
/** Characters of one name or command shown. */
const MAX_CHARS = 240;

function clip(text: string, max = MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

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
  const commands = items.filter((i) => i.kind !== "setting");
  const settings = items.filter((i) => i.kind === "setting");
  // A repository can list hundreds of items or one 3,000-character one: each is clipped and the
  // list bounded, and what is marked ⚠ (code loading, secrets sent, reach past the project) is
  // named again right above the choice.
  const list = (xs: TrustItem[]) => [
    ...xs.slice(0, MAX_LISTED).map((i) => `  ${i.kind} ${clip(i.name)} (${i.file}):\n    ${clip(i.command)}`),
    ...(xs.length > MAX_LISTED ? [`  … and ${xs.length - MAX_LISTED} more (in ${[...new Set(xs.slice(MAX_LISTED).map((i) => i.file))].join(", ")})`] : []),
  ];
  const flagged = [...commands, ...settings].filter((i) => i.command.includes("⚠"));
  const count = (n: number, one: string, many: string) => (n === 1 ? one : `${n} ${many}`);
  // Hidden characters in a command show as markers (a right-to-left override can make it read as another).
  transcript.notice(
    revealedNotice(
      [
        ...(commands.length > 0 ? [`This project's files define ${count(commands.length, "a command", "commands")} KHAELOR would run on your machine:`, ...list(commands)] : []),
        ...(settings.length > 0
          ? [`${commands.length > 0 ? "They also set" : "This project's files set"} ${count(settings.length, "a setting", "settings")} that would let more happen without asking you:`, ...list(settings)]
          : []),
        ...(flagged.length > 0 ? [`⚠ Look closely at ${flagged.map((i) => clip(`${i.kind} ${i.name}`, 60)).join(", ")} (marked ⚠ above).`] : []),
        `${commands.length > 0 ? "Run them" : "Trust them"} only if you trust where this project came from.`,
      ].join("\n"),
    ),
    "warn",
  );
  const them = items.length === 1 ? "it" : "them";
  actions.choose(
    `Trust ${q.cwd} and ${commands.length > 0 ? `run ${them}` : `take ${them}`}? (remembered for this project)`,
    [
      { label: commands.length > 0 ? "Trust and run" : "Trust", detail: "now and in later sessions; a changed one asks again", value: "trust" },
      { label: commands.length > 0 ? "Do not run" : "Do not trust", detail: q.declineDetail, value: "decline" },
    ],
    (answer) => q.onAnswer(answer === "trust" ? "trust" : "decline"),
  );
}
