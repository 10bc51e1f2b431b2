// The inline parser's working tree: nodes in a small doubly linked tree, because the emphasis
// and link steps splice ranges of siblings into new parents; and its conversion to plain `Inline` data.
import type { Inline } from "./ast.ts";

export type NodeType = "root" | Inline["type"];

export class N {
  parent: N | null = null;
  prev: N | null = null;
  next: N | null = null;
  first: N | null = null;
  last: N | null = null;
  dest = "";
  title = "";
  constructor(
    public type: NodeType,
    public literal = "",
  ) {}

  append(child: N): void {
    child.unlink();
    child.parent = this;
    if (this.last) {
      this.last.next = child;
      child.prev = this.last;
      this.last = child;
    } else {
      this.first = child;
      this.last = child;
    }
  }

  insertAfter(sibling: N): void {
    sibling.unlink();
    sibling.next = this.next;
    if (sibling.next) sibling.next.prev = sibling;
    sibling.prev = this;
    this.next = sibling;
    sibling.parent = this.parent;
    if (this.parent && !sibling.next) this.parent.last = sibling;
  }

  unlink(): void {
    if (this.prev) this.prev.next = this.next;
    else if (this.parent) this.parent.first = this.next;
    if (this.next) this.next.prev = this.prev;
    else if (this.parent) this.parent.last = this.prev;
    this.parent = this.prev = this.next = null;
  }
}

export function toInlines(parent: N): Inline[] {
  const out: Inline[] = [];
  for (let n = parent.first; n; n = n.next) {
    switch (n.type) {
      case "text": {
        if (n.literal === "") break;
        const prev = out[out.length - 1];
        if (prev && prev.type === "text") prev.text += n.literal;
        else out.push({ type: "text", text: n.literal });
        break;
      }
      case "code":
        out.push({ type: "code", text: n.literal });
        break;
      case "html":
        out.push({ type: "html", text: n.literal });
        break;
      case "softbreak":
      case "hardbreak":
        out.push({ type: n.type });
        break;
      case "emph":
      case "strong":
      case "strike":
        out.push({ type: n.type, children: toInlines(n) });
        break;
      case "link":
        out.push({ type: "link", href: n.dest, title: n.title, children: toInlines(n) });
        break;
      case "image":
        out.push({ type: "image", src: n.dest, title: n.title, children: toInlines(n) });
        break;
      case "root":
        break;
    }
  }
  return out;
}
