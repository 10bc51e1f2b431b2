// The highlighting engine: one line at a time, left to right, with the state that a line leaves
// open (a block comment, a multi-line string, a heredoc, code embedded in a template string)
// carried to the next. So a line's tokens depend only on the lines before it: a block streamed line
// by line gets exactly the tokens it gets when highlighted whole, in any chunking.
//
// It is a lexer, not a parser: each language is a table (keywords, builtin names, comment and
// string delimiters) plus, where a language needs it, a small scanner hook (Bash command words,
// CSS selectors, JS regex literals). Every scan moves forward and every regex is sticky with no
// alternatives that can retry the same characters, so a line costs time linear in its length.
export type Token = { text: string; capture: string | null };

export type StringRule = {
  open: string;
  close: string;
  /** A backslash escapes the next character, coloured as an escape (default true). */
  escape?: boolean;
  /** The string may go on past the end of its line; a single-line one ends with its line. */
  multiline?: boolean;
  /** Openers of code embedded in the string (`${`, `#{`, `$(`), closed by the matching bracket. */
  interp?: readonly string[];
  /** Variables written straight into the string (`$name` in Bash and PHP): a sticky regex tried at "$". */
  vars?: { re: RegExp; capture: string };
  /** An opening bracket counted inside the string, so the `close` that matches it does not end it (Ruby's `%r{\d{2}}`). */
  nest?: string;
  capture?: string;
};

type Frame =
  | { readonly k: "comment"; readonly close: string }
  | { readonly k: "string"; readonly rule: StringRule; readonly depth?: number }
  | { readonly k: "heredoc"; readonly close: string; readonly indented: boolean }
  | { readonly k: "code"; readonly open: string; readonly close: string; readonly depth: number };

/** What a line leaves open for the next. Never mutated: a new one per line. */
export type LexState = { readonly frames: readonly Frame[]; readonly mode: number };
export const initialState: LexState = { frames: [], mode: 0 };

/** What the previous significant token was: decides regex-or-division, member access, JSX. */
export type Kind = "" | "word" | "keyword" | "value" | "open" | "close" | "op" | "dot";

export type LanguageSpec = {
  keywords: ReadonlySet<string>;
  /** Builtin types (`int`, `string`), coloured as type.builtin. */
  types?: ReadonlySet<string>;
  /** true, false, null, None, nil … */
  constants?: ReadonlySet<string>;
  /** Builtin functions, coloured as function.builtin when called. */
  builtins?: ReadonlySet<string>;
  /** this, self, super … */
  variables?: ReadonlySet<string>;
  /** Keywords after which a name is a function being defined (def, fn, func, function). */
  declarators?: ReadonlySet<string>;
  /** Keywords after which a name is a type being defined (class, struct, interface). */
  typeDeclarators?: ReadonlySet<string>;
  /** Tokens after which a name is a property or method (default "."). */
  memberAccess?: ReadonlySet<string>;
  lineComments?: readonly string[];
  /** A line comment starts only at the start of a line or after a space (Bash, YAML: `a#b` is a word). */
  commentAfterSpace?: boolean;
  blockComments?: readonly (readonly [string, string])[];
  /** Tried in order: put longer openers (`"""`) before their prefixes (`"`). */
  strings: readonly StringRule[];
  /** A word glued to a string opener is part of the string (Python's r"", f"", b""). */
  stringPrefixes?: RegExp;
  /** Sticky regex for a name; default letters, digits and _. */
  ident?: RegExp;
  /** Capitalised names are types (default true). */
  capitalTypes?: boolean;
  /** Called at the start of every line, before anything is scanned. */
  lineStart?: (c: Cursor) => void;
  /** The language's own scanner, tried first at each position in code; true when it consumed something. */
  scan?: (c: Cursor) => boolean;
  /** The capture for a name before the generic rules; undefined leaves it to them. */
  word?: (c: Cursor, word: string, end: number) => string | null | undefined;
};

export class Cursor {
  i = 0;
  readonly out: Token[] = [];
  prev = "";
  prevKind: Kind = "";
  /** Heredocs opened on this line: their bodies start on the next. */
  readonly heredocs: { close: string; indented: boolean }[] = [];
  /** Per-line scratch for hooks (cached look-ahead positions). */
  readonly scratch: Record<string, number> = {};

  constructor(
    readonly line: string,
    readonly frames: Frame[],
    public mode: number,
  ) {}

  /** Emit line[i, end) with `capture` and move to `end`; a `kind` makes it the previous significant token. */
  emit(end: number, capture: string | null, kind?: Kind): void {
    if (end <= this.i) return;
    const text = this.line.slice(this.i, end);
    const last = this.out[this.out.length - 1];
    if (last && last.capture === capture) last.text += text;
    else this.out.push({ text, capture });
    this.i = end;
    if (kind !== undefined) {
      this.prev = text;
      this.prevKind = kind;
    }
  }

  /** Match a sticky regex at the cursor: the end of the match, or -1. */
  match(re: RegExp): number {
    re.lastIndex = this.i;
    return re.test(this.line) ? re.lastIndex : -1;
  }

  /** Only blanks before the cursor on this line. */
  atLineStart(): boolean {
    let indent = this.scratch.indent;
    if (indent === undefined) {
      indent = 0;
      while (this.line[indent] === " " || this.line[indent] === "\t") indent++;
      this.scratch.indent = indent;
    }
    return this.i === indent;
  }

  pushString(rule: StringRule): void {
    this.frames.push({ k: "string", rule });
  }

  /** Code embedded up to the `close` that matches `open` (`${ … }`, `$( … )`). */
  pushCode(open: string, close: string): void {
    this.frames.push({ k: "code", open, close, depth: 0 });
  }

  pushComment(close: string): void {
    this.frames.push({ k: "comment", close });
  }
}

export const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

const IDENT = /[A-Za-z_]\w*/y;
// Exponent and fraction before \w: `1e+5`, `1.5`, `0xff`, `10n`, `1_000u32`. Nothing follows the
// star, so the first way through is taken and nothing is retried.
const NUMBER = /\d(?:[eE][+-]\d|\.\d|\w)*/y;
const ALL_CAPS = /^[A-Z][A-Z0-9_]*[A-Z0-9]$/;
const OPERATOR_CHARS = "+-*/%=<>!&|^~?:@";
const DEFAULT_MEMBER = words(".");

/** Tokens for one line, and the state the next line starts in. */
export function lexLine(spec: LanguageSpec, line: string, state: LexState): { tokens: Token[]; state: LexState } {
  const c = new Cursor(line, state.frames.slice(), state.mode);
  spec.lineStart?.(c);
  while (c.i < line.length) {
    const top = c.frames[c.frames.length - 1];
    if (top?.k === "heredoc") {
      // The terminator may be indented (<<-, <<~, PHP) and followed by code (PHP's `EOT;`).
      const body = top.indented ? line.trimStart() : line;
      if (body.startsWith(top.close) && !/\w/.test(body[top.close.length] ?? "")) c.frames.pop();
      c.emit(line.length, "string");
    } else if (top?.k === "comment") {
      const j = line.indexOf(top.close, c.i);
      if (j < 0) c.emit(line.length, "comment");
      else {
        c.emit(j + top.close.length, "comment");
        c.frames.pop();
      }
    } else if (top?.k === "string") {
      stringPart(c, top.rule, top.depth ?? 0);
    } else {
      codeToken(spec, c, top);
    }
  }
  for (let top = c.frames[c.frames.length - 1]; top?.k === "string" && !top.rule.multiline; top = c.frames[c.frames.length - 1]) c.frames.pop();
  // The first heredoc opened on the line is read first, so it goes on top.
  for (let h = c.heredocs.length - 1; h >= 0; h--) c.frames.push({ k: "heredoc", ...c.heredocs[h]! });
  return { tokens: c.out, state: c.frames.length === 0 && c.mode === 0 ? initialState : { frames: c.frames, mode: c.mode } };
}

function stringPart(c: Cursor, rule: StringRule, depth: number): void {
  const line = c.line;
  const cap = rule.capture ?? "string";
  const nest = rule.nest;
  let j = c.i;
  while (j < line.length) {
    const ch = line[j]!;
    if (ch === nest || (depth > 0 && ch === rule.close)) {
      depth += ch === nest ? 1 : -1;
      c.frames[c.frames.length - 1] = { k: "string", rule, depth };
      j++;
      continue;
    }
    if (ch === "\\" && rule.escape !== false) {
      c.emit(j, cap);
      // A whole code point: half a surrogate pair must not end up in a token of its own.
      const hi = line.charCodeAt(j + 1);
      c.emit(Math.min(line.length, j + (hi >= 0xd800 && hi <= 0xdbff ? 3 : 2)), "escape");
      j = c.i;
      continue;
    }
    if (line.startsWith(rule.close, j)) {
      c.emit(j, cap);
      c.emit(j + rule.close.length, cap, "value");
      c.frames.pop();
      return;
    }
    if (rule.interp) {
      for (const o of rule.interp) {
        if (line.startsWith(o, j)) {
          c.emit(j, cap);
          c.emit(j + o.length, "punctuation.special", "open");
          if (o.includes("(")) c.pushCode("(", ")");
          else if (o.includes("`")) c.pushCode("`", "`");
          else c.pushCode("{", "}");
          return;
        }
      }
    }
    if (rule.vars && ch === "$") {
      rule.vars.re.lastIndex = j;
      if (rule.vars.re.test(line)) {
        c.emit(j, cap);
        c.emit(rule.vars.re.lastIndex, rule.vars.capture);
        j = c.i;
        continue;
      }
    }
    j++;
  }
  c.emit(line.length, cap);
}

function commentAt(spec: LanguageSpec, line: string, i: number): boolean {
  if (spec.lineComments) {
    for (const m of spec.lineComments) {
      if (line.startsWith(m, i) && (!spec.commentAfterSpace || i === 0 || line[i - 1] === " " || line[i - 1] === "\t")) return true;
    }
  }
  if (spec.blockComments) for (const [o] of spec.blockComments) if (line.startsWith(o, i)) return true;
  return false;
}

function codeToken(spec: LanguageSpec, c: Cursor, top: Frame | undefined): void {
  const line = c.line;
  const i = c.i;
  const ch = line[i]!;
  if (ch === " " || ch === "\t") {
    let j = i + 1;
    while (j < line.length && (line[j] === " " || line[j] === "\t")) j++;
    c.emit(j, null);
    return;
  }
  if (top?.k === "code") {
    // Embedded code: its brackets are counted so the one that closes it is found.
    const at = c.frames.length - 1;
    if (ch === top.close && top.depth === 0) {
      c.frames.pop();
      c.emit(i + 1, "punctuation.special", "close");
      return;
    }
    if (ch === top.open) c.frames[at] = { ...top, depth: top.depth + 1 };
    else if (ch === top.close) c.frames[at] = { ...top, depth: top.depth - 1 };
  }
  if (spec.scan?.(c)) return;
  if (commentAt(spec, line, i)) {
    for (const [o, close] of spec.blockComments ?? []) {
      if (line.startsWith(o, i)) {
        c.emit(i + o.length, "comment");
        c.pushComment(close);
        return;
      }
    }
    c.emit(line.length, "comment");
    return;
  }
  for (const r of spec.strings) {
    if (line.startsWith(r.open, i)) {
      c.emit(i + r.open.length, r.capture ?? "string");
      c.pushString(r);
      return;
    }
  }
  if (ch >= "0" && ch <= "9") {
    c.emit(c.match(NUMBER), "number", "value");
    return;
  }
  const end = c.match(spec.ident ?? IDENT);
  if (end > i) {
    const word = line.slice(i, end);
    if (spec.stringPrefixes?.test(word)) {
      for (const r of spec.strings) {
        if (line.startsWith(r.open, end)) {
          c.emit(end + r.open.length, r.capture ?? "string");
          c.pushString(r);
          return;
        }
      }
    }
    const capture = classify(spec, c, word, end);
    c.emit(end, capture, capture === "keyword" ? "keyword" : "word");
    return;
  }
  if (OPERATOR_CHARS.includes(ch)) {
    // The run ends before a `/` or `?`, which may start a value (`x=/re/`, Ruby's `c==?a`) that the
    // language's scanner reads at its own position.
    let j = i + 1;
    while (j < line.length && OPERATOR_CHARS.includes(line[j]!) && line[j] !== "/" && line[j] !== "?" && !commentAt(spec, line, j)) j++;
    const op = line.slice(i, j);
    c.emit(j, op === ":" || op === "::" ? "punctuation.delimiter" : "operator", "op");
    return;
  }
  if (ch === "(" || ch === "[" || ch === "{") c.emit(i + 1, "punctuation.bracket", "open");
  else if (ch === ")" || ch === "]" || ch === "}") c.emit(i + 1, "punctuation.bracket", "close");
  else if (ch === ".") c.emit(i + 1, "punctuation.delimiter", "dot");
  else if (ch === "," || ch === ";") c.emit(i + 1, "punctuation.delimiter", "open");
  else c.emit(i + 1, null);
}

/** The capture for a name at line[c.i, end). */
function classify(spec: LanguageSpec, c: Cursor, word: string, end: number): string | null {
  const next = c.line[end];
  if ((spec.memberAccess ?? DEFAULT_MEMBER).has(c.prev)) {
    if (next === "(") return "function.method";
    return ALL_CAPS.test(word) ? "constant" : "property";
  }
  const own = spec.word?.(c, word, end);
  if (own !== undefined) return own;
  if (spec.keywords.has(word)) return "keyword";
  if (spec.constants?.has(word)) return "constant.builtin";
  if (spec.variables?.has(word)) return "variable.builtin";
  if (spec.declarators?.has(c.prev)) return "function";
  if (spec.typeDeclarators?.has(c.prev)) return "type";
  if (next === "(") return spec.builtins?.has(word) ? "function.builtin" : "function";
  if (spec.types?.has(word)) return "type.builtin";
  if (next === ":" && c.line[end + 1] === ":" && !(word[0]! >= "A" && word[0]! <= "Z")) return "namespace";
  if (spec.capitalTypes === false) return null;
  if (ALL_CAPS.test(word)) return "constant";
  if (word[0]! >= "A" && word[0]! <= "Z") return "type";
  return null;
}
