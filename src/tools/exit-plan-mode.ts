// The exit from plan mode (Claude Code's ExitPlanMode): the model presents its plan, the user
// approves it or keeps it planning. The plan is the call's `plan`, or the session's plan file when
// the call gives none; a call outside plan mode, or with no plan anywhere (the file deleted by
// hand), is answered before anyone is asked, saying what to do. Once allowed, run() saves the plan
// it showed to the plan file (restoring one deleted meanwhile), so what was approved is kept.
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { writeFileAtomic } from "../workspace/atomic-write.ts";
import { fail } from "./results.ts";
import type { Tool, ToolResult } from "./types.ts";
import description from "./exit-plan-mode.md" with { type: "text" };

export const EXIT_PLAN_TOOL = "exit_plan_mode";

/** What the tool needs of its session: the mode now, the plan file, and how the approval went. */
export type PlanSeat = {
  /** The session's permission mode now ("plan" while planning). */
  mode(): string;
  /** The session's plan file (absolute), in the user's data directory. */
  planFile: string;
  /** After the user's answer: true when the plan goes to a new session with a clean context. */
  handedOff(): boolean;
};

const schema = z.object({
  plan: z.string().optional().describe("The plan, in markdown. Leave it out to present the plan file as it is."),
});
type Input = z.infer<typeof schema>;

/** The plan file's text, "" when it is empty, or null when there is no such file. */
function readPlanFile(path: string): string | null {
  if (!existsSync(path)) return null;
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

export function exitPlanModeTool(seat: PlanSeat): Tool<Input> {
  return {
    name: EXIT_PLAN_TOOL,
    description,
    inputSchema: schema,
    readOnly: true,
    destructive: false,
    claudeName: "ExitPlanMode",
    kind: "switch_mode",
    summarize: () => "present the plan for approval",
    async prepare(input) {
      if (seat.mode() !== "plan")
        return { failure: fail(`Not in plan mode (the session is in ${seat.mode()} mode), so there is no plan to approve: carry on with the task as the user asked.`) };
      const fromFile = readPlanFile(seat.planFile);
      const plan = input.plan?.trim() ? input.plan : fromFile;
      if (!plan?.trim()) {
        const why = fromFile === null ? "does not exist (it may have been deleted)" : "is empty";
        return { failure: fail(`There is no plan to present: the plan file ${seat.planFile} ${why} and the call gave no plan. Write the plan to that file (or pass it as \`plan\`), then call ${EXIT_PLAN_TOOL} again.`) };
      }
      return {
        preview: { path: seat.planFile, plan: { text: plan, file: seat.planFile } },
        run: async () => approved(seat, plan, fromFile),
      };
    },
  };
}

function approved(seat: PlanSeat, plan: string, onDisk: string | null): ToolResult {
  let saved = `It is saved in ${seat.planFile}.`;
  if (onDisk !== plan) {
    try {
      writeFileAtomic(seat.planFile, new TextEncoder().encode(plan));
    } catch (e) {
      saved = `It could not be saved to ${seat.planFile} (${e instanceof Error ? e.message : String(e)}); it is in this message.`;
    }
  }
  const said = seat.handedOff()
    ? `The user approved the plan and chose to implement it in a new session with a clean context. ${saved} Stop here: do not start implementing in this conversation.`
    : `The user approved the plan. ${saved} You can now start implementing it.`;
  return { content: `${said}\n\n## Approved plan\n\n${plan}`, display: { body: said.length, notes: "" } };
}
