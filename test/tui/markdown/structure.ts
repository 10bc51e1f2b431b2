// A structural view of a markdown document, shared by our AST and the reference parser's, for the
// CommonMark conformance comparison: block types and nesting, heading levels, list kind, start and
// tightness, code content and info, and inline content as text with emphasis/code/link marks.
import * as commonmark from "commonmark";
import type { Block, Inline } from "../../../src/tui/markdown/ast.ts";

export type Shape = { t: string; attrs?: string; text?: string; children?: Shape[] };

function dest(u: string): string {
  try {
    return decodeURI(u);
  } catch {
    return u;
  }
}

// ---- ours
function ourInlines(inls: readonly Inline[]): string {
  let s = "";
  for (const i of inls) {
    switch (i.type) {
      case "text":
        s += i.text;
        break;
      case "code":
        s += "`" + i.text + "`";
        break;
      case "html":
        s += "<" + i.text + ">";
        break;
      case "softbreak":
        s += "\n";
        break;
      case "hardbreak":
        s += "<br>";
        break;
      case "emph":
        s += "*(" + ourInlines(i.children) + ")";
        break;
      case "strong":
        s += "**(" + ourInlines(i.children) + ")";
        break;
      case "strike":
        s += "~~(" + ourInlines(i.children) + ")";
        break;
      case "link":
        s += "[" + ourInlines(i.children) + "](" + dest(i.href) + " " + i.title + ")";
        break;
      case "image":
        s += "![" + ourInlines(i.children) + "](" + dest(i.src) + " " + i.title + ")";
        break;
    }
  }
  return s;
}

export function ourShape(blocks: readonly Block[]): Shape[] {
  return blocks.map((b): Shape => {
    switch (b.type) {
      case "paragraph":
        return { t: "p", text: ourInlines(b.content) };
      case "heading":
        return { t: "h", attrs: String(b.level), text: ourInlines(b.content) };
      case "thematic_break":
        return { t: "hr" };
      case "code":
        return { t: "code", attrs: b.info, text: b.text };
      case "html":
        return { t: "html", text: b.text };
      case "block_quote":
        return { t: "quote", children: ourShape(b.children) };
      case "list":
        return {
          t: "list",
          attrs: `${b.ordered ? "ordered " + b.start : "bullet"} ${b.tight ? "tight" : "loose"}`,
          children: b.items.map((it) => {
            const children = ourShape(it.children);
            if (it.task !== undefined && children[0]?.t === "p") children[0].text = (it.task ? "[x] " : "[ ] ") + children[0].text;
            return { t: "item", children };
          }),
        };
      case "table":
        return { t: "table", text: [b.header, ...b.rows].map((r) => r.map(ourInlines).join("|")).join("\n") };
    }
  });
}

// ---- reference
function refInlines(node: commonmark.Node): string {
  let s = "";
  for (let c = node.firstChild; c; c = c.next) {
    switch (c.type) {
      case "text":
        s += c.literal ?? "";
        break;
      case "code":
        s += "`" + (c.literal ?? "") + "`";
        break;
      case "html_inline":
        s += "<" + (c.literal ?? "") + ">";
        break;
      case "softbreak":
        s += "\n";
        break;
      case "linebreak":
        s += "<br>";
        break;
      case "emph":
        s += "*(" + refInlines(c) + ")";
        break;
      case "strong":
        s += "**(" + refInlines(c) + ")";
        break;
      case "link":
        s += "[" + refInlines(c) + "](" + dest(c.destination ?? "") + " " + (c.title ?? "") + ")";
        break;
      case "image":
        s += "![" + refInlines(c) + "](" + dest(c.destination ?? "") + " " + (c.title ?? "") + ")";
        break;
      default:
        s += "?" + c.type;
    }
  }
  // Our parser merges adjacent text nodes; so does this serialisation, by construction.
  return s;
}

function refBlocks(node: commonmark.Node): Shape[] {
  const out: Shape[] = [];
  for (let c = node.firstChild; c; c = c.next) {
    switch (c.type) {
      case "paragraph":
        out.push({ t: "p", text: refInlines(c) });
        break;
      case "heading":
        out.push({ t: "h", attrs: String(c.level), text: refInlines(c) });
        break;
      case "thematic_break":
        out.push({ t: "hr" });
        break;
      case "code_block":
        out.push({ t: "code", attrs: c.info ?? "", text: c.literal ?? "" });
        break;
      case "html_block":
        out.push({ t: "html", text: c.literal ?? "" });
        break;
      case "block_quote":
        out.push({ t: "quote", children: refBlocks(c) });
        break;
      case "list":
        out.push({
          t: "list",
          attrs: `${c.listType === "ordered" ? "ordered " + c.listStart : "bullet"} ${c.listTight ? "tight" : "loose"}`,
          children: refBlocks(c),
        });
        break;
      case "item":
        out.push({ t: "item", children: refBlocks(c) });
        break;
      default:
        out.push({ t: "?" + c.type });
    }
  }
  return out;
}

const reference = new commonmark.Parser();
export function referenceShape(markdown: string): Shape[] {
  return refBlocks(reference.parse(markdown));
}
