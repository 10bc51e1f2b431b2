// What a bash word will be after quoting, escapes, `~`, known variables and brace expansion, or that
// it cannot be known (command substitution, unknown variables). Works on tree-sitter nodes.
import type { Node } from "web-tree-sitter";

/** A word as the shell will see it. */
export type ShellWord = {
  /** The final text, with quotes and escapes removed; `\0` marks each unknowable piece. */
  text: string;
  /** Glob pattern form: characters that came from quotes or escapes are backslash-escaped. */
  pattern: string;
  /** Some piece cannot be known before running (`$(...)`, `$UNKNOWN`, `${X:-y}`). */
  dynamic: boolean;
  /** Contains an unquoted `*`, `?` or `[` that the shell will expand. */
  glob: boolean;
};

/** Variables known while reading a script: null means "set, but to something unknowable". */
export type ShellVars = Map<string, ShellWord | null>;

/** A segment of a word; `split` marks an unquoted command substitution's output, which the shell splits into words. */
type Segment = { text: string; quoted: boolean; dynamic: boolean; split?: boolean };

/**
 * How a word reads what only running can tell: `substitute` says what a command substitution
 * prints, when known (without trailing newlines; null when unknowable); `variable` hears of each
 * variable read; `split: false` where the shell does no word splitting (assignments, heredocs,
 * herestrings).
 */
export type WordReading = { substitute?: (node: Node) => string | null; variable?: (name: string) => void; split?: boolean };

const DYN = "\0";

export function literalWord(text: string): ShellWord {
  return { text, pattern: escapePattern(text), dynamic: false, glob: false };
}

/** Evaluate one argument node into the words the shell passes (brace expansion and word splitting may give several). */
export function evaluateWord(node: Node, vars: ShellVars, home: string, reading: WordReading = {}): ShellWord[] {
  const segs = segments(node, vars, false, reading);
  if (reading.split === false) for (const s of segs) if (s.split) Object.assign(s, { split: false, quoted: true });
  return fields(segs).flatMap((f, i) => fieldWords(f, i === 0 ? home : null));
}

/** Split unquoted substitution output at blanks, as the shell does; a field that only such splitting left empty is dropped. */
function fields(segs: Segment[]): Segment[][] {
  if (!segs.some((s) => s.split)) return [segs];
  const out: Segment[][] = [[]];
  for (const s of segs) {
    if (!s.split) {
      (out[out.length - 1] as Segment[]).push(s);
      continue;
    }
    s.text.split(/[ \t\n]+/).forEach((piece, i) => {
      if (i > 0) out.push([]);
      if (piece !== "") (out[out.length - 1] as Segment[]).push({ ...s, text: piece });
    });
  }
  return out.filter((f) => f.length > 0);
}

/** One field's words; `home` is given for the first field, where `~` expands. */
function fieldWords(segs: Segment[], home: string | null): ShellWord[] {
  let pattern = "";
  let dynamic = false;
  for (const s of segs) {
    if (s.dynamic) {
      dynamic = true;
      pattern += DYN;
    } else if (s.split) pattern += s.text.replace(/[\\{},~]/g, "\\$&"); // globbed, never brace- or tilde-expanded
    else pattern += s.quoted ? escapePattern(s.text) : s.text;
  }
  const first = segs[0];
  if (home !== null && first && !first.quoted && !first.dynamic && !first.split) {
    if (pattern === "~" || pattern.startsWith("~/")) pattern = escapePattern(home) + pattern.slice(1);
    else if (/^~[A-Za-z_]/.test(pattern)) {
      // ~user: another user's home, unknowable here
      pattern = DYN + pattern.replace(/^~[^/]*/, "");
      dynamic = true;
    }
  }
  return expandBraces(pattern).map((p) => ({
    text: unescapePattern(p),
    pattern: p,
    dynamic,
    glob: /(^|[^\\])[*?[]/.test(p),
  }));
}

function segments(node: Node, vars: ShellVars, inQuotes: boolean, reading: WordReading): Segment[] {
  switch (node.type) {
    case "word":
    case "number":
    case "variable_name":
    case "special_variable_name":
      return [{ text: node.text, quoted: inQuotes, dynamic: false }];
    case "raw_string":
      return [{ text: node.text.slice(1, -1), quoted: true, dynamic: false }];
    case "ansi_c_string":
      return [{ text: decodeAnsiC(node.text.slice(2, -1)), quoted: true, dynamic: false }];
    case "string":
    case "translated_string": {
      const out: Segment[] = [];
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === "string_content") {
          out.push({ text: child.text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c)), quoted: true, dynamic: false });
        } else out.push(...segments(child, vars, true, reading));
      }
      if (out.length === 0) out.push({ text: "", quoted: true, dynamic: false });
      return out;
    }
    case "concatenation": {
      const out: Segment[] = [];
      for (const child of node.namedChildren) if (child) out.push(...segments(child, vars, inQuotes, reading));
      // tree-sitter splits `{a,b}` into word nodes; anonymous pieces are kept in the text of children
      return out;
    }
    case "simple_expansion":
    case "expansion": {
      const names = node.namedChildren.filter((c) => c !== null);
      const simple = names.length === 1 && names[0]?.type === "variable_name" && node.childCount <= (node.type === "expansion" ? 3 : 2);
      for (const n of names) if (n.type === "variable_name") reading.variable?.(n.text);
      if (simple) {
        const value = vars.get(names[0]!.text);
        if (value && !value.dynamic) return [{ text: value.text, quoted: inQuotes, dynamic: false }];
      }
      return [{ text: "", quoted: inQuotes, dynamic: true }];
    }
    case "command_substitution": {
      // `$(echo x | base64 -d)`: known when what it runs only prints
      const printed = reading.substitute?.(node);
      if (printed === null || printed === undefined) return [{ text: "", quoted: inQuotes, dynamic: true }];
      return [inQuotes ? { text: printed, quoted: true, dynamic: false } : { text: printed, quoted: false, dynamic: false, split: true }];
    }
    default:
      // process substitution, arithmetic, arrays: unknowable before running
      return [{ text: "", quoted: inQuotes, dynamic: true }];
  }
}

const PATTERN_SPECIALS = /[\\*?[\]{},~]/g;

function escapePattern(s: string): string {
  return s.replace(PATTERN_SPECIALS, "\\$&");
}

function unescapePattern(p: string): string {
  return p.replace(/\\(.)/gs, "$1");
}

/** Bash brace expansion of unescaped `{a,b}` groups (nested too); ranges `{1..3}` are left alone. */
export function expandBraces(pattern: string, limit = 64): string[] {
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{") {
      if (depth === 0) {
        open = i;
        commas.length = 0;
      }
      depth++;
    } else if (c === "," && depth === 1) commas.push(i);
    else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0 && commas.length > 0) {
        const before = pattern.slice(0, open);
        const after = pattern.slice(i + 1);
        const cuts = [open, ...commas, i];
        const results: string[] = [];
        for (let k = 0; k + 1 < cuts.length; k++) {
          const alt = pattern.slice((cuts[k] as number) + 1, cuts[k + 1]);
          for (const e of expandBraces(before + alt + after, limit)) {
            if (results.length < limit) results.push(e);
          }
        }
        return results;
      }
    }
  }
  return [pattern];
}

function decodeAnsiC(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (_, e: string) => {
    const k = e[0];
    if (k === "x" || k === "u" || k === "U") return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (k && k >= "0" && k <= "7") return String.fromCharCode(parseInt(e, 8));
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v" };
    if (k === "c") return String.fromCharCode((e.charCodeAt(1) & 0x1f) >>> 0);
    return simple[e] ?? e;
  });
}
