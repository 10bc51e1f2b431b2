// An ACP prompt (content blocks) as a user message for the session. Text and images pass (an
// image checked as a pasted one is: its bytes, the API's limits); an
// embedded resource (a file the editor attached) becomes text naming its uri; a resource link is
// named so the model can read it; audio is not supported and is said to be left out.
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { hostImage } from "../../model/images.ts";
import type { UserBlock } from "../../model/types.ts";

export function promptContent(blocks: ContentBlock[]): { content: string | UserBlock[]; skipped: string[] } {
  const out: UserBlock[] = [];
  const skipped: string[] = [];
  let images = 0;
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        out.push({ type: "text", text: b.text });
        break;
      case "image": {
        // Checked as a pasted image is: its bytes say what it is, and the API's limits hold.
        const r = hostImage(b.data, `image ${++images}`);
        if ("block" in r) out.push(r.block);
        else skipped.push(r.skipped);
        break;
      }
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
