// A session as Markdown: a heading per turn, the answers' own markdown as it is, thinking and each
// tool call's result folded in <details> (GitHub, GitLab and most viewers open them on a click),
// output in fences longer than any run of backticks inside it so nothing can close them early.
import type { ExportDocument, ExportImage, ExportPart } from "./document.ts";

/** A fence of backticks longer than the longest run in `text` (at least three). */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

export function fenced(text: string, lang = ""): string {
  const f = fenceFor(text);
  return `${f}${lang}\n${text.endsWith("\n") ? text : `${text}\n`}${f}`;
}

/** Text inside an HTML tag's body (a <summary>): markup characters escaped. */
export const escapeHtml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const sizeOf = (n: number) => (n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

function imageRef(i: ExportImage): string {
  const what = `image, ${i.mediaType}, ${sizeOf(i.bytes)}`;
  return i.file ? `![${what}](<${i.file}>)` : `*(${what}: kept inside the session log, no file to link)*`;
}

function part(p: ExportPart): string {
  switch (p.kind) {
    case "text":
      return p.text.trim();
    case "note":
      return `*${p.text}*`;
    case "image":
      return imageRef(p.image);
    case "thinking":
      return `<details>\n<summary>Thinking</summary>\n\n${fenced(p.text.trim())}\n\n</details>`;
    case "tool": {
      const body = p.result.trim() ? fenced(p.result.replace(/\s+$/, "")) : "*(no output)*";
      const images = p.images.map(imageRef).join("\n\n");
      return `<details>\n<summary>${p.isError ? "✗" : "▸"} ${escapeHtml(p.summary || p.name)}</summary>\n\n${body}${images ? `\n\n${images}` : ""}\n\n</details>`;
    }
  }
}

const HEADING = { user: "You", assistant: "Assistant", event: "Session" } as const;

export function toMarkdown(doc: ExportDocument): string {
  const out: string[] = [
    `# ${doc.title || "Untitled session"}`,
    "",
    `- Session: \`${doc.sessionId}\``,
    ...(doc.cwd ? [`- Project: \`${doc.cwd}\``] : []),
    ...(doc.model ? [`- Model: ${doc.model}`] : []),
    ...(doc.started ? [`- Started: ${new Date(doc.started).toISOString()}`] : []),
  ];
  for (const t of doc.turns) {
    out.push("", `## ${HEADING[t.role]}`, "");
    out.push(t.parts.map(part).join("\n\n"));
  }
  return `${out.join("\n")}\n`;
}
