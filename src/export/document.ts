// A session as a document to export: its turns in order, each a list of parts (text, thinking, a
// tool call with its result, an image), every string already redacted. The renderers (markdown,
// HTML) only lay this out; what a session says is decided here once.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { DurableEvent } from "../events/types.ts";
import type { ImageBlock, ToolResultContent, UserBlock } from "../model/types.ts";
import { imagesDirOf } from "../session/image-store.ts";
import { isUserTurn } from "../session/summary.ts";

export type ExportImage = { mediaType: string; bytes: number; /** The stored copy beside the log, when there is one. */ file: string | null; /** base64, for a self-contained page. */ data: string };

export type ExportPart =
  | { kind: "text"; text: string }
  | { kind: "thinking"; text: string }
  | { kind: "tool"; name: string; /** One line: what the call did. */ summary: string; result: string; isError: boolean; images: ExportImage[] }
  | { kind: "image"; image: ExportImage }
  | { kind: "note"; text: string };

export type ExportTurn = { role: "user" | "assistant" | "event"; ts: number; parts: ExportPart[] };

export type ExportDocument = { sessionId: string; title: string; cwd: string; model: string; started: number; turns: ExportTurn[] };

const EXT: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

/** The image's stored copy (named for its bytes, as src/session/image-store.ts names them), if it is there. */
function exportImage(block: ImageBlock, logPath: string): ExportImage {
  const bytes = Buffer.from(block.source.data, "base64");
  const name = `${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.${EXT[block.source.media_type] ?? "bin"}`;
  const file = join(imagesDirOf(logPath), name);
  return { mediaType: block.source.media_type, bytes: bytes.length, file: existsSync(file) ? file : null, data: block.source.data };
}

/** A tool call's input in a few words: its command, path or pattern, else its JSON. */
function inputSummary(input: unknown): string {
  if (input && typeof input === "object") {
    const o = input as Record<string, unknown>;
    for (const k of ["command", "path", "file_path", "pattern", "url", "query"]) if (typeof o[k] === "string") return oneLine(o[k]);
  }
  return oneLine(JSON.stringify(input) ?? "");
}

const oneLine = (s: string, max = 160) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

function resultText(content: ToolResultContent): { text: string; images: ImageBlock[] } {
  if (typeof content === "string") return { text: content, images: [] };
  return { text: content.map((b) => (b.type === "text" ? b.text : "")).filter(Boolean).join("\n"), images: content.filter((b): b is ImageBlock => b.type === "image") };
}

type Builder = { doc: ExportDocument; tools: Map<string, Extract<ExportPart, { kind: "tool" }>>; logPath: string; redact: (s: string) => string };

function turn(b: Builder, role: ExportTurn["role"], ts: number): ExportTurn {
  const last = b.doc.turns[b.doc.turns.length - 1];
  if (last && last.role === role && role !== "user") return last;
  const t: ExportTurn = { role, ts, parts: [] };
  b.doc.turns.push(t);
  return t;
}

function addUser(b: Builder, e: Extract<DurableEvent, { type: "user_message" }>) {
  // A command's generated prompt (/init, /review) reads as the command the user typed.
  const blocks: UserBlock[] = e.display !== undefined ? [{ type: "text", text: e.display }] : typeof e.content === "string" ? [{ type: "text", text: e.content }] : e.content;
  const parts: ExportPart[] = [];
  for (const block of blocks) {
    if (block.type === "text" && block.text.trim()) parts.push({ kind: "text", text: b.redact(block.text) });
    else if (block.type === "image") parts.push({ kind: "image", image: exportImage(block, b.logPath) });
  }
  if (parts.length === 0) return;
  // A nudge from a policy or a process exit is not the user's: it reads as a note in the answer.
  if (e.synthetic) {
    turn(b, "event", e.ts).parts.push({ kind: "note", text: `(${e.synthetic.replace("_", " ")} note to the model)` });
    return;
  }
  b.doc.turns.push({ role: "user", ts: e.ts, parts: e.steering ? [{ kind: "note", text: "(sent while the agent worked)" }, ...parts] : parts });
}

function addAssistant(b: Builder, e: Extract<DurableEvent, { type: "assistant_message" }>) {
  const t = turn(b, "assistant", e.ts);
  for (const block of e.message.content) {
    if (block.type === "text" && block.text.trim()) t.parts.push({ kind: "text", text: b.redact(block.text) });
    else if (block.type === "thinking" && block.thinking.trim()) t.parts.push({ kind: "thinking", text: b.redact(block.thinking) });
    else if (block.type === "tool_use") {
      const part = { kind: "tool" as const, name: block.name, summary: b.redact(`${block.name}: ${inputSummary(block.input)}`), result: "", isError: false, images: [] };
      b.tools.set(block.id, part);
      t.parts.push(part);
    } else if (block.type === "server_tool_use") t.parts.push({ kind: "tool", name: block.name, summary: b.redact(`${block.name}: ${inputSummary(block.input)}`), result: "", isError: false, images: [] });
  }
  if (e.interrupted) t.parts.push({ kind: "note", text: "(interrupted)" });
}

function addToolResult(b: Builder, e: Extract<DurableEvent, { type: "tool_result" }>) {
  const { text, images } = resultText(e.content);
  let part = b.tools.get(e.toolUseId);
  if (!part) {
    part = { kind: "tool", name: e.name, summary: "", result: "", isError: false, images: [] };
    turn(b, "assistant", e.ts).parts.push(part);
  }
  // The result's own summary says what the call did ("edit src/cli.ts (+1 -1)").
  if (e.summary.trim()) part.summary = b.redact(oneLine(e.summary));
  part.result = b.redact(text);
  part.isError = e.isError;
  part.images = images.map((i) => exportImage(i, b.logPath));
}

/** The document for a session's events (read from `logPath`, whose images folder holds their pictures). */
export function buildDocument(events: readonly DurableEvent[], logPath: string, redact: (s: string) => string, fallbackId: string): ExportDocument {
  const doc: ExportDocument = { sessionId: fallbackId, title: "", cwd: "", model: "", started: events[0]?.ts ?? 0, turns: [] };
  const b: Builder = { doc, tools: new Map(), logPath, redact };
  for (const e of events) {
    switch (e.type) {
      case "session_header":
        doc.sessionId = e.sessionId;
        doc.cwd = e.cwd;
        doc.model = e.model;
        doc.started = e.ts;
        break;
      case "user_message":
        if (!doc.title && isUserTurn(e)) doc.title = redact(oneLine(e.display !== undefined ? e.display : typeof e.content === "string" ? e.content : e.content.map((x) => (x.type === "text" ? x.text : "")).join(" "), 80));
        addUser(b, e);
        break;
      case "assistant_message":
        addAssistant(b, e);
        break;
      case "tool_result":
        addToolResult(b, e);
        break;
      case "compaction":
        turn(b, "event", e.ts).parts.push({ kind: "note", text: `(the conversation was compacted here: ${e.tokensBefore} → ${e.tokensAfter} tokens)` });
        break;
      case "rewind":
        if (e.conversation) turn(b, "event", e.ts).parts.push({ kind: "note", text: "(the conversation went back to an earlier message here; what it left is not part of this export)" });
        break;
      case "setting_change":
        if (e.title !== undefined) doc.title = redact(e.title);
        break;
      default:
        break;
    }
  }
  return doc;
}
