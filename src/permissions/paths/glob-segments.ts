// Path globs as lists of segments, and whether two of them can match a common path. This is how a
// command's reach (`grep -r x .`, `cat */*.ts`, `tree -L 2`) is compared with a rule's pattern
// (`Read(./secrets/**)`) without listing a single directory: both are patterns over absolute paths,
// and the question is whether one path can satisfy both. Answers err on "yes": a pattern piece we
// cannot reason about exactly is widened, never narrowed.
import { compileGlob } from "../rules/wildcard.ts";

export type Segment =
  /** Exactly one path segment matching a glob (`secrets`, `*.ts`, `[ab]?`), backslash escapes kept. */
  | { kind: "one"; glob: string }
  /** Any number of segments, none included (`**`). */
  | { kind: "any" }
  /** One segment or none: a depth-limited walk is a run of these. */
  | { kind: "opt" };

const ANY: Segment = { kind: "any" };
const OPT: Segment = { kind: "opt" };
const one = (glob: string): Segment => ({ kind: "one", glob });

/**
 * An absolute glob (`/p/src/**\/*.ts`, escapes kept) as segments. `**` spans any depth; as a rule's
 * last segment (`secrets/**`) it needs at least one, since the rule matches below the folder only.
 */
export function globSegments(pattern: string, opts: { fold?: boolean; rule?: boolean } = {}): Segment[] {
  const out: Segment[] = [];
  const raws = pattern.split("/").filter((s) => s !== "");
  for (const [i, raw] of raws.entries()) {
    const s = opts.fold ? raw.toLowerCase() : raw;
    if (s === "**" && opts.rule && i === raws.length - 1) out.push(one("*"), ANY);
    else if (s === "**") out.push(ANY);
    // `a**b` crosses slashes: one or more segments of anything is wider, and enough
    else if (/(^|[^\\])\*\*/.test(s)) out.push(one("*"), ANY);
    else out.push(one(s));
  }
  return out;
}

/** An absolute literal path as segments. */
export function pathSegments(abs: string, fold = false): Segment[] {
  return abs
    .split("/")
    .filter((s) => s !== "")
    .map((s) => one((fold ? s.toLowerCase() : s).replace(/[*?[\]\\{},~]/g, "\\$&")));
}

/** A walk that goes `depth` levels below where it starts: Infinity is `**`. */
export function depthSegments(depth: number): Segment[] {
  if (depth <= 0) return [];
  return depth > 32 ? [ANY] : Array.from({ length: depth }, () => OPT);
}

/** Whether a glob segment is the `.`/`..` of a path: the walk would climb, which segments cannot express. */
export function climbs(segments: Segment[]): boolean {
  return segments.some((s) => s.kind === "one" && (s.glob === "." || s.glob === ".."));
}

/** Can some path match both segment lists? */
export function mayIntersect(a: Segment[], b: Segment[]): boolean {
  const memo = new Map<number, boolean>();
  const restOptional = (list: Segment[], from: number) => list.slice(from).every((s) => s.kind !== "one");
  const go = (i: number, j: number): boolean => {
    const key = i * (b.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === a.length) result = restOptional(b, j);
    else if (j === b.length) result = restOptional(a, i);
    else {
      const x = a[i] as Segment;
      const y = b[j] as Segment;
      if (x.kind === "any") result = go(i + 1, j) || go(i, j + 1);
      else if (y.kind === "any") result = go(i, j + 1) || go(i + 1, j);
      else {
        result = (x.kind === "opt" && go(i + 1, j)) || (y.kind === "opt" && go(i, j + 1));
        if (!result) result = namesMayMatch(x.kind === "one" ? x.glob : "*", y.kind === "one" ? y.glob : "*") && go(i + 1, j + 1);
      }
    }
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}

const WILD = /(^|[^\\])(\\\\)*[*?[]/;

/** Whether a glob has a wildcard the shell or a matcher would expand. */
export function hasWildcard(glob: string): boolean {
  return WILD.test(glob);
}

/**
 * Can one name match both single-segment globs? Exact when either is literal; otherwise the two
 * must agree on their literal beginnings and endings, which is necessary, so a "no" is certain.
 */
export function namesMayMatch(a: string, b: string): boolean {
  if (!hasWildcard(a)) return matchesName(b, unescape(a));
  if (!hasWildcard(b)) return matchesName(a, unescape(b));
  const [pa, sa] = literalEnds(a);
  const [pb, sb] = literalEnds(b);
  return (pa.startsWith(pb) || pb.startsWith(pa)) && (sa.endsWith(sb) || sb.endsWith(sa));
}

/**
 * Whether every name `narrow` matches is matched by `wide` too: equal globs, a literal name,
 * `lit*` over what starts with lit, `*lit` over what ends with it, `*lit*`. "No" when unsure.
 */
export function nameGlobCovers(wide: string, narrow: string, ignoreCase = false): boolean {
  const w = ignoreCase ? wide.toLowerCase() : wide;
  const n = ignoreCase ? narrow.toLowerCase() : narrow;
  if (w === n) return true;
  if (!hasWildcard(n)) return matchesName(w, unescape(n));
  const [prefix, suffix] = literalEnds(n);
  if (/^[^*?[\]\\]*\*$/.test(w)) return prefix.startsWith(w.slice(0, -1));
  if (/^\*[^*?[\]\\]*$/.test(w)) return suffix.endsWith(w.slice(1));
  // `*lit*` over what has lit in its literal beginning or ending
  if (/^\*[^*?[\]\\]+\*$/.test(w)) return prefix.includes(w.slice(1, -1)) || suffix.includes(w.slice(1, -1));
  return false;
}

/** Whether a single-segment glob matches a name. */
export function matchesName(glob: string, name: string, ignoreCase = false): boolean {
  return compileGlob(glob, ignoreCase)(name);
}

function unescape(glob: string): string {
  return glob.replace(/\\(.)/g, "$1");
}

/** The literal text before the first wildcard and after the last one. */
function literalEnds(glob: string): [string, string] {
  const chars: Array<{ c: string; wild: boolean }> = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "\\" && i + 1 < glob.length) chars.push({ c: glob[++i] as string, wild: false });
    else chars.push({ c, wild: c === "*" || c === "?" || c === "[" || c === "]" });
  }
  const first = chars.findIndex((x) => x.wild);
  const last = chars.length - 1 - [...chars].reverse().findIndex((x) => x.wild);
  const text = (xs: typeof chars) => xs.map((x) => x.c).join("");
  return [text(chars.slice(0, first)), text(chars.slice(last + 1))];
}
