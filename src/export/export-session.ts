// `khaelor export` and /export: one session's log read (the log is the truth), redacted again as it
// leaves (a log written before a secret's shape was known still holds it), and rendered as
// Markdown, one HTML page, or JSON (the events themselves, images as their files beside the log).
import { isInlineImage, mapImageBlocks } from "../events/image-refs.ts";
import type { DurableEvent } from "../events/types.ts";
import { currentBranch } from "../session/branch.ts";
import { readSessionLog } from "../session/log.ts";
import { sessionIdOf } from "../session/paths.ts";
import { createTextRedactor } from "../session/redact.ts";
import { buildDocument } from "./document.ts";
import { toHtml } from "./html.ts";
import { toMarkdown } from "./markdown.ts";
import { createHash } from "node:crypto";
import { basename } from "node:path";

export const EXPORT_FORMATS = ["md", "html", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** md unless the output file's extension says otherwise. */
export function formatFor(output: string | null): ExportFormat {
  if (output && /\.html?$/i.test(output)) return "html";
  if (output && /\.json$/i.test(output)) return "json";
  return "md";
}

type Env = Record<string, string | undefined>;

export type Exported = { text: string; /** Lines of the log that could not be read (skipped). */ warnings: string[]; title: string; turns: number };

/** Every string in a JSON value through `redact` (keys stay). */
function redactDeep(v: unknown, redact: (s: string) => string): unknown {
  if (typeof v === "string") return redact(v);
  if (Array.isArray(v)) return v.map((x) => redactDeep(x, redact));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactDeep(x, redact)]));
  return v;
}

/** The events as JSON: images as the references the log keeps (their file beside it), not base64. */
function eventsJson(events: DurableEvent[], logPath: string, redact: (s: string) => string): string {
  const EXT: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };
  const out = events.map((e) => {
    const withRefs = mapImageBlocks(e as unknown as Record<string, unknown>, isInlineImage, (b) => {
      const src = (b as { source: { media_type: string; data: string } }).source;
      const bytes = Buffer.from(src.data, "base64");
      return { type: "image", source: { type: "file", media_type: src.media_type, file: `${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.${EXT[src.media_type] ?? "bin"}`, bytes: bytes.length } };
    });
    return redactDeep(withRefs, redact);
  });
  return `${JSON.stringify({ format: "khaelor-session", sessionId: sessionIdOf(logPath), log: basename(logPath), events: out }, null, 2)}\n`;
}

export function exportSession(logPath: string, format: ExportFormat, env: Env = process.env): Exported {
  const log = readSessionLog(logPath);
  const redact = createTextRedactor(env);
  const warnings = log.warnings.map((w) => w.message);
  // The conversation as it stands: what a rewind left behind stays in the log, not in what is shared.
  const events = currentBranch(log.events);
  const doc = buildDocument(events, logPath, redact, sessionIdOf(logPath));
  const turns = doc.turns.filter((t) => t.role === "user").length;
  if (format === "json") return { text: eventsJson(events, logPath, redact), warnings, title: doc.title, turns };
  return { text: format === "html" ? toHtml(doc) : toMarkdown(doc), warnings, title: doc.title, turns };
}
