// Wildcard patterns (rule specifiers, gitignore globs, find -path) matched in time linear in the
// text, whatever the pattern. The patterns come from settings files, which a repository ships, and
// the text from the model: a regex built from `Bash(*a*a*a*a*b)` backtracks polynomially on a long
// command, and a regex `.` skips newlines, so a file name with one slipped past `Read(./secrets/**)`.
// A pattern compiles to a small NFA walked one character at a time over the set of live states.

/** One step of a pattern: a character that passes `test`, a run of such, or an optional sub-pattern. */
export type Piece = { kind: "char"; test: (c: string) => boolean } | { kind: "star"; test: (c: string) => boolean } | { kind: "opt"; seq: Piece[] };

export type Matcher = (text: string) => boolean;

const ANY = () => true;
const NOT_SLASH = (c: string) => c !== "/";

export const anyChar = (): Piece => ({ kind: "char", test: ANY });
export const anyRun = (): Piece => ({ kind: "star", test: ANY });
/** The characters of `s`, lower-cased for a matcher compiled with ignoreCase. */
export const literal = (s: string, ignoreCase = false): Piece[] => [...(ignoreCase ? s.toLowerCase() : s)].map((ch) => ({ kind: "char", test: (c: string) => c === ch }));

// NFA nodes: a character step to `next`, a fork into two, or the end.
type Node = { t: "char"; test: (c: string) => boolean; next: number } | { t: "split"; a: number; b: number } | { t: "end" };

/** Compiles pieces into a matcher of the whole text. `ignoreCase` compares lower-cased characters. */
export function compilePieces(pieces: Piece[], opts: { ignoreCase?: boolean } = {}): PrefixMatcher {
  const nodes: Node[] = [{ t: "end" }];
  // Built back to front: each piece is given the node that follows it.
  const build = (seq: Piece[], next: number): number => {
    for (let i = seq.length - 1; i >= 0; i--) {
      const p = seq[i] as Piece;
      if (p.kind === "char") {
        nodes.push({ t: "char", test: p.test, next });
        next = nodes.length - 1;
      } else if (p.kind === "star") {
        const loop = nodes.length;
        nodes.push({ t: "split", a: -1, b: next });
        nodes.push({ t: "char", test: p.test, next: loop });
        (nodes[loop] as { a: number }).a = loop + 1;
        next = loop;
      } else {
        const inner = build(p.seq, next);
        nodes.push({ t: "split", a: inner, b: next });
        next = nodes.length - 1;
      }
    }
    return next;
  };
  const start = build(pieces, 0);
  const fold = opts.ignoreCase ? (c: string) => c.toLowerCase() : (c: string) => c;
  // Each node's epsilon closure (the char and end nodes reached through forks), computed once, so a
  // step is: for each live char node that takes the character, add its successor's closure.
  const closure: Int32Array[] = nodes.map((_, n) => {
    const out: number[] = [];
    const mark = new Set<number>();
    const stack = [n];
    while (stack.length) {
      const i = stack.pop() as number;
      if (mark.has(i)) continue;
      mark.add(i);
      const node = nodes[i] as Node;
      if (node.t === "split") stack.push(node.b, node.a);
      else out.push(i);
    }
    return Int32Array.from(out);
  });
  const tests = nodes.map((n) => (n.t === "char" ? n.test : null));
  const nexts = Int32Array.from(nodes.map((n) => (n.t === "char" ? n.next : -1)));
  const size = nodes.length;
  const seen = new Int32Array(size);
  let liveBuf = new Int32Array(size);
  let nextBuf = new Int32Array(size);
  let gen = 0;
  const accepting = (live: Int32Array, count: number) => {
    for (let k = 0; k < count; k++) if (live[k] === 0) return true;
    return false;
  };
  /** Whether the text matches, or with `cut`, whether any prefix ending where cut(i) says does. */
  const run = (text: string, cut?: (i: number) => boolean): boolean => {
    gen++;
    let count = 0;
    const first = closure[start] as Int32Array;
    for (let q = 0; q < first.length; q++) {
      const j = first[q] as number;
      if (seen[j] !== gen) (seen[j] = gen), (liveBuf[count++] = j);
    }
    let pos = 0;
    for (const raw of text) {
      if (count === 0) return false;
      if (cut && pos > 0 && cut(pos) && accepting(liveBuf, count)) return true;
      const c = fold(raw);
      gen++;
      let n = 0;
      for (let k = 0; k < count; k++) {
        const i = liveBuf[k] as number;
        const test = tests[i];
        if (!test || !test(c)) continue;
        const to = closure[nexts[i] as number] as Int32Array;
        for (let q = 0; q < to.length; q++) {
          const j = to[q] as number;
          if (seen[j] !== gen) (seen[j] = gen), (nextBuf[n++] = j);
        }
      }
      const t = liveBuf;
      liveBuf = nextBuf;
      nextBuf = t;
      count = n;
      pos += raw.length;
    }
    return accepting(liveBuf, count);
  };
  const whole = ((text: string) => run(text)) as PrefixMatcher;
  whole.somePrefix = (text, cut) => run(text, cut);
  return whole;
}

/** A matcher that can also say, in one pass, whether a prefix ending at a cut point matches. */
export type PrefixMatcher = Matcher & { somePrefix(text: string, cut: (end: number) => boolean): boolean };

/** A bracket expression's test for one character: `[abc]`, `[a-z]`, `[!x]` or `[^x]`, `\]` escaped. */
function bracketTest(body: string, ignoreCase: boolean): (c: string) => boolean {
  let negate = false;
  let s = body;
  if (s.startsWith("!") || s.startsWith("^")) {
    negate = true;
    s = s.slice(1);
  }
  const ranges: Array<[string, string]> = [];
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    let lo = chars[i] as string;
    if (lo === "\\" && i + 1 < chars.length) lo = chars[++i] as string;
    let hi = lo;
    if (chars[i + 1] === "-" && i + 2 < chars.length) {
      hi = chars[i + 2] as string;
      if (hi === "\\" && i + 3 < chars.length) hi = chars[++i + 2] as string;
      i += 2;
    }
    ranges.push(ignoreCase ? [lo.toLowerCase(), hi.toLowerCase()] : [lo, hi]);
  }
  return (c) => ranges.some(([lo, hi]) => c >= lo && c <= hi) !== negate;
}

/** Where a bracket expression that opens at `i` closes (a `]` right after `[` or `[!` is literal), or -1. */
function bracketClose(glob: string, i: number): number {
  let j = i + 1;
  if (glob[j] === "!" || glob[j] === "^") j++;
  if (glob[j] === "]") j++;
  for (; j < glob.length; j++) {
    if (glob[j] === "\\") j++;
    else if (glob[j] === "]") return j;
  }
  return -1;
}

/**
 * gitignore-style glob: `*` and `?` within a segment, `**` across segments (`a/**\/b` also matches
 * `a/b`), `[...]`, `\x` for a literal x.
 */
export function globPieces(glob: string, ignoreCase = false): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "\\" && i + 1 < glob.length) out.push(...literal(glob[++i] as string, ignoreCase));
    else if (c === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        i++;
        if (atSegmentStart && glob[i + 1] === "/") {
          out.push({ kind: "opt", seq: [anyRun(), ...literal("/")] });
          i++;
        } else out.push(anyRun());
      } else out.push({ kind: "star", test: NOT_SLASH });
    } else if (c === "?") out.push({ kind: "char", test: NOT_SLASH });
    else if (c === "[" && bracketClose(glob, i) !== -1) {
      const close = bracketClose(glob, i);
      out.push({ kind: "char", test: bracketTest(glob.slice(i + 1, close), ignoreCase) });
      i = close;
    } else out.push(...literal(c, ignoreCase));
  }
  return out;
}

/** fnmatch without FNM_PATHNAME, as find's -path uses it: `*` and `?` cross slashes. */
export function fnmatchPieces(pattern: string, ignoreCase = false): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\" && i + 1 < pattern.length) out.push(...literal(pattern[++i] as string, ignoreCase));
    else if (c === "*") out.push(anyRun());
    else if (c === "?") out.push(anyChar());
    else if (c === "[" && bracketClose(pattern, i) !== -1) {
      const close = bracketClose(pattern, i);
      out.push({ kind: "char", test: bracketTest(pattern.slice(i + 1, close), ignoreCase) });
      i = close;
    } else out.push(...literal(c, ignoreCase));
  }
  return out;
}

/** A glob matched against a whole string. */
export function compileGlob(glob: string, ignoreCase = false): Matcher {
  const key = `${ignoreCase ? "i" : "c"}${glob}`;
  let m = globCache.get(key);
  if (!m) {
    if (globCache.size >= 1000) globCache.clear();
    m = compilePieces(globPieces(glob, ignoreCase), { ignoreCase });
    globCache.set(key, m);
  }
  return m;
}
const globCache = new Map<string, Matcher>();
