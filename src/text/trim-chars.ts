// Trimming a set of characters from the ends of a string, in linear time. The regex spellings
// (/\/+$/, /[.\s]+$/, /^-+|-+$/) look as cheap but are quadratic in the engine on a long run that
// does not reach the end ("////…x": each start position rescans the run), and they run on paths,
// commands and text the model wrote.

const WHITESPACE = " \t\n\r\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

/** `chars` lists the characters to drop; `\s` in it stands for all whitespace, as in a regex. */
function charSet(chars: string): (c: string) => boolean {
  const set = new Set(chars.replace(/\\s/g, WHITESPACE));
  return (c) => set.has(c);
}

export function trimEndChars(s: string, chars: string): string {
  const has = charSet(chars);
  let end = s.length;
  while (end > 0 && has(s[end - 1] as string)) end--;
  return end === s.length ? s : s.slice(0, end);
}

export function trimStartChars(s: string, chars: string): string {
  const has = charSet(chars);
  let start = 0;
  while (start < s.length && has(s[start] as string)) start++;
  return start === 0 ? s : s.slice(start);
}

export const trimChars = (s: string, chars: string): string => trimStartChars(trimEndChars(s, chars), chars);

/** Trailing slashes dropped, but "/" (or "//") stays "/": the old /(.)\/+$/ → "$1" and /\/+$/ on a root. */
export function trimTrailingSlashes(p: string, keepRoot = true): string {
  const t = trimEndChars(p, "/");
  return t === "" && keepRoot && p.startsWith("/") ? "/" : t;
}
