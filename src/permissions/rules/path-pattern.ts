// Path specifiers of Read/Edit/Grep/Glob rules, matched gitignore-style against absolute, resolved
// paths. Anchors: `//x` is the absolute path /x, `~/x` is under the home directory, `./x`, `/x` and a
// bare `a/b` are under the project root, and a bare name without a slash (`.env`, `*.pem`) matches
// at any depth anywhere, so a deny on it cannot be dodged by spelling an absolute path. A pattern that
// matches a directory also covers everything inside it, as ignoring a directory does in git.

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
    prefix = anchors.home.replace(/\/+$/, "");
    pattern = pattern.slice(2);
  } else if (pattern.startsWith("./")) {
    prefix = anchors.root.replace(/\/+$/, "");
    pattern = pattern.slice(2);
  } else if (pattern.startsWith("/")) {
    prefix = anchors.root.replace(/\/+$/, "");
    pattern = pattern.slice(1);
  } else if (pattern.replace(/\/+$/, "").includes("/")) {
    prefix = anchors.root.replace(/\/+$/, "");
  } else {
    prefix = null;
  }
  pattern = pattern.replace(/\/+$/, "");
  if (pattern === ".") pattern = "";
  return { prefix, pattern };
}

export function compilePathPattern(spec: string, anchors: PathAnchors): PathMatcher {
  const { prefix, pattern } = anchorPattern(spec, anchors);
  const body = globToRegexSource(pattern);
  let source: string;
  if (prefix === null) source = `(?:^|/)${body}$`;
  else if (pattern === "") source = `^${escapeRegex(prefix === "" ? "/" : prefix)}$`;
  else source = `^${escapeRegex(prefix)}/${body}$`;
  const re = new RegExp(source, caseInsensitive ? "i" : "");
  return (absPath) => {
    // The path itself or any ancestor: a rule on a directory covers what is inside it.
    let p = absPath.length > 1 ? absPath.replace(/\/+$/, "") : absPath;
    for (;;) {
      if (re.test(p)) return true;
      if (p === "/" || p === "") return false;
      const cut = p.lastIndexOf("/");
      p = cut <= 0 ? "/" : p.slice(0, cut);
    }
  };
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** gitignore glob → regex source: `*` within a segment, `**` across segments, `?`, `[...]`, `\x`. */
export function globToRegexSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[++i] as string);
    } else if (c === "*") {
      if (glob[i + 1] === "*") {
        const atSegmentStart = i === 0 || glob[i - 1] === "/";
        i++;
        if (atSegmentStart && glob[i + 1] === "/") {
          out += "(?:.*/)?";
          i++;
        } else {
          out += ".*";
        }
      } else {
        out += "[^/]*";
      }
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
      } else {
        let cls = glob.slice(i + 1, close);
        if (cls.startsWith("!")) cls = "^" + cls.slice(1);
        out += "[" + cls.replace(/\\/g, "\\\\") + "]";
        i = close;
      }
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

/** Escape glob characters so a literal path can be written into a rule. */
export function escapeGlob(path: string): string {
  return path.replace(/[*?[\]\\]/g, "\\$&");
}
