// An ACP prompt (content blocks) as a user message for the session. Text and images pass; an
// embedded resource (a file the editor attached) becomes text naming its uri; a resource link is
// named so the model can read it; audio is not supported and is said to be left out.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImageMediaType, UserBlock } from "../model/types.ts";

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export function promptContent(blocks: ContentBlock[]): { content: string | UserBlock[]; skipped: string[] } {
  const out: UserBlock[] = [];
  const skipped: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        out.push({ type: "text", text: b.text });
        break;
      case "image":
        if (IMAGE_TYPES.has(b.mimeType)) out.push({ type: "image", source: { type: "base64", media_type: b.mimeType as ImageMediaType, data: b.data } });
        else skipped.push(`image of type ${b.mimeType}`);
        break;
      case "resource":
        if ("text" in b.resource) out.push({ type: "text", text: `<file uri="${b.resource.uri}">\n${b.resource.text}\n</file>` });
        else skipped.push(`binary resource ${b.resource.uri}`);
        break;
      case "resource_link":
        out.push({ type: "text", text: `[${b.name}](${b.uri})` });
        break;
      default:
        skipped.push(b.type);
    }
  }
  if (out.length > 0 && out.every((b) => b.type === "text")) return { content: out.map((b) => (b.type === "text" ? b.text : "")).join(""), skipped };
  return { content: out, skipped };
}
