// A project command's allowed-tools are granted only in a trusted project (src/trust), the same
// trust its hooks and MCP servers need: otherwise a cloned repository's .claude/commands file
// could grant itself Bash and run its own !`cmd` lines. Untrusted, the command still runs, but
// its lines and the model's calls go through the permission rules like any other. User commands
// keep their grants.
import { recordTrust, trustState, type TrustItem } from "../trust/project-trust.ts";

export type CommandTrust = {
  /** Whether this command's grants hold (no trust item: a user command, or one granting nothing). */
  grants(item: TrustItem | undefined): boolean;
  /** Not yet answered: the app's start-up trust question lists these. */
  pending(): TrustItem[];
  answer(answer: "trust" | "decline"): void;
  /** For print mode: why the grants are ignored, said once at start. */
  notices: string[];
};

export function openCommandTrust(opts: { cwd: string; items: TrustItem[]; trustProject: boolean; interactive: boolean }): CommandTrust {
  const state = trustState(opts.cwd, opts.items);
  const trusted = new Set((opts.trustProject ? opts.items : state.trusted).map((i) => i.fingerprint));
  const unasked = opts.trustProject ? [] : [...state.unasked];
  const notices = unasked.length > 0 && !opts.interactive ? [ungrantedMessage(opts.cwd, unasked)] : [];
  return {
    grants: (item) => item === undefined || trusted.has(item.fingerprint),
    pending: () => [...unasked],
    answer(answer) {
      const answered = unasked.splice(0);
      recordTrust(opts.cwd, answered, answer);
      if (answer === "trust") for (const i of answered) trusted.add(i.fingerprint);
    },
    notices,
  };
}

function ungrantedMessage(cwd: string, items: TrustItem[]): string {
  return [
    `not granting the allowed-tools or model of ${items.length === 1 ? "a command" : `${items.length} commands`} from this project's files, as ${cwd} is not trusted; their !\`cmd\` lines and the model's calls go through the permission rules, on your model:`,
    ...items.map((i) => `  ${i.kind} ${i.name} (${i.file}): ${i.command}`),
    `  To trust them: open khaelor here once and answer the trust question, or pass --trust-project to this run.`,
  ].join("\n");
}
