// Model names as the user gives them and as each provider is sent them. The session keeps the name
// the user chose (`claude-sonnet-5-5`, `opus`, or a cloud's own id); the provider's id is worked
// out per request, so /model and --resume work the same on every provider.
// - Claude Code's variables, unchanged: ANTHROPIC_MODEL picks the session's model;
//   ANTHROPIC_DEFAULT_{OPUS,SONNET,HAIKU}_MODEL say what a family (its alias, or KHAELOR's model of
//   it) is sent as; ANTHROPIC_SMALL_FAST_MODEL is the small model.
// - With none set, each provider gets its own id for KHAELOR's model of the family: Bedrock's
//   global inference profile (`global.anthropic.claude-sonnet-5-5`, as @anthropic-ai/bedrock-sdk's
//   README has it), the same name on Vertex AI and Foundry (a Foundry deployment is named after its model).
// - Any other name (a Bedrock ARN, `claude-sonnet-4-5@20250929`, a deployment's own name) goes as is.
import { DEFAULT_MODEL, FAMILIES } from "../models.ts";
import type { Env, ProviderKind } from "./types.ts";

const familyOf = (model: string): string | null => {
  const m = model.trim().toLowerCase();
  if (FAMILIES[m]) return m;
  return Object.entries(FAMILIES).find(([, name]) => name === m)?.[0] ?? null;
};

const override = (env: Env, family: string): string | undefined => env[`ANTHROPIC_DEFAULT_${family.toUpperCase()}_MODEL`]?.trim() || undefined;

/** The id `kind` is sent for `model`. */
export function wireModel(model: string, kind: ProviderKind, env: Env): string {
  const family = familyOf(model);
  if (!family) return model;
  const chosen = override(env, family);
  if (chosen) return chosen;
  const name = FAMILIES[family]!;
  return kind === "bedrock" ? `global.anthropic.${name}` : name;
}

/** The session's model when neither the flags nor a resumed session nor the settings pick one. */
export function envModel(env: Env): string | undefined {
  return env.ANTHROPIC_MODEL?.trim() || undefined;
}

export function defaultModel(env: Env): string {
  return envModel(env) ?? DEFAULT_MODEL;
}

/** The small, fast model (quick summaries, an explorer): a name the session can hold, sent through wireModel. */
export function smallFastModel(env: Env): string {
  return env.ANTHROPIC_SMALL_FAST_MODEL?.trim() || FAMILIES.haiku!;
}
