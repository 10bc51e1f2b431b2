// A session as one self-contained HTML page: styles inline, images as data: URIs, no script, and a
// Content-Security-Policy that lets the page load nothing from anywhere (so a link or an image URL
// in the conversation can never make the page fetch on opening). Links the conversation wrote stay
// clickable anchors: following one is the reader's choice, not the page's.
import type { ExportDocument, ExportImage, ExportPart } from "./document.ts";
import { escapeHtml } from "./markdown.ts";
import { markdownToHtml } from "./markdown-html.ts";

const STYLE = `
body{font:15px/1.55 -apple-system,system-ui,"Segoe UI",sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1f2328;background:#fff}
header{border-bottom:1px solid #d0d7de;margin-bottom:1.5rem}header dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;font-size:13px;color:#59636e}
section.turn{margin:1.2rem 0;padding:.6rem 1rem;border-radius:8px}section.user{background:#f0f6ff;border-left:4px solid #0969da}
section.assistant{background:#fafafa;border-left:4px solid #8250df}section.event{color:#59636e;font-style:italic}
h2{font-size:13px;text-transform:uppercase;letter-spacing:.05em;color:#59636e;margin:0 0 .4rem}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.6rem;overflow-x:auto;white-space:pre-wrap;word-break:break-word;font:13px/1.45 ui-monospace,Menlo,monospace}
code{font:13px ui-monospace,Menlo,monospace;background:#eff1f3;padding:0 .2em;border-radius:3px}pre code{background:none;padding:0}
details{margin:.4rem 0}summary{cursor:pointer;font:13px ui-monospace,Menlo,monospace;color:#3d444d}details.error summary{color:#cf222e}
p{margin:.5rem 0;white-space:pre-wrap;word-wrap:break-word}img{max-width:100%;border:1px solid #d0d7de;border-radius:4px}
h3,h4,h5,h6{margin:1rem 0 .4rem;line-height:1.25}h3{font-size:1.25em}h4{font-size:1.1em}h5,h6{font-size:1em}
ul,ol{margin:.4rem 0;padding-left:1.6rem}li.task{list-style:none;margin-left:-1.2rem}blockquote{margin:.5rem 0;padding:0 .8rem;border-left:3px solid #d0d7de;color:#59636e}
table{border-collapse:collapse;margin:.6rem 0;display:block;overflow-x:auto}th,td{border:1px solid #d0d7de;padding:.25rem .6rem}th{background:#f6f8fa}
.left{text-align:left}.center{text-align:center}.right{text-align:right}hr{border:0;border-top:1px solid #d0d7de;margin:1rem 0}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}section.user{background:#0f1b2d}section.assistant{background:#161b22}pre,code,th{background:#161b22;border-color:#30363d}th,td,blockquote{border-color:#30363d}summary{color:#9198a1}}
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";
const MEDIA = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

function image(i: ExportImage): string {
  const alt = escapeHtml(`image, ${i.mediaType}, ${i.bytes} bytes`);
  // Only the four types the API takes, as data: the page never names a file or a server.
  return MEDIA.has(i.mediaType) && /^[A-Za-z0-9+/=]*$/.test(i.data) ? `<img alt="${alt}" src="data:${i.mediaType};base64,${i.data}">` : `<p><em>(${alt})</em></p>`;
}

function part(p: ExportPart): string {
  switch (p.kind) {
    case "text":
      return markdownToHtml(p.text);
    case "note":
      return `<p><em>${escapeHtml(p.text)}</em></p>`;
    case "image":
      return image(p.image);
    case "thinking":
      return `<details class="thinking"><summary>Thinking</summary><pre>${escapeHtml(p.text.trim())}</pre></details>`;
    case "tool": {
      const body = p.result.trim() ? `<pre>${escapeHtml(p.result.replace(/\s+$/, ""))}</pre>` : "<p><em>(no output)</em></p>";
      return `<details class="tool${p.isError ? " error" : ""}"><summary>${p.isError ? "✗" : "▸"} ${escapeHtml(p.summary || p.name)}</summary>${body}${p.images.map(image).join("")}</details>`;
    }
  }
}

const HEADING = { user: "You", assistant: "Assistant", event: "Session" } as const;

export function toHtml(doc: ExportDocument): string {
  const title = escapeHtml(doc.title || "Untitled session");
  const facts = [
    ["Session", doc.sessionId],
    ["Project", doc.cwd],
    ["Model", doc.model],
    ["Started", doc.started ? new Date(doc.started).toISOString() : ""],
  ].filter(([, v]) => v);
  const turns = doc.turns.map((t) => `<section class="turn ${t.role}"><h2>${HEADING[t.role]}</h2>\n${t.parts.map(part).join("\n")}\n</section>`);
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title><style>${STYLE}</style></head><body>`,
    `<header><h1>${title}</h1><dl>${facts.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v!)}</dd>`).join("")}</dl></header>`,
    "<main>",
    ...turns,
    "</main></body></html>",
    "",
  ].join("\n");
}
