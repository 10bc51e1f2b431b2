// What a command that only prints writes to stdout, when its words are literal: echo, printf, and
// cat of a literal heredoc. Shell analysis uses it for text piped into a shell (`printf 'rm -rf
// /\n' | sh`, `cat <<'EOF' | bash`), so the hardline floor sees the commands the shell will run.
// Where the exact bytes depend on the shell (echo's escapes differ between bash and dash) or on
// printf features not copied here, every plausible reading is returned; each is judged, so the
// decision is the strictest of them.
import { DECODER_NAMES, decodedText } from "./decoders.ts";

/**
 * The texts the command may print, or null when it is not such a command (or its input is
 * unknown); "too large" for a decoder whose output is past what is read to check it. `argv` has no wrappers.
 */
export function printedText(argv: string[], stdin: string[] | null): string[] | null | "too large" {
  const name = (argv[0] ?? "").replace(/^.*\//, "");
  const args = argv.slice(1);
  if (DECODER_NAMES.has(name)) return decodedText(argv, stdin);
  if (name === "echo") return echoed(args);
  if (name === "printf") return printed(args);
  if (name === "cat" && args.every((a) => a === "-")) return stdin;
  return null;
}

/** bash's echo (escapes off unless -e), bash with xpg_echo (on unless -E), and dash's (only -n; escapes always on). */
function echoed(args: string[]): string[] {
  return [...new Set([echoReading(args, /^-[neE]+$/, false), echoReading(args, /^-[neE]+$/, true), echoReading(args, /^-n+$/, true)])];
}

function echoReading(args: string[], option: RegExp, escapesByDefault: boolean): string {
  let newline = true;
  let escapes = escapesByDefault;
  let i = 0;
  for (; i < args.length && option.test(args[i] as string); i++) {
    for (const f of args[i] as string) {
      if (f === "n") newline = false;
      else if (f === "e" || f === "E") escapes = f === "e";
    }
  }
  const text = args.slice(i).join(" ");
  if (!escapes) return text + (newline ? "\n" : "");
  const decoded = decodeEscapes(text, true, true);
  return decoded.text + (newline && !decoded.stopped ? "\n" : "");
}

function printed(args: string[]): string[] | null {
  const rest = args[0] === "--" ? args.slice(1) : args;
  // `printf -v name ...` assigns instead of printing
  if (rest[0]?.startsWith("-v")) return [""];
  const format = rest[0];
  if (format === undefined) return null;
  // dash's printf has no `\xHH`
  const exact = [formatted(format, rest.slice(1), true), formatted(format, rest.slice(1), false)];
  if (exact[0] !== null && exact[1] !== null) return [...new Set(exact as string[])];
  // a directive not copied here: the format's text and each argument on its own line are judged
  return [[decodeEscapes(format, false, true).text, ...rest.slice(1).map((a) => decodeEscapes(a, false, true).text)].join("\n")];
}

// The flags are taken whole, as an atomic group would: `[-+ #0]*` then `\d+` split a long run of
// zeros every way before failing.
const DIRECTIVE = /^%(?=([-+ #0]*))\1(\d+|\*)?(?:\.(\d*|\*))?([sbqcdiu%])/;

/** printf's output, or null for a directive it does not copy (floats, hex, `%(fmt)T`). */
function formatted(format: string, args: string[], hex: boolean): string | null {
  let out = "";
  let next = 0;
  const arg = () => (next < args.length ? (args[next++] as string) : "");
  // the format is reused while arguments remain
  for (let round = 0; round < 64; round++) {
    const before = next;
    for (let i = 0; i < format.length; i++) {
      const c = format[i] as string;
      if (c === "\\") {
        const d = decodeEscapes(format.slice(i, i + 5), false, hex, 1);
        out += d.text;
        i += d.consumed - 1;
        continue;
      }
      if (c !== "%") {
        out += c;
        continue;
      }
      const m = DIRECTIVE.exec(format.slice(i));
      if (!m) return null;
      i += m[0].length - 1;
      const [, flags = "", widthSpec, precisionSpec, conv] = m;
      if (conv === "%") {
        out += "%";
        continue;
      }
      const width = widthSpec === "*" ? Number(arg()) || 0 : Number(widthSpec ?? 0);
      const precision = precisionSpec === undefined ? undefined : precisionSpec === "*" ? Number(arg()) || 0 : Number(precisionSpec || 0);
      let value = arg();
      if (conv === "b") {
        const d = decodeEscapes(value, true, hex);
        value = d.text;
        if (d.stopped) return out + value;
      } else if (conv === "q") value = value === "" ? "''" : /^[\x20-\x7e]*$/.test(value) ? value.replace(/[^\w/.,:=+@%^-]/g, "\\$&") : `'${value.replace(/'/g, `'\\''`)}'`;
      else if (conv === "c") value = value.slice(0, 1);
      else if (conv === "d" || conv === "i" || conv === "u") {
        if (!/^[-+]?\d*$/.test(value.trim())) return null;
        value = String(Number(value) || 0);
      }
      if (precision !== undefined && (conv === "s" || conv === "b" || conv === "q")) value = value.slice(0, precision);
      out += flags.includes("-") ? value.padEnd(width) : value.padStart(width);
    }
    if (next === before || next >= args.length) break;
  }
  return out;
}

/**
 * Backslash escapes as echo -e and printf read them: `\n`, `\t`, `\\`, octal and (bash only)
 * hex, and (for echo and %b) `\c`, which ends the output. Reads at most `limit` escapes.
 */
function decodeEscapes(text: string, echo: boolean, hex: boolean, limit = Infinity): { text: string; consumed: number; stopped: boolean } {
  const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\", '"': '"', "'": "'" };
  let out = "";
  let seen = 0;
  let i = 0;
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (c !== "\\" || seen >= limit || i + 1 >= text.length) {
      if (seen >= limit) break;
      out += c;
      continue;
    }
    seen++;
    const k = text[i + 1] as string;
    if (echo && k === "c") return { text: out, consumed: i + 2, stopped: true };
    const octal = echo ? /^0[0-7]{0,3}/.exec(text.slice(i + 1)) : /^[0-7]{1,3}/.exec(text.slice(i + 1));
    const hexed = hex ? /^x[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1)) : null;
    if (octal) {
      out += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
      i += octal[0].length;
    } else if (hexed) {
      out += String.fromCharCode(parseInt(hexed[0].slice(1), 16));
      i += hexed[0].length;
    } else if (Object.hasOwn(simple, k)) {
      out += simple[k];
      i++;
    } else {
      out += c;
    }
  }
  return { text: out, consumed: i, stopped: false };
}
