// Markdown prose as HTML for the exported page, from the same parser the terminal renders with
// (src/tui/markdown's blocks and inlines), so headings, lists, tables, quotes and emphasis keep
// their structure. Everything from the conversation is escaped; raw HTML in it shows as text; a
// link is an anchor only to the web or mail; an image named by URL becomes a link to it, never an
// <img> the page would fetch (the page loads nothing: ./html.ts).
import { parseMarkdown, type Block, type Inline } from "../tui/markdown/index.ts";
import { escapeHtml } from "./markdown.ts";

/** A URL a link may point to: the web or mail, nothing that runs (javascript:) or reads (file:). */
const linkable = (url: string) => /^(?:https?:\/\/|mailto:)[^\s<>"]+$/i.test(url);

const anchor = (label: string, url: string) => `<a href="${escapeHtml(url)}" rel="noreferrer noopener">${label}</a>`;

const BARE_URL = /\bhttps?:\/\/[^\s<>"'`)\]]+[^\s<>"'`)\].,;:!?]/g;

/** Plain text with its bare URLs as anchors (the terminal's parser links only <url> autolinks). */
function linkedText(text: string): string {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(BARE_URL)) {
    out += escapeHtml(text.slice(last, m.index)) + anchor(escapeHtml(m[0]), m[0]);
    last = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

function inlines(xs: Inline[], inLink = false): string {
  return xs.map((x) => inline(x, inLink)).join("");
}

function inline(x: Inline, inLink: boolean): string {
  switch (x.type) {
    case "text":
      return inLink ? escapeHtml(x.text) : linkedText(x.text);
    case "code":
      return `<code>${escapeHtml(x.text)}</code>`;
    case "emph":
      return `<em>${inlines(x.children, inLink)}</em>`;
    case "strong":
      return `<strong>${inlines(x.children, inLink)}</strong>`;
    case "strike":
      return `<del>${inlines(x.children, inLink)}</del>`;
    case "link": {
      const label = inlines(x.children, true);
      return !inLink && linkable(x.href) ? anchor(label, x.href) : label;
    }
    case "image": {
      // Never fetched: the alt text, linking to the image when it is on the web.
      const alt = `[image: ${inlines(x.children, true) || escapeHtml(x.src)}]`;
      return !inLink && linkable(x.src) ? anchor(alt, x.src) : alt;
    }
    case "html":
      return escapeHtml(x.text);
    case "softbreak":
      return "\n";
    case "hardbreak":
      return "<br>\n";
  }
}

const ALIGN = { left: ' class="left"', center: ' class="center"', right: ' class="right"' } as const;

function block(b: Block, tight = false): string {
  switch (b.type) {
    case "paragraph":
      return tight ? inlines(b.content) : `<p>${inlines(b.content)}</p>`;
    case "heading": {
      // h1 is the page's title and h2 each turn's: the conversation's headings start below them.
      const level = Math.min(6, b.level + 2);
      return `<h${level}>${inlines(b.content)}</h${level}>`;
    }
    case "thematic_break":
      return "<hr>";
    case "code": {
      const lang = b.info.trim().split(/\s+/)[0] ?? "";
      return `<pre><code${lang ? ` class="language-${escapeHtml(lang)}"` : ""}>${escapeHtml(b.text.replace(/\n$/, ""))}</code></pre>`;
    }
    case "html":
      return `<pre>${escapeHtml(b.text.replace(/\n$/, ""))}</pre>`;
    case "block_quote":
      return `<blockquote>${blocks(b.children)}</blockquote>`;
    case "list": {
      const tag = b.ordered ? "ol" : "ul";
      const start = b.ordered && b.start !== 1 ? ` start="${b.start}"` : "";
      const items = b.items.map((it) => {
        const box = it.task === undefined ? "" : it.task ? "☑ " : "☐ ";
        return `<li${it.task === undefined ? "" : ' class="task"'}>${box}${blocks(it.children, b.tight)}</li>`;
      });
      return `<${tag}${start}>\n${items.join("\n")}\n</${tag}>`;
    }
    case "table": {
      const cell = (tag: "th" | "td", c: Inline[], i: number) => {
        const a = b.align[i];
        return `<${tag}${a ? ALIGN[a] : ""}>${inlines(c)}</${tag}>`;
      };
      const head = `<tr>${b.header.map((c, i) => cell("th", c, i)).join("")}</tr>`;
      const rows = b.rows.map((r) => `<tr>${r.map((c, i) => cell("td", c, i)).join("")}</tr>`);
      return `<table>\n<thead>${head}</thead>\n<tbody>\n${rows.join("\n")}\n</tbody>\n</table>`;
    }
  }
}

function blocks(bs: Block[], tight = false): string {
  return bs.map((b) => block(b, tight)).join("\n");
}

/** Markdown as HTML: every block of it, every string from it escaped. */
export function markdownToHtml(md: string): string {
  return blocks(parseMarkdown(md));
}
