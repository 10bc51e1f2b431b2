// Inline markdown: a port of the CommonMark reference algorithm (commonmark.js inlines.js:
// delimiter stack for emphasis, bracket stack for links) plus GFM strikethrough (`~`/`~~`).
// Nodes live in a small doubly linked tree while parsing (./inline-tree.ts), because the emphasis
// and link steps splice ranges of siblings into new parents; the result is converted to plain
// `Inline` data. The syntax it matches (escapes, entities, link parts, HTML tags) is ./inline-syntax.ts.
import type { Inline, RefMap } from "./ast.ts";
import { decodeEntity } from "./entities.ts";
import { normalizeReference, normalizeUri, reAutolink, reEmailAutolink, reEntityHere, reEscapable, reHtmlTag, reInitialSpace, reLinkDestinationBraces, reLinkLabel, reLinkTitle, reMain, rePunctuation, reSpaceAtEndOfLine, reSpnl, reTicks, reTicksHere, reUnicodeWhitespaceChar, reWhitespaceChar, unescapeString } from "./inline-syntax.ts";
import { N, toInlines } from "./inline-tree.ts";
import { trimEndChars } from "../../text/trim-chars.ts";

type Delimiter = {
  cc: string;
  numdelims: number;
  origdelims: number;
  node: N;
  previous: Delimiter | null;
  next: Delimiter | null;
  canOpen: boolean;
  canClose: boolean;
};

type Bracket = {
  node: N;
  previous: Bracket | null;
  previousDelimiter: Delimiter | null;
  index: number;
  image: boolean;
  active: boolean;
  bracketAfter: boolean;
};

/** What the parser saw but could not close: the input to healing a streaming paragraph. */
export type Unclosed = {
  /** Position of the first backtick run that found no closing run. */
  backticks: { pos: number; run: string } | null;
  /** Emphasis/strikethrough openers left unmatched, outermost first. */
  openers: { cc: string; count: number }[];
};

class InlineParser {
  subject = "";
  pos = 0;
  delimiters: Delimiter | null = null;
  brackets: Bracket | null = null;
  unclosedTicks: { pos: number; run: string } | null = null;

  constructor(private refmap: RefMap) {}

  match(re: RegExp): string | null {
    const m = re.exec(this.subject.slice(this.pos));
    if (m === null) return null;
    this.pos += m.index + m[0].length;
    return m[0];
  }

  peek(): string {
    return this.pos < this.subject.length ? this.subject.charAt(this.pos) : "";
  }

  parse(content: string, keepLeftovers = false): N {
    const root = new N("root");
    this.subject = content.trim();
    this.pos = 0;
    this.delimiters = null;
    this.brackets = null;
    this.unclosedTicks = null;
    while (this.parseInline(root)) {}
    this.processEmphasis(null, keepLeftovers);
    return root;
  }

  /** Like parse, but report what stayed open: the first unclosed backtick run and unmatched openers. */
  parseForHealing(content: string): Unclosed {
    this.parse(content, true);
    const openers: { cc: string; count: number }[] = [];
    for (let d = this.leftovers; d; d = d.next) {
      if (d.canOpen && d.numdelims > 0) openers.push({ cc: d.cc, count: d.numdelims });
    }
    return { backticks: this.unclosedTicks, openers };
  }

  /** Delimiters left after processEmphasis(…, keepLeftovers): openers nothing closed. */
  private leftovers: Delimiter | null = null;

  parseInline(block: N): boolean {
    const c = this.peek();
    if (c === "") return false;
    let res = false;
    switch (c) {
      case "\n":
        res = this.parseNewline(block);
        break;
      case "\\":
        res = this.parseBackslash(block);
        break;
      case "`":
        res = this.parseBackticks(block);
        break;
      case "*":
      case "_":
      case "~":
        res = this.handleDelim(c, block);
        break;
      case "[":
        res = this.parseOpenBracket(block);
        break;
      case "!":
        res = this.parseBang(block);
        break;
      case "]":
        res = this.parseCloseBracket(block);
        break;
      case "<":
        res = this.parseAutolink(block) || this.parseHtmlTag(block);
        break;
      case "&":
        res = this.parseEntity(block);
        break;
      default:
        res = this.parseString(block);
    }
    if (!res) {
      const cp = this.subject.codePointAt(this.pos) ?? 0;
      const ch = String.fromCodePoint(cp);
      this.pos += ch.length;
      block.append(new N("text", ch));
    }
    return true;
  }

  parseNewline(block: N): boolean {
    this.pos += 1;
    const lastc = block.last;
    if (lastc && lastc.type === "text" && lastc.literal.endsWith(" ")) {
      const hard = lastc.literal[lastc.literal.length - 2] === " ";
      lastc.literal = trimEndChars(lastc.literal, " ");
      block.append(new N(hard ? "hardbreak" : "softbreak"));
    } else {
      block.append(new N("softbreak"));
    }
    this.match(reInitialSpace);
    return true;
  }

  parseBackslash(block: N): boolean {
    this.pos += 1;
    if (this.peek() === "\n") {
      this.pos += 1;
      block.append(new N("hardbreak"));
    } else if (reEscapable.test(this.subject.charAt(this.pos))) {
      block.append(new N("text", this.subject.charAt(this.pos)));
      this.pos += 1;
    } else {
      block.append(new N("text", "\\"));
    }
    return true;
  }

  parseBackticks(block: N): boolean {
    const start = this.pos;
    const ticks = this.match(reTicksHere);
    if (ticks === null) return false;
    const afterOpen = this.pos;
    reTicks.lastIndex = afterOpen;
    let m: RegExpExecArray | null;
    while ((m = reTicks.exec(this.subject)) !== null) {
      if (m[0] === ticks) {
        this.pos = m.index + m[0].length;
        let contents = this.subject.slice(afterOpen, m.index).replace(/\n/g, " ");
        if (contents.length > 0 && /[^ ]/.test(contents) && contents.startsWith(" ") && contents.endsWith(" ")) {
          contents = contents.slice(1, -1);
        }
        block.append(new N("code", contents));
        return true;
      }
    }
    this.unclosedTicks ??= { pos: start, run: ticks };
    this.pos = afterOpen;
    block.append(new N("text", ticks));
    return true;
  }

  parseAutolink(block: N): boolean {
    let m: string | null;
    if ((m = this.match(reEmailAutolink))) {
      const dest = m.slice(1, -1);
      const node = new N("link");
      node.dest = normalizeUri("mailto:" + dest);
      node.append(new N("text", dest));
      block.append(node);
      return true;
    }
    if ((m = this.match(reAutolink))) {
      const dest = m.slice(1, -1);
      const node = new N("link");
      node.dest = normalizeUri(dest);
      node.append(new N("text", dest));
      block.append(node);
      return true;
    }
    return false;
  }

  parseHtmlTag(block: N): boolean {
    const m = this.match(reHtmlTag);
    if (m === null) return false;
    block.append(new N("html", m));
    return true;
  }

  scanDelims(cc: string): { numdelims: number; canOpen: boolean; canClose: boolean } | null {
    let numdelims = 0;
    const startpos = this.pos;
    while (this.peek() === cc) {
      numdelims++;
      this.pos++;
    }
    if (numdelims === 0) return null;
    // GFM strikethrough: runs of one or two tildes only.
    if (cc === "~" && numdelims > 2) {
      this.pos = startpos;
      return { numdelims, canOpen: false, canClose: false };
    }
    const charBefore = startpos === 0 ? "\n" : charBeforeAt(this.subject, startpos);
    const cpAfter = this.subject.codePointAt(this.pos);
    const charAfter = cpAfter === undefined ? "\n" : String.fromCodePoint(cpAfter);
    const afterWs = reUnicodeWhitespaceChar.test(charAfter);
    const afterPunct = rePunctuation.test(charAfter);
    const beforeWs = reUnicodeWhitespaceChar.test(charBefore);
    const beforePunct = rePunctuation.test(charBefore);
    const leftFlanking = !afterWs && (!afterPunct || beforeWs || beforePunct);
    const rightFlanking = !beforeWs && (!beforePunct || afterWs || afterPunct);
    let canOpen: boolean;
    let canClose: boolean;
    if (cc === "_") {
      canOpen = leftFlanking && (!rightFlanking || beforePunct);
      canClose = rightFlanking && (!leftFlanking || afterPunct);
    } else {
      canOpen = leftFlanking;
      canClose = rightFlanking;
    }
    this.pos = startpos;
    return { numdelims, canOpen, canClose };
  }

  handleDelim(cc: string, block: N): boolean {
    const res = this.scanDelims(cc);
    if (!res) return false;
    const startpos = this.pos;
    this.pos += res.numdelims;
    const node = new N("text", this.subject.slice(startpos, this.pos));
    block.append(node);
    if (res.canOpen || res.canClose) {
      const d: Delimiter = {
        cc,
        numdelims: res.numdelims,
        origdelims: res.numdelims,
        node,
        previous: this.delimiters,
        next: null,
        canOpen: res.canOpen,
        canClose: res.canClose,
      };
      if (d.previous) d.previous.next = d;
      this.delimiters = d;
    }
    return true;
  }

  removeDelimiter(delim: Delimiter): void {
    if (delim.previous !== null) delim.previous.next = delim.next;
    if (delim.next === null) this.delimiters = delim.previous;
    else delim.next.previous = delim.previous;
  }

  processEmphasis(stackBottom: Delimiter | null, keepLeftovers = false): void {
    const openersBottom = new Map<string, Delimiter | null>();
    let closer = this.delimiters;
    while (closer !== null && closer.previous !== stackBottom) closer = closer.previous;
    while (closer !== null) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const key = closer.cc + (closer.canOpen ? "o" : "c") + (closer.origdelims % 3);
      const bottom = openersBottom.has(key) ? openersBottom.get(key)! : stackBottom;
      let opener = closer.previous;
      let found = false;
      while (opener !== null && opener !== stackBottom && opener !== bottom) {
        const oddMatch =
          closer.cc !== "~" &&
          (closer.canOpen || opener.canClose) &&
          closer.origdelims % 3 !== 0 &&
          (opener.origdelims + closer.origdelims) % 3 === 0;
        const sameLength = closer.cc !== "~" || opener.numdelims === closer.numdelims;
        if (opener.cc === closer.cc && opener.canOpen && !oddMatch && sameLength) {
          found = true;
          break;
        }
        opener = opener.previous;
      }
      const oldCloser = closer;
      if (!found || !opener) {
        closer = closer.next;
        openersBottom.set(key, oldCloser.previous);
        if (!oldCloser.canOpen) this.removeDelimiter(oldCloser);
        continue;
      }
      const useDelims =
        closer.cc === "~" ? closer.numdelims : closer.numdelims >= 2 && opener.numdelims >= 2 ? 2 : 1;
      const openerInl = opener.node;
      const closerInl = closer.node;
      opener.numdelims -= useDelims;
      closer.numdelims -= useDelims;
      openerInl.literal = openerInl.literal.slice(0, openerInl.literal.length - useDelims);
      closerInl.literal = closerInl.literal.slice(0, closerInl.literal.length - useDelims);
      const emph = new N(closer.cc === "~" ? "strike" : useDelims === 1 ? "emph" : "strong");
      let tmp = openerInl.next;
      while (tmp && tmp !== closerInl) {
        const next = tmp.next;
        emph.append(tmp);
        tmp = next;
      }
      openerInl.insertAfter(emph);
      if (opener.next !== closer) {
        opener.next = closer;
        closer.previous = opener;
      }
      if (opener.numdelims === 0) {
        openerInl.unlink();
        this.removeDelimiter(opener);
      }
      if (closer.numdelims === 0) {
        closerInl.unlink();
        const nextCloser = closer.next;
        this.removeDelimiter(closer);
        closer = nextCloser;
      }
    }
    if (keepLeftovers) {
      let first = this.delimiters;
      while (first && first.previous && first.previous !== stackBottom) first = first.previous;
      this.leftovers = first && first !== stackBottom ? first : null;
      return;
    }
    while (this.delimiters !== null && this.delimiters !== stackBottom) this.removeDelimiter(this.delimiters);
  }

  parseLinkTitle(): string | null {
    const title = this.match(reLinkTitle);
    return title === null ? null : unescapeString(title.slice(1, -1));
  }

  parseLinkDestination(): string | null {
    const res = this.match(reLinkDestinationBraces);
    if (res !== null) return normalizeUri(unescapeString(res.slice(1, -1)));
    if (this.peek() === "<") return null;
    const savepos = this.pos;
    let openparens = 0;
    let c: string;
    while ((c = this.peek()) !== "") {
      if (c === "\\" && reEscapable.test(this.subject.charAt(this.pos + 1))) {
        this.pos += 1;
        if (this.peek() !== "") this.pos += 1;
      } else if (c === "(") {
        this.pos += 1;
        openparens += 1;
      } else if (c === ")") {
        if (openparens < 1) break;
        this.pos += 1;
        openparens -= 1;
      } else if (reWhitespaceChar.test(c) || c < " ") {
        break;
      } else {
        this.pos += 1;
      }
    }
    if (this.pos === savepos && c !== ")") return null;
    if (openparens !== 0) return null;
    return normalizeUri(unescapeString(this.subject.slice(savepos, this.pos)));
  }

  parseLinkLabel(): number {
    const m = this.match(reLinkLabel);
    return m === null || m.length > 1001 ? 0 : m.length;
  }

  addBracket(node: N, index: number, image: boolean): void {
    if (this.brackets !== null) this.brackets.bracketAfter = true;
    this.brackets = {
      node,
      previous: this.brackets,
      previousDelimiter: this.delimiters,
      index,
      image,
      active: true,
      bracketAfter: false,
    };
  }

  parseOpenBracket(block: N): boolean {
    const startpos = this.pos;
    this.pos += 1;
    const node = new N("text", "[");
    block.append(node);
    this.addBracket(node, startpos, false);
    return true;
  }

  parseBang(block: N): boolean {
    const startpos = this.pos;
    this.pos += 1;
    if (this.peek() === "[") {
      this.pos += 1;
      const node = new N("text", "![");
      block.append(node);
      this.addBracket(node, startpos + 1, true);
    } else {
      block.append(new N("text", "!"));
    }
    return true;
  }

  parseCloseBracket(block: N): boolean {
    this.pos += 1;
    const startpos = this.pos;
    let opener = this.brackets;
    if (opener === null) {
      block.append(new N("text", "]"));
      return true;
    }
    if (!opener.active) {
      block.append(new N("text", "]"));
      this.brackets = opener.previous;
      return true;
    }
    const isImage = opener.image;
    const savepos = this.pos;
    let matched = false;
    let dest: string | null = null;
    let title: string | null = null;
    if (this.peek() === "(") {
      this.pos++;
      this.match(reSpnl);
      if ((dest = this.parseLinkDestination()) !== null) {
        this.match(reSpnl);
        if (reWhitespaceChar.test(this.subject.charAt(this.pos - 1))) title = this.parseLinkTitle();
        this.match(reSpnl);
        if (this.peek() === ")") {
          this.pos += 1;
          matched = true;
        }
      }
      if (!matched) this.pos = savepos;
    }
    if (!matched) {
      const beforelabel = this.pos;
      const n = this.parseLinkLabel();
      let reflabel: string | null = null;
      if (n > 2) reflabel = this.subject.slice(beforelabel, beforelabel + n);
      else if (!opener.bracketAfter) reflabel = this.subject.slice(opener.index, startpos);
      if (n === 0) this.pos = savepos;
      if (reflabel) {
        const link = this.refmap.get(normalizeReference(reflabel));
        if (link) {
          dest = link.href;
          title = link.title;
          matched = true;
        }
      }
    }
    if (!matched) {
      this.brackets = opener.previous;
      this.pos = startpos;
      block.append(new N("text", "]"));
      return true;
    }
    const node = new N(isImage ? "image" : "link");
    node.dest = dest ?? "";
    node.title = title ?? "";
    let tmp = opener.node.next;
    while (tmp) {
      const next = tmp.next;
      node.append(tmp);
      tmp = next;
    }
    block.append(node);
    this.processEmphasis(opener.previousDelimiter);
    this.brackets = opener.previous;
    opener.node.unlink();
    if (!isImage) {
      for (let o = this.brackets; o !== null; o = o.previous) if (!o.image) o.active = false;
    }
    return true;
  }

  parseEntity(block: N): boolean {
    const m = this.match(reEntityHere);
    if (!m) return false;
    const decoded = decodeEntity(m);
    if (decoded === null) {
      this.pos -= m.length;
      return false;
    }
    block.append(new N("text", decoded));
    return true;
  }

  parseString(block: N): boolean {
    const m = this.match(reMain);
    if (!m) return false;
    block.append(new N("text", m));
    return true;
  }

  /** Parse a link reference definition at the start of `s`; returns characters consumed (0: none). */
  parseReference(s: string, define: (label: string, def: { href: string; title: string }) => void): number {
    this.subject = s;
    this.pos = 0;
    const startpos = 0;
    const matchChars = this.parseLinkLabel();
    if (matchChars === 0) return 0;
    const rawlabel = this.subject.slice(0, matchChars);
    if (this.peek() !== ":") return 0;
    this.pos++;
    this.match(reSpnl);
    const dest = this.parseLinkDestination();
    if (dest === null) return 0;
    const beforetitle = this.pos;
    this.match(reSpnl);
    let title: string | null = null;
    if (this.pos !== beforetitle) title = this.parseLinkTitle();
    if (title === null) this.pos = beforetitle;
    let atLineEnd = true;
    if (this.match(reSpaceAtEndOfLine) === null) {
      if (title === null) atLineEnd = false;
      else {
        title = null;
        this.pos = beforetitle;
        atLineEnd = this.match(reSpaceAtEndOfLine) !== null;
      }
    }
    if (!atLineEnd) return 0;
    const normlabel = normalizeReference(rawlabel);
    if (normlabel === "") return 0;
    define(normlabel, { href: dest, title: title ?? "" });
    return this.pos - startpos;
  }
}

function charBeforeAt(s: string, pos: number): string {
  const low = s.charCodeAt(pos - 1);
  if (low >= 0xdc00 && low <= 0xdfff && pos >= 2) return s.slice(pos - 2, pos);
  return s.charAt(pos - 1);
}

export function parseInlines(content: string, refmap: RefMap): Inline[] {
  return toInlines(new InlineParser(refmap).parse(content));
}

/** What a streaming paragraph leaves open (unclosed code span, emphasis, strikethrough). */
export function findUnclosed(content: string, refmap: RefMap): Unclosed {
  return new InlineParser(refmap).parseForHealing(content);
}

/**
 * Consume link reference definitions at the start of a paragraph's raw content; returns the
 * remaining content. `define` receives each (first definition of a label wins, as in the spec).
 */
export function extractReferences(
  content: string,
  define: (label: string, def: { href: string; title: string }) => void,
): string {
  const parser = new InlineParser(new Map());
  let rest = content;
  let pos: number;
  while (rest.charAt(0) === "[" && (pos = parser.parseReference(rest, define)) > 0) rest = rest.slice(pos);
  return rest;
}
