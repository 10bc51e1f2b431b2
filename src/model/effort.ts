// Effort: how much the model thinks and works on an answer, as Claude Code sets it. What Claude Code
// 2.1 sends, read from its requests to our fake API: a model that takes the API's effort parameter
// gets `output_config: {effort}` (and, where it thinks adaptively, `thinking: {type: "adaptive"}`),
// the level lowered to the highest the model takes (claude-opus-4-5 has no xhigh or max, so `max`
// goes as `high`); a model without it (claude-sonnet-4-5, claude-haiku-4-5) gets nothing, its
// thinking budget as it was.
import { modelInfo } from "./models.ts";
import type { EffortLevel } from "./types.ts";

export type { EffortLevel };
export const EFFORT_LEVELS: readonly EffortLevel[] = ["low", "medium", "high", "xhigh", "max"];

/** The levels each model without the whole range takes (Claude Code's clamps); absent: none. */
const PARTIAL: Record<string, readonly EffortLevel[]> = {
  "claude-opus-4-5": ["low", "medium", "high"],
  "claude-sonnet-4-6": ["low", "medium", "high", "max"],
  "claude-sonnet-4-5": [],
  "claude-haiku-4-5": [],
};

export function isEffortLevel(s: unknown): s is EffortLevel {
  return typeof s === "string" && (EFFORT_LEVELS as readonly string[]).includes(s);
}

/** The levels `model` takes: every level for the adaptive models, Claude Code's subset for the rest. */
export function effortLevelsOf(model: string): readonly EffortLevel[] {
  const info = modelInfo(model);
  if (!info) return [];
  return PARTIAL[info.name] ?? (info.thinking === "adaptive" ? EFFORT_LEVELS : []);
}

/** The level sent for `wanted` on `model`: the highest it takes at or below it; null when it takes none. */
export function effortFor(model: string, wanted: EffortLevel): EffortLevel | null {
  const takes = effortLevelsOf(model);
  for (let i = EFFORT_LEVELS.indexOf(wanted); i >= 0; i--) if (takes.includes(EFFORT_LEVELS[i]!)) return EFFORT_LEVELS[i]!;
  return null;
}

/** Lower of two levels (a project's file may only lower what the user chose). */
export function lowerEffort(a: EffortLevel, b: EffortLevel): EffortLevel {
  return EFFORT_LEVELS.indexOf(a) <= EFFORT_LEVELS.indexOf(b) ? a : b;
}
