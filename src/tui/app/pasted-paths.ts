// What a terminal pastes when a file is dragged onto it, or a path copied from a file manager: the
// path bare, quoted ('…' in GNOME's terminals, "…" elsewhere), with its spaces and specials
// escaped by backslashes (iTerm2, kitty, macOS Terminal), or as a file:// URL with percent
// escapes; several files as several such words, on one line or one per line. Pure: whether each
// path names an image is the caller's question.
import { isAbsolute, resolve } from "node:path";

/** Image file names we look at; the bytes decide in the end (a .png that is HTML stays text). */
const IMAGE_NAME = /\.(?:png|jpe?g|gif|webp)$/i;

/**
 * The paths a paste names when it is nothing but paths of image files (by their names), or null
 * when it is anything else (text, a path among words, a path of another kind of file).
 */
export function pastedImagePaths(text: string, cwd: string, home?: string): string[] | null {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.length > 64 * 1024) return null;
  const words = shellWords(trimmed);
  if (!words || words.length === 0) return null;
  const paths: string[] = [];
  for (const w of words) {
    const p = toPath(w, cwd, home);
    if (p === null || !IMAGE_NAME.test(p)) return null;
    paths.push(p);
  }
  return paths;
}

function toPath(word: string, cwd: string, home: string | undefined): string | null {
  if (word.startsWith("file://")) {
    // file:///abs/path or file://localhost/abs/path; another host is not a file here.
    const rest = word.slice("file://".length);
    const slash = rest.indexOf("/");
    if (slash < 0) return null;
    const host = rest.slice(0, slash);
    if (host !== "" && host !== "localhost") return null;
    try {
      return decodeURIComponent(rest.slice(slash));
    } catch {
      return null;
    }
  }
  if (word === "~" || word.startsWith("~/")) return home ? home + word.slice(1) : null;
  if (/[\0\n\r]/.test(word)) return null;
  return isAbsolute(word) ? word : resolve(cwd, word);
}

/**
 * The words of a line as a POSIX shell splits them: quotes group, a backslash escapes the next
 * character (outside single quotes); unquoted whitespace (a newline included) separates. Null for
 * an unterminated quote.
 */
export function shellWords(s: string): string[] | null {
  const out: string[] = [];
  let cur = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else cur += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === "\\" && i + 1 < s.length && '"\\$`'.includes(s[i + 1]!)) cur += s[++i];
      else cur += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < s.length) {
      cur += s[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(cur);
      cur = "";
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) out.push(cur);
  return out;
}
