// /effort [low|medium|high|xhigh|max|auto]: the session's effort level from the next request on,
// as Claude Code's /effort sets it (src/model/effort.ts: what each model is sent). Alone, it says
// the level in force and what the model in use is sent for it.
import type { AgentSession } from "../../agent/types.ts";
import { EFFORT_LEVELS, effortFor, isEffortLevel } from "../../model/effort.ts";
import type { AppState } from "./state.ts";

export function effortCommand(t: AppState["transcript"], s: AgentSession, arg: string): void {
  const want = arg.trim().toLowerCase();
  if (want === "") {
    const level = s.effort();
    t.notice(level ? `Effort: ${level}${sentAs(s.model(), level)}. /effort ${EFFORT_LEVELS.join("|")} changes it, /effort auto leaves it to the API.` : `Effort: not set (the API's default). /effort ${EFFORT_LEVELS.join("|")} sets it.`);
    return;
  }
  if (want === "auto") {
    s.setEffort(undefined);
    t.notice("Effort: not set from the next request on (the API's default).");
    return;
  }
  if (!isEffortLevel(want)) {
    t.notice(`${arg.trim()} is not an effort level: /effort takes ${EFFORT_LEVELS.join(", ")} or auto.`, "warn");
    return;
  }
  s.setEffort(want);
  t.notice(`Effort: ${want} from the next request on${sentAs(s.model(), want)}.`);
}

/** What the model in use gets for `level`, where that is not the level itself. */
function sentAs(model: string, level: (typeof EFFORT_LEVELS)[number]): string {
  const sent = effortFor(model, level);
  if (sent === level) return "";
  return sent === null ? ` (${model} takes no effort level: none is sent to it)` : ` (${model} takes up to ${sent}: sent as ${sent})`;
}
