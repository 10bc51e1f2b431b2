// The format-version chain. Every line of a session log carries the format version it was written
// in (`"v"`), so a log that an older KHAELOR started and a newer one continued still reads line by
// line. To change the format: bump by pushing one function onto MIGRATIONS (it receives a raw
// event of the previous version and returns it in the next), and add test/fixtures/sessions/v<N>.jsonl.
import { EventParseError, NewerFormatError } from "./parse-error.ts";

export type RawEvent = Record<string, unknown>;

/** MIGRATIONS[i] turns an event of format version i + 1 into version i + 2. */
const MIGRATIONS: ReadonlyArray<(e: RawEvent) => RawEvent> = [
  // 1 → 2: assistant messages may hold the API's server tool blocks (server_tool_use,
  // web_search_tool_result, web_fetch_tool_result, unknown_block) and text citations, and usage
  // server_tool_use counts. A v1 event has none of them: nothing changes. The bump is for older
  // KHAELORs, which refuse a v2 log as newer instead of dropping the lines they cannot parse.
  (e) => e,
  // 2 → 3: an image in a user message or a tool result may be a reference to a file beside the
  // log (src/events/image-refs.ts) instead of inline base64. A v2 event has none: nothing changes.
  // The bump is for older KHAELORs, which would skip such a line as invalid and lose the message.
  (e) => e,
  // 3 → 4: a subagent's end (agent_end) and the parent's notice of a background one (user_message
  // synthetic "agent"). A v3 log has neither: nothing changes. The bump is for older KHAELORs, which
  // would skip agent_end as invalid and lose the cost it carries.
  (e) => e,
];

export const FORMAT_VERSION: number = MIGRATIONS.length + 1;

/** The field that stamps each written line with its format version. */
export const VERSION_FIELD = "v";

/**
 * Brings a raw event of any past version to today's shape. The line's own `v` wins; otherwise
 * `fallbackVersion` (the header's), otherwise the event is taken to be current.
 */
export function migrateEvent(raw: RawEvent, fallbackVersion?: number): RawEvent {
  const stamped = raw[VERSION_FIELD];
  const headerVersion = raw.type === "session_header" ? raw.formatVersion : undefined;
  const from =
    typeof stamped === "number" ? stamped : typeof headerVersion === "number" ? headerVersion : (fallbackVersion ?? FORMAT_VERSION);
  if (!Number.isInteger(from) || from < 1) throw new EventParseError(`unknown format version ${String(from)}`);
  if (from > FORMAT_VERSION) throw new NewerFormatError(from, FORMAT_VERSION);
  let e: RawEvent = { ...raw };
  delete e[VERSION_FIELD];
  for (let v = from; v < FORMAT_VERSION; v++) {
    const step = MIGRATIONS[v - 1];
    if (!step) throw new EventParseError(`no migration from format version ${v}`);
    e = step(e);
  }
  return e;
}
