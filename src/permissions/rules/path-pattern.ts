// Path specifiers of Read/Edit/Grep/Glob rules, matched gitignore-style against absolute, resolved
// paths. Anchors: `//x` is the absolute path /x, `~/x` is under the home directory, `./x`, `/x` and a
// bare `a/b` are under the project root, and a bare name without a slash (`.env`, `*.pem`) matches
// at any depth anywhere, so a deny on it cannot be dodged by spelling an absolute path. A pattern that
// matches a directory also covers everything inside it, as ignoring a directory does in git.

import { anyRun, compilePieces, globPieces, literal, type Piece } from "./wildcard.ts";
import { trimEndChars } from "../../text/trim-chars.ts";

export type PathAnchors = { root: string; home: string };
export type PathMatcher = (absPath: string) => boolean;

/** Whether paths compare without case here, as rule patterns then do. */
export const caseInsensitive = process.platform === "darwin" || process.platform === "win32";

/**
 * Where a rule's pattern is anchored, and the glob below that: `prefix` is an absolute directory
 * (without a trailing slash, "" for `/`), or null for a bare name that matches at any depth.
 */
export function anchorPattern(spec: string, anchors: PathAnchors): { prefix: string | null; pattern: string } {
  let pattern = spec.trim();
  let prefix: string | null;
  if (pattern.startsWith("//")) {
    prefix = "";
    pattern = pattern.slice(2);
  } else if (pattern === "~" || pattern.startsWith("~/")) {
    prefix = trimEndChars(anchors.home, "/");
    pattern = pattern.slice(2);
  } else if (pattern.startsWith("./")) {
    prefix = trimEndChars(anchors.root, "/");
    pattern = pattern.slice(2);
  } else if (pattern.startsWith("/")) {
    prefix = trimEndChars(anchors.root, "/");
    pattern = pattern.slice(1);
  } else if (trimEndChars(pattern, "/").includes("/")) {
    prefix = trimEndChars(anchors.root, "/");
  } else {
    prefix = null;
  }
  pattern = trimEndChars(pattern, "/");
  if (pattern === ".") pattern = "";
  return { prefix, pattern };
}

export function compilePathPattern(spec: string, anchors: PathAnchors): PathMatcher {
  const { prefix, pattern } = anchorPattern(spec, anchors);
  const ic = caseInsensitive;
  const body = globPieces(pattern, ic);
  // Matched in linear time (the pattern may come from a repository's settings, the path from the model).
  const pieces: Piece[] =
    prefix === null ? [{ kind: "opt", seq: [anyRun(), ...literal("/")] }, ...body] : pattern === "" ? literal(prefix === "" ? "/" : prefix, ic) : [...literal(prefix + "/", ic), ...body];
  const matches = compilePieces(pieces, { ignoreCase: ic });
  return (absPath) => {
    // The path itself or any ancestor (a rule on a directory covers what is inside it), in one
    // pass: testing each ancestor in turn was quadratic in a path of many segments.
    const p = absPath.length > 1 ? trimEndChars(absPath, "/") : absPath;
    if (p.startsWith("/") && matches("/")) return true;
    return matches.somePrefix(p, (end) => p[end] === "/");
  };
}

/** Escape glob characters so a literal path can be written into a rule. */
export function escapeGlob(path: string): string {
  return path.replace(/[*?[\]\\]/g, "\\$&");
}
