// CSS, JSON and YAML: languages whose colours come from where a word stands (selector or
// property, key or value) more than from which word it is.
import { words, type Cursor, type LanguageSpec } from "./lexer.ts";

// CSS keeps its nesting in LexState.mode: depth << 1 | (1 while in a declaration's value).
const CSS_IDENT = /-{0,2}[A-Za-z_][\w-]*/y;
const CSS_NUMBER = /-?(?:\d+\.?\d*|\.\d+)/y;
const CSS_UNIT = /%|[A-Za-z]+/y;
const AT_RULE = /@[\w-]+/y;
const HASH = /#[\w-]+/y;
const CLASS_OR_ID = /[.#]-?[A-Za-z_][\w-]*/y;
const PSEUDO = /::?[A-Za-z_][\w-]*/y;
const ATTRIBUTE_SELECTOR = /\[[^\]]*\]?/y;
const IMPORTANT = /![ \t]*important/y;

/** Position of the next `ch` at or after the cursor, looked up once per stretch of line. */
function nextOf(c: Cursor, ch: string, key: string): number {
  const at = c.scratch[key];
  if (at === undefined || (at !== -1 && at < c.i)) return (c.scratch[key] = c.line.indexOf(ch, c.i));
  return at;
}

function cssScan(c: Cursor): boolean {
  const line = c.line;
  const i = c.i;
  const ch = line[i]!;
  const next = line[i + 1];
  if ((ch === "/" && next === "*") || ch === '"' || ch === "'" || ch === " " || ch === "\t") return false;
  const depth = c.mode >> 1;
  const inValue = (c.mode & 1) === 1;
  if (ch === "{" || ch === "}") {
    c.mode = (ch === "{" ? depth + 1 : Math.max(0, depth - 1)) << 1;
    c.scratch.atRule = 0;
    c.emit(i + 1, "punctuation.bracket", ch === "{" ? "open" : "close");
    return true;
  }
  if (ch === ";") {
    c.mode = depth << 1;
    c.scratch.atRule = 0;
    return false;
  }
  if (ch === "@") {
    const end = c.match(AT_RULE);
    if (end < 0) return false;
    c.emit(end, "keyword", "keyword");
    c.scratch.atRule = 1;
    return true;
  }
  if (inValue) {
    if ((ch >= "0" && ch <= "9") || ((ch === "-" || ch === ".") && next !== undefined && next >= "0" && next <= "9")) {
      c.emit(c.match(CSS_NUMBER), "number", "value");
      const unit = c.match(CSS_UNIT);
      if (unit > 0) c.emit(unit, "type", "value");
      return true;
    }
    if (ch === "#") {
      const end = c.match(HASH);
      if (end < 0) return false;
      c.emit(end, "string.special", "value");
      return true;
    }
    if (ch === "!") {
      const end = c.match(IMPORTANT);
      if (end < 0) return false;
      c.emit(end, "keyword", "keyword");
      return true;
    }
    const end = c.match(CSS_IDENT);
    if (end < 0) return false;
    c.emit(end, line[end] === "(" ? "function" : null, "word");
    return true;
  }
  if (ch === ":" && c.scratch.atRule !== 1 && depth > 0 && !startsSelector(c)) {
    c.mode = (depth << 1) | 1;
    return false;
  }
  if (c.scratch.atRule === 1 || (depth > 0 && !startsSelector(c))) {
    // A declaration's property, or a media feature `(min-width: 600px)` after an at-rule.
    if (ch === ":") {
      c.mode = (depth << 1) | 1;
      return false;
    }
    const end = c.match(CSS_IDENT);
    if (end < 0) return false;
    const word = line.slice(i, end);
    const atRuleWord = c.scratch.atRule === 1 && line[end] !== ":";
    c.emit(end, atRuleWord ? (word === "and" || word === "not" || word === "only" ? "keyword" : null) : "property", "word");
    return true;
  }
  // A selector.
  if (ch === "." || ch === "#") {
    const end = c.match(CLASS_OR_ID);
    if (end < 0) return false;
    c.emit(i + 1, "punctuation.delimiter");
    c.emit(end, "property", "word");
    return true;
  }
  if (ch === ":") {
    const end = c.match(PSEUDO);
    if (end < 0) return false;
    c.emit(line[i + 1] === ":" ? i + 2 : i + 1, "punctuation.delimiter");
    c.emit(end, "attribute", "word");
    return true;
  }
  if (ch === "[") {
    c.emit(c.match(ATTRIBUTE_SELECTOR), "attribute", "word");
    return true;
  }
  if (ch === "&" || ch === "*") {
    c.emit(i + 1, "tag", "word");
    return true;
  }
  const end = c.match(CSS_IDENT);
  if (end < 0) return false;
  c.emit(end, "tag", "word");
  return true;
}

/** Inside a block, a `{` ahead on the line before any `;` means a nested rule's selector. */
function startsSelector(c: Cursor): boolean {
  const brace = nextOf(c, "{", "brace");
  if (brace < 0) return false;
  const semi = nextOf(c, ";", "semi");
  return semi < 0 || brace < semi;
}

export const css: LanguageSpec = {
  keywords: words(""),
  blockComments: [["/*", "*/"]],
  strings: [
    { open: '"', close: '"' },
    { open: "'", close: "'" },
  ],
  scan: cssScan,
};

const JSON_STRING = /"(?:[^"\\]|\\.)*"?/y;

/** A string is a key when a `:` follows it. */
function jsonScan(c: Cursor): boolean {
  if (c.line[c.i] !== '"') return false;
  const end = c.match(JSON_STRING);
  let j = end;
  while (c.line[j] === " " || c.line[j] === "\t") j++;
  c.emit(end, c.line[j] === ":" ? "property" : "string", "value");
  return true;
}

export const json: LanguageSpec = {
  keywords: words(""),
  constants: words("true false null"),
  lineComments: ["//"],
  blockComments: [["/*", "*/"]],
  strings: [],
  capitalTypes: false,
  scan: jsonScan,
};

const LIST_MARKER = /(?:-[ \t]+)+/y;
// `[^:#]*?` cannot pass a colon, so a line of colons fails at its first one: linear.
const YAML_KEY = /(?:[^\s:#'"\-[{&*!|>][^:#]*?|"[^"]*"|'[^']*'|-[^\s:#][^:#]*?)(?=:(?:[ \t]|$))/y;
const ANCHOR = /[&*][\w-]+/y;
// `!Ref`, `!!str`, `!<tag:yaml.org,2002:str>`: up to a blank, or a flow collection's punctuation.
const TAG = /!(?:<[^>\s]*>?|[^\s,[\]{}]*)/y;

function yamlScan(c: Cursor): boolean {
  const line = c.line;
  const ch = line[c.i];
  // A quote opens a string only where a value starts (`a: 'x'`, `- "y"`, `[`, `,`): inside a plain
  // scalar (`a: don't`, `h: 5'9"`) it is a letter. Right after a quote it is the `''` that stands
  // for one inside a single-quoted string.
  if ((ch === "'" || ch === '"') && (c.prevKind === "word" || (c.prevKind === "value" && line[c.i - 1] !== "'"))) {
    c.emit(c.i + 1, null, "word");
    return true;
  }
  if (c.atLineStart() || c.scratch.afterMarker === c.i) {
    if (c.i === 0 && (line.startsWith("---") || line.startsWith("..."))) {
      c.emit(3, "punctuation.delimiter");
      return true;
    }
    const marker = c.match(LIST_MARKER);
    if (marker > 0) {
      c.emit(marker, "punctuation.delimiter", "op");
      c.scratch.afterMarker = marker;
      return true;
    }
    const key = c.match(YAML_KEY);
    if (key > 0) {
      c.emit(key, "property", "word");
      return true;
    }
  }
  // A tag or an anchor comes before its node, so a quote after one opens a string (`!Sub 'a:${B}'`,
  // `&d 'x'`); an alias is the whole node.
  if ((ch === "&" || ch === "*" || ch === "!") && c.prevKind !== "word" && c.prevKind !== "value") {
    const end = c.match(ch === "!" ? TAG : ANCHOR);
    if (end < 0) return false;
    c.emit(end, ch === "!" ? "type" : "label", ch === "*" ? "value" : "op");
    return true;
  }
  return false;
}

export const yaml: LanguageSpec = {
  keywords: words(""),
  constants: words("true false null yes no on off True False TRUE FALSE Null NULL Yes No"),
  lineComments: ["#"],
  commentAfterSpace: true,
  strings: [
    { open: '"', close: '"' },
    { open: "'", close: "'", escape: false },
  ],
  capitalTypes: false,
  scan: yamlScan,
};
