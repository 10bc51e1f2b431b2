// Zod schemas for the durable events: the session log on disk is a trust boundary (a crash, a
// disk error or an older KHAELOR may have written it). `parseEventLine` reads one log line of any
// past format version, migrates it forward, and validates it against today's types.
import { z } from "zod";
import type * as T from "./types.ts";
import { migrateEvent, VERSION_FIELD, FORMAT_VERSION } from "./migrations.ts";
import { EventParseError, NewerFormatError } from "./parse-error.ts";
import { isImageRef, isInlineImage, mapImageBlocks, type StoredImageRef } from "./image-refs.ts";

export { EventParseError, NewerFormatError };

/** The format written today. Every bump comes with a migration in ./migrations.ts and a fixture in test/fixtures/sessions/. */
export { FORMAT_VERSION };

const base = { id: z.string().min(1), ts: z.number() };

// Server-side blocks and citations are kept whole (looseObject): the API wants them back unchanged.
const citation = z.looseObject({ type: z.string() });
const textBlock = z.object({ type: z.literal("text"), text: z.string(), citations: z.array(citation).optional() });
const serverToolUseBlock = z.looseObject({ type: z.literal("server_tool_use"), id: z.string(), name: z.string(), input: z.unknown() });
const webSearchResultBlock = z.looseObject({ type: z.literal("web_search_tool_result"), tool_use_id: z.string(), content: z.unknown() });
const webFetchResultBlock = z.looseObject({ type: z.literal("web_fetch_tool_result"), tool_use_id: z.string(), content: z.unknown() });
const unknownBlock = z.object({ type: z.literal("unknown_block"), block: z.looseObject({ type: z.string() }) });
const thinkingBlock = z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() });
const redactedThinkingBlock = z.object({ type: z.literal("redacted_thinking"), data: z.string() });
const toolUseBlock = z.object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() });
const imageBlock = z.object({
  type: z.literal("image"),
  source: z.object({
    type: z.literal("base64"),
    media_type: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
    data: z.string(),
  }),
});
const toolResultContent = z.union([z.string(), z.array(z.discriminatedUnion("type", [textBlock, imageBlock]))]);
const toolResultBlock = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: toolResultContent,
  is_error: z.boolean().optional(),
});
const assistantBlock = z.discriminatedUnion("type", [
  textBlock,
  thinkingBlock,
  redactedThinkingBlock,
  toolUseBlock,
  serverToolUseBlock,
  webSearchResultBlock,
  webFetchResultBlock,
  unknownBlock,
]);
const userBlock = z.discriminatedUnion("type", [textBlock, imageBlock, toolResultBlock]);
const usage = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_read_input_tokens: z.number(),
  cache_creation_input_tokens: z.number(),
  server_tool_use: z.object({ web_search_requests: z.number(), web_fetch_requests: z.number() }).optional(),
});
const stopReason = z.enum(["end_turn", "max_tokens", "tool_use", "stop_sequence", "pause_turn", "refusal"]);
const permissionMode = z.enum(["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]);

export const sessionHeaderSchema = z.object({
  ...base,
  type: z.literal("session_header"),
  formatVersion: z.number().int().positive(),
  khaelorVersion: z.string(),
  sessionId: z.string().min(1),
  cwd: z.string(),
  model: z.string(),
  permissionMode,
  forkedFrom: z.string().optional(),
  git: z
    .object({
      root: z.string(),
      branch: z.string().nullable(),
      head: z.string().nullable(),
      dirty: z.array(z.object({ path: z.string(), hash: z.string().nullable() })),
    })
    .nullable()
    .optional(),
});

export const userMessageSchema = z.object({
  ...base,
  type: z.literal("user_message"),
  content: z.union([z.string(), z.array(userBlock)]),
  steering: z.boolean().optional(),
  synthetic: z.enum(["verify", "doom_loop", "process_exit", "stop_hook", "shell", "structured_output", "agent"]).optional(),
  shell: z.object({ runId: z.string(), command: z.string(), exitCode: z.number().int().nullable(), stopped: z.boolean().optional(), durationMs: z.number() }).optional(),
  display: z.string().optional(),
});

export const assistantMessageSchema = z.object({
  ...base,
  type: z.literal("assistant_message"),
  message: z.object({
    id: z.string(),
    model: z.string(),
    content: z.array(assistantBlock),
    stop_reason: stopReason.nullable(),
    usage,
  }),
  costUsd: z.number().nullable(),
  interrupted: z.boolean().optional(),
});

export const toolResultSchema = z.object({
  ...base,
  type: z.literal("tool_result"),
  toolUseId: z.string(),
  name: z.string(),
  content: toolResultContent,
  isError: z.boolean(),
  kind: z.enum(["ok", "error", "unknown_tool", "invalid_input"]),
  summary: z.string(),
  display: z
    .object({ diff: z.string().optional(), path: z.string().optional(), cwd: z.string().optional(), notes: z.string().optional(), body: z.number().int().min(0).optional(), lines: z.number().int().min(0).optional() })
    .optional(),
  interrupted: z.boolean().optional(),
  durationMs: z.number(),
});

export const permissionDecisionSchema = z.object({
  ...base,
  type: z.literal("permission_decision"),
  toolUseId: z.string(),
  toolName: z.string(),
  decision: z.enum(["allow", "deny"]),
  source: z.string(),
  savedRule: z.object({ rule: z.string(), scope: z.enum(["session", "local", "project", "user"]) }).optional(),
  message: z.string().optional(),
});

export const compactionSchema = z.object({
  ...base,
  type: z.literal("compaction"),
  summary: z.string(),
  firstKeptEventId: z.string(),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  trigger: z.enum(["auto", "manual", "overflow"]),
  prunedToolUseIds: z.array(z.string()).optional(),
  usage: usage.optional(),
  costUsd: z.number().nullable().optional(),
});

export const interruptionSchema = z.object({
  ...base,
  type: z.literal("interruption"),
  reason: z.enum(["user", "sigint", "sigterm", "sighup", "crash_recovery"]),
});

export const settingChangeSchema = z.object({
  ...base,
  type: z.literal("setting_change"),
  model: z.string().optional(),
  permissionMode: permissionMode.optional(),
  title: z.string().optional(),
});

export const errorSchema = z.object({ ...base, type: z.literal("error"), kind: z.string(), message: z.string() });

export const undoSchema = z.object({
  ...base,
  type: z.literal("undo"),
  snapshot: z.string(),
  restored: z.array(z.string()),
  removed: z.array(z.string()).optional(),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
});

export const turnEndSchema = z.object({
  ...base,
  type: z.literal("turn_end"),
  reason: z.enum(["finished", "max_turns", "max_budget", "wall_time", "cancelled", "doom_loop", "strikes", "hook_stopped", "error"]),
});

export const rewindSchema = z.object({
  ...base,
  type: z.literal("rewind"),
  to: z.string().min(1),
  keep: z.enum(["before", "through"]),
  conversation: z.boolean(),
  code: z
    .object({ snapshot: z.string(), restored: z.array(z.string()), removed: z.array(z.string()), skipped: z.array(z.object({ path: z.string(), reason: z.string() })) })
    .optional(),
  filesKept: z.boolean().optional(),
});

const agentUsage = z.object({ input_tokens: z.number(), output_tokens: z.number(), cache_read_input_tokens: z.number(), cache_creation_input_tokens: z.number() });

export const agentEndSchema = z.object({
  ...base,
  type: z.literal("agent_end"),
  agentId: z.string().min(1),
  toolUseId: z.string(),
  agentType: z.string(),
  status: z.enum(["completed", "failed", "cancelled"]),
  costUsd: z.number().nullable(),
  usage: agentUsage,
  durationMs: z.number(),
  log: z.string(),
  background: z.boolean().optional(),
  worktree: z.object({ path: z.string(), branch: z.string() }).optional(),
});

export const durableEventSchema = z.discriminatedUnion("type", [
  sessionHeaderSchema,
  userMessageSchema,
  assistantMessageSchema,
  toolResultSchema,
  permissionDecisionSchema,
  compactionSchema,
  interruptionSchema,
  settingChangeSchema,
  errorSchema,
  undoSchema,
  turnEndSchema,
  rewindSchema,
  agentEndSchema,
]);

// Compile-time check: each schema's output has exactly the keys and the types of its TS event.
// A field added to types.ts without a schema (or the reverse) fails `tsc`, so the log can never
// silently drop a field on the way to disk and back.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Same<A, B> = SameKeys<A, B> extends true ? Mutual<A, B> : false;
type Parsed = z.output<typeof durableEventSchema>;
type EveryVariantMatches = {
  [K in T.DurableEvent["type"]]: Same<Extract<Parsed, { type: K }>, Extract<T.DurableEvent, { type: K }>>;
};
type AllTrue<B> = false extends B ? false : true;
const schemasMatchTypes: AllTrue<EveryVariantMatches[T.DurableEvent["type"]]> = true;
void schemasMatchTypes;

/**
 * One log line → today's event. `version` is the format version the log's header declared (a
 * header line carries its own). Throws EventParseError for anything that is not a valid event.
 */
export function parseEventLine(line: string, version?: number, images?: ImageRefReader): T.DurableEvent {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    throw new EventParseError("not valid JSON (a torn or corrupted write)");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new EventParseError("not a JSON object");
  // NewerFormatError passes through: the caller must not read on as if nothing happened.
  let migrated = migrateEvent(raw as Record<string, unknown>, version);
  migrated = mapImageBlocks(migrated, isImageRef, (b) => (images ? images(b as StoredImageRef) : { type: "text", text: "[image]" }));
  const result = durableEventSchema.safeParse(migrated);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new EventParseError(`not a valid event${where}: ${issue?.message ?? "unknown problem"}`);
  }
  return result.data as T.DurableEvent;
}

/**
 * A stored image's reference back to the block it stands for: the image, or a text block saying
 * what became of it (its file is gone). Without one, a reference reads as the text "[image]"
 * (a listing needs no pixels).
 */
export type ImageRefReader = (ref: StoredImageRef) => { type: "image"; source: { type: "base64"; media_type: string; data: string } } | { type: "text"; text: string };

/** Stores an inline image (a file beside the log) and returns the reference the line keeps instead. */
export type ImageRefWriter = (image: { media_type: string; data: string }) => StoredImageRef;

/** One event as one log line (no newline), stamped with today's format version; images through `images` when given. */
export function serializeEvent(e: T.DurableEvent, images?: ImageRefWriter): string {
  const stored = images ? mapImageBlocks(e as unknown as Record<string, unknown>, isInlineImage, (b) => images((b as { source: { media_type: string; data: string } }).source)) : e;
  return JSON.stringify({ [VERSION_FIELD]: FORMAT_VERSION, ...stored });
}
