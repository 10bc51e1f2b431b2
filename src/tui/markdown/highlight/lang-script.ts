// Python, Ruby, Bash and PHP: tables plus scanners for their sigils ($var, @ivar, :symbol),
// heredocs, Ruby's regex, %-literals and ?c characters, and Bash's command words (the first word of
// each command is the one coloured).
import { annotation } from "./lang-c.ts";
import { words, type Cursor, type LanguageSpec, type StringRule } from "./lexer.ts";
import { regexEnd, regexLiteral, valueMayStart } from "./regex-literal.ts";

export const python: LanguageSpec = {
  keywords: words(
    "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case type print_function",
  ),
  types: words("int str float bool bytes bytearray list dict set frozenset tuple object complex"),
  constants: words("True False None NotImplemented Ellipsis __name__ __file__"),
  variables: words("self cls"),
  builtins: words(
    "abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__",
  ),
  declarators: words("def"),
  typeDeclarators: words("class"),
  lineComments: ["#"],
  strings: [
    { open: '"""', close: '"""', multiline: true },
    { open: "'''", close: "'''", multiline: true },
    { open: '"', close: '"' },
    { open: "'", close: "'" },
  ],
  stringPrefixes: /^(?:[rRbBuUfFtT]|[rR][bBfFtT]|[bBfFtT][rR])$/,
  scan: annotation("function"),
};

const RUBY_HEREDOC = /<<([~-]?)(['"]?)([A-Z_][A-Z0-9_]*)\2/y;
const SYMBOL = /:[A-Za-z_]\w*[?!=]?/y;
const INSTANCE_VAR = /@@?[A-Za-z_]\w*/y;
// `$'` and `$"` are globals (the text after the last match, the loaded files), not quotes.
const GLOBAL_VAR = /\$(?:[A-Za-z_]\w*|\d+|-\w|[~*$?!@/\\;,.=:<>"&`'+])/y;
// `?a`, `?'`, `?\n`, `?\u{1F600}`: one character, never followed by a name's letters (`?ab` is not one).
const CHARACTER = /\?(?:\\(?:u\{[0-9a-fA-F ]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{1,2}|[0-7]{1,3}|[CM]-.|c.|.)|[^\s\\])(?!\w)/uy;
// `%w[a b]`, `%q(it's)`, `%r{\d{2}}x`, `%(text)`: a type letter, then an ASCII punctuation mark as
// the delimiter (which also bounds the rules cached by opener).
const PERCENT = /%([qQwWiIrsx]?)([!-/:-@[-^`{-~])/y;
const BRACKETS: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };
const percentRules = new Map<string, StringRule>();

/** As Ruby reads it, a value also starts after a method name and a blank, before a non-blank: `puts /x/`, `puts %w[a]`, `puts ?a`. */
function rubyValueMayStart(c: Cursor): boolean {
  if (valueMayStart(c)) return true;
  if (c.prevKind !== "word") return false;
  const before = c.line[c.i - 1];
  const after = c.line[c.i + 1];
  return (before === " " || before === "\t") && after !== undefined && after !== " " && after !== "\t" && after !== "=";
}

// Methods whose first argument is so often a regex that `name /x/` is one (`line.split /-/`).
const TAKES_REGEX = words("split scan gsub gsub! sub sub! match match? grep grep_v index rindex slice slice! partition rpartition start_with? puts p print");
// What may begin the right operand of a division (`total /2`, `w /@n`, `a /(b + c)`, `x /-1`).
const OPERAND_START = /[\w@$(-]/y;

/**
 * `/` after a name and a blank, before a non-blank: Ruby reads a regex after a method
 * (`line.split /'/`) and division after a local variable (`total /2`), which a lexer cannot tell
 * apart. Division, unless the name takes regexes, or the text up to the next `/` cannot be an
 * operand or holds a backslash or a quote (as code, a quote would open a string to the end of the
 * block). Never a regex across a `#`: as division, that is a comment (`x.size /2 # half/whole`).
 */
function regexAfterName(c: Cursor): boolean {
  const until = c.scratch.divisionUntil;
  if (until !== undefined && c.i < until) return false;
  const end = regexEnd(c);
  if (end < 0) return false;
  const line = c.line;
  let close = end - 1;
  while (line[close] !== "/") close--;
  OPERAND_START.lastIndex = c.i + 1;
  let regex = TAKES_REGEX.has(c.prev) || !OPERAND_START.test(line);
  for (let j = c.i + 1; j < close; j++) {
    const ch = line[j];
    if (ch === "#" && line[j + 1] !== "{") {
      regex = false;
      break;
    }
    if (ch === "\\" || ch === "'" || ch === '"' || ch === "`") regex = true;
  }
  if (regex) {
    c.emit(end, "string.regexp", "value");
    return true;
  }
  // Read as code now; a `/` before its closing one is not tried again, so a line stays linear.
  c.scratch.divisionUntil = close;
  return false;
}

function percentLiteral(c: Cursor): boolean {
  PERCENT.lastIndex = c.i;
  const m = PERCENT.exec(c.line);
  if (!m) return false;
  const [text, type, open] = m as unknown as [string, string, string];
  let rule = percentRules.get(text);
  if (!rule) {
    const close = BRACKETS[open] ?? open;
    rule = {
      open: text,
      close,
      multiline: true,
      nest: close === open ? undefined : open,
      // Lower-case types are single-quoted, the rest (and bare `%(…)`) interpolate.
      interp: /^[qwis]$/.test(type) ? undefined : ["#{"],
      capture: type === "r" ? "string.regexp" : type === "s" || type === "i" || type === "I" ? "string.special.symbol" : "string",
    };
    percentRules.set(text, rule);
  }
  c.emit(PERCENT.lastIndex, rule.capture!);
  c.pushString(rule);
  return true;
}

/**
 * After a name, `?` is a ternary's (`a ?b :c`, `x ?'a' : 'b'`), as a name may be a local variable;
 * only a quote that does not close on the line makes it a character (`puts ?'`), as the quote
 * would otherwise open a string to the end of the block.
 */
function characterLiteral(c: Cursor): boolean {
  const line = c.line;
  if (!valueMayStart(c)) {
    if (!rubyValueMayStart(c)) return false;
    const q = line[c.i + 1]!;
    if (q !== "'" && q !== '"') return false;
    // The next such quote, looked up once per stretch of line, so a line of `?'` stays linear.
    const key = q === "'" ? "nextSingle" : "nextDouble";
    let at = c.scratch[key];
    if (at === undefined || (at !== -1 && at < c.i + 2)) at = c.scratch[key] = line.indexOf(q, c.i + 2);
    if (at >= 0) return false;
  }
  const end = c.match(CHARACTER);
  if (end < 0) return false;
  c.emit(end, "string", "value");
  return true;
}

function rubyScan(c: Cursor): boolean {
  const line = c.line;
  const ch = line[c.i];
  if (ch === "/") return valueMayStart(c) ? regexLiteral(c) : rubyValueMayStart(c) && regexAfterName(c);
  if (ch === "%") return rubyValueMayStart(c) && percentLiteral(c);
  if (ch === "?") return characterLiteral(c);
  if (ch === "$") {
    const end = c.match(GLOBAL_VAR);
    if (end < 0) return false;
    // A value, unlike a method's name: `/` after one is division (`$w /2`).
    c.emit(end, "variable", "value");
    return true;
  }
  if (ch === "@") {
    const end = c.match(INSTANCE_VAR);
    if (end < 0) return false;
    c.emit(end, "property", "value");
    return true;
  }
  if (ch === ":" && line[c.i - 1] !== ":" && line[c.i + 1] !== ":") {
    const end = c.match(SYMBOL);
    if (end < 0) return false;
    c.emit(end, "string.special.symbol", "value");
    return true;
  }
  if (ch === "<" && line[c.i + 1] === "<") {
    RUBY_HEREDOC.lastIndex = c.i;
    const m = RUBY_HEREDOC.exec(line);
    if (!m) return false;
    c.emit(RUBY_HEREDOC.lastIndex, "string", "value");
    c.heredocs.push({ close: m[3]!, indented: m[1] !== "" });
    return true;
  }
  return false;
}

const rubyBuiltins = words(
  "puts print p pp require require_relative load attr_accessor attr_reader attr_writer include extend prepend raise loop lambda proc private protected public module_function catch throw format sprintf gets",
);

export const ruby: LanguageSpec = {
  keywords: words(
    "BEGIN END alias and begin break case class def defined? do else elsif end ensure for if in module next not or redo rescue retry return then undef unless until when while yield",
  ),
  constants: words("true false nil __FILE__ __LINE__ __method__"),
  variables: words("self super"),
  builtins: rubyBuiltins,
  declarators: words("def"),
  typeDeclarators: words("class module"),
  memberAccess: words(". &."),
  lineComments: ["#"],
  strings: [
    { open: '"', close: '"', multiline: true, interp: ["#{"] },
    { open: "`", close: "`", multiline: true, interp: ["#{"] },
    { open: "'", close: "'", multiline: true },
  ],
  ident: /[A-Za-z_]\w*(?:[?!](?!=))?/y,
  lineStart: (c) => {
    // =begin … =end: a block comment whose delimiters stand at the start of a line.
    if (c.frames.length === 0 && c.line.startsWith("=begin")) c.pushComment("=end");
    // After __END__ the file is data (read as DATA), not code: a comment no line closes, as no line holds a newline.
    else if (c.frames.length === 0 && c.line === "__END__") c.pushComment("\n");
  },
  scan: rubyScan,
  word: (c, word, end) => {
    // `key: value` in a hash, `name:` in keyword arguments.
    if (c.line[end] === ":" && c.line[end + 1] !== ":") return "string.special.symbol";
    // Called without parentheses as often as with.
    if (rubyBuiltins.has(word)) return "function.builtin";
    return undefined;
  },
};

// Bash's own state, in LexState.mode: what the next word is.
const COMMAND = 1; // the first word of a command
const ARGUMENT = 0;
const ASSIGNED = 2; // the value of `NAME=value` before a command

const BASH_VAR = /\$(?:[A-Za-z_]\w*|[0-9@#?$!*-]|\{[^}]*\}?)/y;
const BASH_WORD = /[^\s;|&()<>'"`$\\#{}][^\s;|&()<>'"`$\\]*/y;
const ASSIGNMENT = /[A-Za-z_]\w*(?=\+?=)/y;
// `<<\EOF` quotes the terminator as `<<'EOF'` does.
const HEREDOC = /<<(-?)[ \t]*(['"]?)\\?([A-Za-z_]\w*)\2/y;
const bashKeywords = words("if then else elif fi case esac for select while until do done in function time coproc export local declare readonly typeset unset");
/** After these the next word is a command again. */
const leadsCommand = words("if then else elif while until do time ! coproc");

function bashScan(c: Cursor): boolean {
  const line = c.line;
  const i = c.i;
  const ch = line[i]!;
  if (ch === "$") {
    if (line[i + 1] === "(") {
      c.emit(i + 2, "punctuation.special", "open");
      c.pushCode("(", ")");
      c.mode = COMMAND;
      return true;
    }
    const end = c.match(BASH_VAR);
    if (end < 0) return false;
    c.emit(end, "property", "value");
    return true;
  }
  if (ch === "\\") {
    c.emit(Math.min(line.length, i + 2), "escape", "word");
    return true;
  }
  if (ch === "`") {
    c.emit(i + 1, "punctuation.special", "open");
    c.pushCode("`", "`");
    c.mode = COMMAND;
    return true;
  }
  if (ch === "<" && line[i + 1] === "<" && line[i + 2] !== "<") {
    HEREDOC.lastIndex = i;
    const m = HEREDOC.exec(line);
    if (!m) return false;
    c.emit(HEREDOC.lastIndex, "string", "value");
    c.heredocs.push({ close: m[3]!, indented: m[1] === "-" });
    return true;
  }
  if (";|&(){".includes(ch)) {
    c.mode = COMMAND;
    return false;
  }
  if (c.mode === COMMAND) {
    const end = c.match(ASSIGNMENT);
    if (end > 0) {
      c.emit(end, "property", "word");
      c.mode = ASSIGNED;
      return true;
    }
  }
  const end = c.match(BASH_WORD);
  if (end < 0) return false;
  const word = line.slice(i, end);
  let capture: string | null = null;
  if (word === "[" || word === "[[" || word === "]" || word === "]]") {
    capture = "punctuation.bracket";
    c.mode = ARGUMENT;
  } else if (c.mode === COMMAND && bashKeywords.has(word)) {
    capture = "keyword";
    c.mode = leadsCommand.has(word) ? COMMAND : ARGUMENT;
    if (word === "for" || word === "select" || word === "case") c.scratch.expectIn = 1;
  } else if (c.mode === COMMAND) {
    capture = "function";
    c.mode = ARGUMENT;
  } else if (word === "in" && c.scratch.expectIn === 1) {
    capture = "keyword";
    c.scratch.expectIn = 0;
  } else {
    if (c.mode === ASSIGNED) c.mode = COMMAND;
    if (/^\d+$/.test(word)) capture = "number";
  }
  c.emit(end, capture, capture === "keyword" ? "keyword" : "word");
  return true;
}

export const bash: LanguageSpec = {
  keywords: bashKeywords,
  lineComments: ["#"],
  commentAfterSpace: true,
  strings: [
    { open: '"', close: '"', multiline: true, interp: ["$("], vars: { re: BASH_VAR, capture: "property" } },
    { open: "$'", close: "'" },
    { open: "'", close: "'", multiline: true, escape: false },
  ],
  capitalTypes: false,
  lineStart: (c) => {
    c.mode = COMMAND;
  },
  scan: bashScan,
};

const PHP_VAR = /\$[A-Za-z_]\w*/y;
const PHP_TAG = /<\?(?:php|=)?|\?>/y;
const PHP_HEREDOC = /<<<[ \t]*(['"]?)([A-Za-z_]\w*)\1/y;
const PHP_ATTRIBUTE = /#\[[^\]]*\]?/y;

// PHP's own state, in LexState.mode: after `?>` the text is HTML, up to the next `<?php`; its
// apostrophes (`<p>Don't</p>`) are not quotes.
const PHP_CODE = 0;
const HTML = 1;

function phpScan(c: Cursor): boolean {
  const line = c.line;
  const ch = line[c.i];
  if (c.mode === HTML) {
    const open = line.indexOf("<?", c.i);
    if (open !== c.i) {
      c.emit(open < 0 ? line.length : open, null);
      return true;
    }
    c.emit(c.match(PHP_TAG), "tag", "open");
    c.mode = PHP_CODE;
    return true;
  }
  if (ch === "$") {
    const end = c.match(PHP_VAR);
    if (end < 0) return false;
    c.emit(end, line.startsWith("$this", c.i) && end === c.i + 5 ? "variable.builtin" : "variable", "word");
    return true;
  }
  if (ch === "<" || ch === "?") {
    if (ch === "<" && line.startsWith("<<<", c.i)) {
      PHP_HEREDOC.lastIndex = c.i;
      const m = PHP_HEREDOC.exec(line);
      if (!m) return false;
      c.emit(PHP_HEREDOC.lastIndex, "string", "value");
      c.heredocs.push({ close: m[2]!, indented: true });
      return true;
    }
    const end = c.match(PHP_TAG);
    if (end < 0) return false;
    if (ch === "?") c.mode = HTML;
    c.emit(end, "tag");
    return true;
  }
  if (ch === "#" && line[c.i + 1] === "[") {
    c.emit(c.match(PHP_ATTRIBUTE), "attribute");
    return true;
  }
  return false;
}

export const php: LanguageSpec = {
  keywords: words(
    "abstract and array as break case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile enum extends final finally fn for foreach function global goto if implements include include_once instanceof insteadof interface isset list match namespace new or print private protected public readonly require require_once return static switch throw trait try unset use var while xor yield",
  ),
  types: words("int float string bool void mixed never object iterable callable"),
  constants: words("true false null TRUE FALSE NULL"),
  variables: words("self parent"),
  builtins: words(
    "count strlen array_map array_filter array_keys array_values array_merge in_array implode explode sprintf printf json_encode json_decode var_dump print_r str_replace substr trim strtolower strtoupper is_array is_string isset file_get_contents file_put_contents",
  ),
  declarators: words("function fn"),
  typeDeclarators: words("class interface trait enum"),
  memberAccess: words("-> ?-> ::"),
  lineComments: ["//", "#"],
  blockComments: [["/*", "*/"]],
  strings: [
    { open: '"', close: '"', multiline: true, vars: { re: PHP_VAR, capture: "variable" } },
    { open: "'", close: "'", multiline: true },
  ],
  scan: phpScan,
};
