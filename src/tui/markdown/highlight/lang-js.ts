// JavaScript, TypeScript and TSX. Beyond the tables, two scanners: a regex literal (./regex-literal.ts)
// and, for JSX, a tag (`<div`, `</div`).
import { words, type Cursor, type LanguageSpec, type StringRule } from "./lexer.ts";
import { regexLiteral, valueMayStart } from "./regex-literal.ts";

const strings: StringRule[] = [
  { open: "`", close: "`", multiline: true, interp: ["${"] },
  { open: '"', close: '"' },
  { open: "'", close: "'" },
];

const jsKeywords =
  "as async await break case catch class const continue debugger default delete do else export extends finally for from function get if import in instanceof let new of return set static switch throw try typeof var void while with yield";
const tsKeywords =
  " abstract declare enum implements interface keyof namespace private protected public readonly satisfies type infer is asserts override accessor module unique";

const TAG_NAME = /[A-Za-z][\w.:-]*/y;

function jsxTag(c: Cursor): boolean {
  const line = c.line;
  if (line[c.i] !== "<") return false;
  const closing = line[c.i + 1] === "/";
  // `</name` is always a closing tag; `<name` only where a value may start (`a<b` is a comparison).
  if (!closing && !valueMayStart(c)) return false;
  const at = c.i + (closing ? 2 : 1);
  TAG_NAME.lastIndex = at;
  if (line[at] === ">") {
    c.emit(at + 1, "punctuation.bracket", "close");
    return true;
  }
  if (!TAG_NAME.test(line)) return false;
  c.emit(at, "punctuation.bracket");
  c.emit(TAG_NAME.lastIndex, "tag", "word");
  return true;
}

const common = {
  constants: words("true false null undefined NaN Infinity"),
  variables: words("this super arguments console window document module exports globalThis process"),
  builtins: words("require parseInt parseFloat isNaN isFinite setTimeout setInterval clearTimeout clearInterval structuredClone fetch"),
  declarators: words("function function*"),
  typeDeclarators: words("class interface type enum namespace"),
  memberAccess: words("."),
  lineComments: ["//"],
  blockComments: [["/*", "*/"]] as const,
  strings,
  ident: /[A-Za-z_$][\w$]*/y,
};

export const javascript: LanguageSpec = {
  ...common,
  keywords: words(jsKeywords),
  scan: (c) => regexLiteral(c) || jsxTag(c),
};

export const typescript: LanguageSpec = {
  ...common,
  keywords: words(jsKeywords + tsKeywords),
  types: words("string number boolean any unknown never void object symbol bigint"),
  scan: regexLiteral,
};

export const tsx: LanguageSpec = { ...typescript, scan: (c) => regexLiteral(c) || jsxTag(c) };
