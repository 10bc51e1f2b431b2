// The inline syntax CommonMark defines (commonmark.js's common.js and inlines.js): what may be
// escaped, entities, link titles and destinations, autolinks, raw HTML tags; and the unescaping and
// normalising of what they match.
import { decodeEntity, ENTITY_SOURCE } from "./entities.ts";

const ESCAPABLE = "[!\"#$%&'()*+,./:;<=>?@[\\\\\\]^_`{|}~-]";
export const reEscapable = new RegExp("^" + ESCAPABLE);
export const reEntityHere = new RegExp("^" + ENTITY_SOURCE);
const reEntityOrEscapedChar = new RegExp("\\\\" + ESCAPABLE + "|" + ENTITY_SOURCE, "g");
export const rePunctuation = /^[!"#$%&'()*+,\-./:;<=>?@[\]\\^_`{|}~\p{P}\p{S}]/u;
const ESCAPED_CHAR = "\\\\" + ESCAPABLE;
export const reLinkTitle = new RegExp(
  '^(?:"(' + ESCAPED_CHAR + '|\\\\[^\\\\]|[^\\\\"\\x00])*"' +
    "|'(" + ESCAPED_CHAR + "|\\\\[^\\\\]|[^\\\\'\\x00])*'" +
    "|\\((" + ESCAPED_CHAR + "|\\\\[^\\\\]|[^\\\\()\\x00])*\\))",
);
export const reLinkDestinationBraces = /^(?:<(?:[^<>\n\\\x00]|\\.)*>)/;
export const reTicksHere = /^`+/;
export const reTicks = /`+/g;
export const reEmailAutolink =
  /^<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>/;
export const reAutolink = /^<[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*>/;
export const reSpnl = /^ *(?:\n *)?/;
export const reWhitespaceChar = /^[ \t\n\x0b\x0c\x0d]/;
export const reUnicodeWhitespaceChar = /^\s/;
export const reInitialSpace = /^ */;
export const reSpaceAtEndOfLine = /^ *(?:\n|$)/;
export const reLinkLabel = /^\[(?:[^\\[\]]|\\.){0,1000}\]/s;
export const reMain = /^[^\n`[\]\\!<&*_~]+/;

const TAGNAME = "[A-Za-z][A-Za-z0-9-]*";
const ATTRIBUTE =
  "(?:\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:\\s*=\\s*(?:[^\"'=<>`\\x00-\\x20]+|'[^']*'|\"[^\"]*\"))?)";
export const OPENTAG = "<" + TAGNAME + ATTRIBUTE + "*\\s*/?>";
export const CLOSETAG = "</" + TAGNAME + "\\s*[>]";
export const reHtmlTag = new RegExp(
  "^(?:" + OPENTAG + "|" + CLOSETAG + "|<!-->|<!--->|<!--[\\s\\S]*?-->|[<][?][\\s\\S]*?[?][>]|<![A-Za-z]+[^>]*>|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>)",
);

export function unescapeString(s: string): string {
  if (!/[\\&]/.test(s)) return s;
  return s.replace(reEntityOrEscapedChar, (m) => (m[0] === "\\" ? m.charAt(1) : (decodeEntity(m) ?? m)));
}

/** Percent-encode what may not appear raw in a URI (OSC 8 wants printable ASCII), keeping existing escapes. */
export function normalizeUri(uri: string): string {
  return uri.replace(/%(?![0-9a-fA-F]{2})|[^\x21-\x7e]/gu, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      return "%EF%BF%BD";
    }
  });
}

export function normalizeReference(label: string): string {
  return label.slice(1, -1).trim().replace(/[ \t\r\n]+/g, " ").toLowerCase().toUpperCase();
}
