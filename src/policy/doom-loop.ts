// The same tool call three times in a row means the model is stuck. The first time we tell it;
// the second time we stop the run (its own exit code), since a second nudge rarely helps.
import type { LoopPolicy, PolicyVerdict } from "../kernel/types.ts";
import type { ToolCall } from "../tools/types.ts";

const REPEATS = 3;

export function doomLoopPolicy(): LoopPolicy {
  let last = "";
  let run = 0;
  let strikes = 0;
  return {
    onUserTurn() {
      last = "";
      run = 0;
      strikes = 0;
    },
    afterTools(calls: ToolCall[]): PolicyVerdict {
      for (const call of calls) {
        const key = `${call.name}\0${stableJson(call.input)}`;
        run = key === last ? run + 1 : 1;
        last = key;
      }
      if (run < REPEATS) return { kind: "continue" };
      run = 0;
      strikes++;
      const name = calls[calls.length - 1]?.name ?? "tool";
      if (strikes >= 2)
        return { kind: "stop", reason: "doom_loop", message: `stopped: the model repeated the same ${name} call ${REPEATS} times in a row, twice` };
      return {
        kind: "nudge",
        tag: "doom_loop",
        text: `You have made the same ${name} call ${REPEATS} times in a row with the same input and it will give the same result. Step back: re-read the error, try a different approach, or explain to the user what is blocking you.`,
      };
    },
  };
}

function stableJson(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "undefined";
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`).join(",")}}`;
}
