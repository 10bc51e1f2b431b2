// An MCP tool result as the model sees it: text as text, images as image blocks, resources as text
// with their URI, and everything through the same budget and spill file as the built-in tools.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ImageBlock, ImageMediaType, TextBlock, ToolResultContent } from "../model/types.ts";
import { cleanOutput, fitToBudget, RESULT_BUDGET_CHARS } from "../tools/output-budget.ts";
import type { SpillFiles } from "../workspace/spill.ts";

const IMAGE_TYPES: ImageMediaType[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** The API's limit for one image: 5 MB of base64 text, so 3.75 MB of bytes (model/images.ts's IMAGE_LIMITS). */
const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;

/**
 * All images of one result together, in bytes: a server answering with many large images would
 * otherwise fill the request (the API takes 32 MB in all) with one result. The ones past it are
 * replaced by a note.
 */
export const MAX_RESULT_IMAGE_BYTES = 8 * 1024 * 1024;

const bytesOf = (base64: string) => Math.floor((base64.length * 3) / 4) - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0);
const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** An image block, or the note that stands for it; `budget` is what the result's images may still take. */
function image(data: string, mimeType: string, what: string, budget: { left: number }): ImageBlock | string {
  const media = mimeType.toLowerCase() as ImageMediaType;
  if (!IMAGE_TYPES.includes(media)) return `[${what}: ${mimeType}, ${bytesOf(data).toLocaleString("en-US")} bytes; not shown, as only PNG, JPEG, GIF and WebP images can be]`;
  if (data.length > MAX_IMAGE_BASE64) return `[${what}: ${mimeType}, ${bytesOf(data).toLocaleString("en-US")} bytes; not shown, as its base64 is over the API's 5 MB limit for an image]`;
  const bytes = bytesOf(data);
  if (bytes > budget.left) return `[${what}: ${mimeType}, ${mb(bytes)}; not shown: this result's images pass the ${MAX_RESULT_IMAGE_BYTES / (1024 * 1024)} MB one result may carry]`;
  budget.left -= bytes;
  return { type: "image", source: { type: "base64", media_type: media, data } };
}

export function convertResult(result: CallToolResult, spill: SpillFiles, label: string): { content: ToolResultContent; isError: boolean } {
  const parts: Array<string | ImageBlock> = [];
  const budget = { left: MAX_RESULT_IMAGE_BYTES };
  for (const c of result.content ?? []) {
    switch (c.type) {
      case "text":
        parts.push(c.text);
        break;
      case "image":
        parts.push(image(c.data, c.mimeType, "image", budget));
        break;
      case "audio":
        parts.push(`[audio: ${c.mimeType}, ${bytesOf(c.data).toLocaleString("en-US")} bytes; not shown]`);
        break;
      case "resource": {
        const r = c.resource;
        if ("text" in r && typeof r.text === "string") parts.push(`[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ""}]\n${r.text}`);
        else if ("blob" in r && typeof r.blob === "string") {
          const shown = r.mimeType?.startsWith("image/") ? image(r.blob, r.mimeType, `resource ${r.uri}`, budget) : `[resource ${r.uri}: ${r.mimeType ?? "binary"}, ${bytesOf(r.blob).toLocaleString("en-US")} bytes; not shown]`;
          if (typeof shown !== "string") parts.push(`[resource ${r.uri}]`);
          parts.push(shown);
        }
        break;
      }
      case "resource_link":
        parts.push(`[resource link ${c.uri}${c.name ? ` "${c.name}"` : ""}${c.mimeType ? ` (${c.mimeType})` : ""}${c.description ? `: ${c.description}` : ""}]`);
        break;
      default:
        parts.push(`[content of type ${(c as { type: string }).type}; not shown]`);
    }
  }
  // A server that answers only with structured content (or the old toolResult) still says something.
  if (parts.length === 0 && result.structuredContent) parts.push(JSON.stringify(result.structuredContent, null, 2));
  if (parts.length === 0 && "toolResult" in result && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  const isError = result.isError === true;
  if (parts.length === 0) return { content: isError ? "(the tool failed and said nothing)" : "(no output)", isError };

  const texts = parts.filter((p): p is string => typeof p === "string").map(cleanOutput);
  const images = parts.filter((p): p is ImageBlock => typeof p !== "string");
  const text = texts.join("\n");
  if (images.length === 0) return { content: fitToBudget(text, spill, label).text, isError };
  // With images, the text still goes through the budget as one block (and spills as one file).
  const textLength = texts.reduce((n, t) => n + t.length, 0);
  if (textLength > RESULT_BUDGET_CHARS) return { content: [{ type: "text", text: fitToBudget(text, spill, label).text }, ...images], isError };
  const blocks: Array<TextBlock | ImageBlock> = parts.map((p) => (typeof p === "string" ? { type: "text", text: cleanOutput(p) } : p));
  return { content: blocks, isError };
}
