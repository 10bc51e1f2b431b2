// The C family and its neighbours: C/C++, C#, Java, Go, Rust. Tables, plus scanners for what the
// generic engine cannot tell: C's preprocessor lines, annotations, Rust's lifetimes, raw strings and
// macros.
import { words, type Cursor, type LanguageSpec, type StringRule } from "./lexer.ts";

const cStrings: StringRule[] = [
  { open: '"', close: '"' },
  { open: "'", close: "'" },
];
const slashComments = { lineComments: ["//"], blockComments: [["/*", "*/"]] as const };

const DIRECTIVE = /#[ \t]*[a-z]+/y;
const SYSTEM_HEADER = /<[^>\n]*>/y;

/** `#include <stdio.h>`, `#define X`: the directive is a keyword, a <header> a string. */
function preprocessor(c: Cursor): boolean {
  const line = c.line;
  if (line[c.i] === "#" && c.atLineStart()) {
    const end = c.match(DIRECTIVE);
    if (end < 0) return false;
    c.emit(end, "keyword", "keyword");
    return true;
  }
  if (line[c.i] === "<" && c.prev.endsWith("include")) {
    const end = c.match(SYSTEM_HEADER);
    if (end < 0) return false;
    c.emit(end, "string", "value");
    return true;
  }
  return false;
}

const ANNOTATION = /@[A-Za-z_][\w.]*/y;

/** Java's @Override, Python's @decorator: an attribute of what follows. */
export function annotation(capture: string) {
  return (c: Cursor): boolean => {
    if (c.line[c.i] !== "@") return false;
    const end = c.match(ANNOTATION);
    if (end < 0) return false;
    c.emit(end, capture);
    return true;
  };
}

const cKeywords =
  "auto break case const continue default do else enum extern for goto if inline register restrict return sizeof static struct switch typedef union volatile while _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local";
const cppKeywords =
  " alignas alignof and asm catch class concept consteval constexpr constinit co_await co_return co_yield decltype delete explicit export final friend mutable namespace new noexcept not operator or override private protected public requires static_assert static_cast dynamic_cast reinterpret_cast const_cast template thread_local throw try typeid typename using virtual xor";

export const cpp: LanguageSpec = {
  keywords: words(cKeywords + cppKeywords),
  types: words(
    "void char short int long float double signed unsigned bool size_t ssize_t ptrdiff_t intptr_t uintptr_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t wchar_t char8_t char16_t char32_t FILE",
  ),
  constants: words("true false NULL nullptr"),
  variables: words("this"),
  typeDeclarators: words("struct class union enum namespace"),
  memberAccess: words(". ->"),
  ...slashComments,
  strings: [{ open: 'R"(', close: ')"', multiline: true, escape: false }, ...cStrings],
  scan: preprocessor,
};

export const cSharp: LanguageSpec = {
  keywords: words(
    "abstract as async await base break case catch checked class const continue default delegate do else enum event explicit extern finally fixed for foreach get goto if implicit in init interface internal is lock namespace new operator out override params partial private protected public readonly record ref required return sealed set sizeof stackalloc static struct switch throw try typeof unchecked unsafe using var virtual volatile when where while with yield",
  ),
  types: words("bool byte sbyte char decimal double float int uint nint nuint long ulong short ushort object string dynamic void"),
  constants: words("true false null"),
  variables: words("this base"),
  typeDeclarators: words("class struct interface enum record namespace"),
  ...slashComments,
  strings: [
    { open: '"""', close: '"""', multiline: true, escape: false },
    { open: '@"', close: '"', multiline: true, escape: false },
    { open: '$@"', close: '"', multiline: true, escape: false },
    { open: '@$"', close: '"', multiline: true, escape: false },
    { open: '$"', close: '"' },
    ...cStrings,
  ],
};

export const java: LanguageSpec = {
  keywords: words(
    "abstract assert break case catch class const continue default do else enum exports extends final finally for goto if implements import instanceof interface module native new non-sealed open opens package permits private protected provides public record requires return sealed static strictfp super switch synchronized throw throws to transient transitive try uses var volatile when while with yield",
  ),
  types: words("boolean byte char double float int long short void"),
  constants: words("true false null"),
  variables: words("this super"),
  typeDeclarators: words("class interface enum record extends implements"),
  ...slashComments,
  strings: [{ open: '"""', close: '"""', multiline: true }, ...cStrings],
  scan: annotation("attribute"),
};

export const go: LanguageSpec = {
  keywords: words(
    "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var",
  ),
  types: words(
    "any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr",
  ),
  constants: words("true false nil iota"),
  builtins: words("append cap clear close complex copy delete imag len make max min new panic print println real recover"),
  declarators: words("func"),
  typeDeclarators: words("type"),
  ...slashComments,
  strings: [{ open: "`", close: "`", multiline: true, escape: false }, ...cStrings],
};

// By code point (the u flag): '😀' is one character in two UTF-16 units.
const CHAR_LITERAL = /'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|.)|[^\\'])'/uy;
const LIFETIME = /'[A-Za-z_]\w*/y;
const ATTRIBUTE = /#!?\[[^\]]*\]?/y;
// No escapes in a raw string: r"C:\dir\" ends at its last quote. Rust allows at most 255 hashes,
// which also bounds the rules cached by count.
const RAW_STRING = /[bc]?r(#{0,255})"/y;
const rawStrings = new Map<number, StringRule>();

/** `'a'` is a char, `'a` a lifetime; `r#"…"#` a raw string; `name!(` a macro; `#[derive(..)]` an attribute. */
function rustScan(c: Cursor): boolean {
  const ch = c.line[c.i];
  if (ch === "r" || ch === "b" || ch === "c") {
    // As many hashes close it as open it: r##"…"## may hold a "#.
    RAW_STRING.lastIndex = c.i;
    const m = RAW_STRING.exec(c.line);
    if (!m) return false;
    const hashes = m[1]!.length;
    let rule = rawStrings.get(hashes);
    if (!rule) rawStrings.set(hashes, (rule = { open: "", close: '"' + m[1], multiline: true, escape: false }));
    c.emit(RAW_STRING.lastIndex, "string");
    c.pushString(rule);
    return true;
  }
  if (ch === "'") {
    let end = c.match(CHAR_LITERAL);
    if (end > 0) {
      c.emit(end, "string", "value");
      return true;
    }
    end = c.match(LIFETIME);
    if (end > 0) {
      c.emit(end, "label", "word");
      return true;
    }
    return false;
  }
  if (ch === "#") {
    const end = c.match(ATTRIBUTE);
    if (end < 0) return false;
    c.emit(end, "attribute");
    return true;
  }
  return false;
}

export const rust: LanguageSpec = {
  keywords: words(
    "as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return static struct super trait type union unsafe use where while yield macro_rules",
  ),
  types: words("bool char str i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 Self"),
  constants: words("true false"),
  variables: words("self"),
  declarators: words("fn"),
  typeDeclarators: words("struct enum trait type union"),
  ...slashComments,
  strings: [
    { open: '"', close: '"', multiline: true },
  ],
  stringPrefixes: /^[bc]$/,
  scan: rustScan,
  word: (c, word, end) => {
    const line = c.line;
    if (line[end] === "!" && line[end + 1] !== "=") return "function.macro";
    return undefined;
  },
};
