// A host's user message content (Claude Code's shape: a string or Messages API blocks) as the
// session takes it. Text and base64 images pass; blocks we cannot send are named, not dropped silently.
import type { ImageMediaType, UserBlock } from "../../model/types.ts";
import { hostImage } from "../../model/images.ts";

const IMAGE_TYPES = new Set<string>(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export function userContent(content: string | Array<Record<string, unknown>>): { content: string | UserBlock[]; skipped: string[] } {
  if (typeof content === "string") return { content, skipped: [] };
  const blocks: UserBlock[] = [];
  const skipped: string[] = [];
  let images = 0;
  for (const b of content) {
    if (b.type === "text" && typeof b.text === "string") blocks.push({ type: "text", text: b.text });
    else if (b.type === "image" && isBase64Image(b.source)) {
      const r = hostImage(b.source.data, `image ${++images}`);
      if ("block" in r) blocks.push(r.block);
      else skipped.push(r.skipped);
    } else skipped.push(String(b.type));
  }
  // One plain text block is the same message as a string; the log and the app show it the same.
  if (blocks.length === 1 && blocks[0]!.type === "text") return { content: blocks[0]!.text, skipped };
  return { content: blocks, skipped };
}

function isBase64Image(s: unknown): s is { type: "base64"; media_type: ImageMediaType; data: string } {
  if (typeof s !== "object" || s === null) return false;
  const o = s as Record<string, unknown>;
  return o.type === "base64" && typeof o.media_type === "string" && IMAGE_TYPES.has(o.media_type) && typeof o.data === "string";
}

/** The text a turn starts with, for recognising slash commands. */
export function textOf(content: string | UserBlock[]): string {
  return typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "")).join("");
}
