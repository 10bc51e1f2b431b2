// What a static decoder in a pipeline prints, given the text on its stdin: `base64 -d` (and
// encoding), `xxd -r -p`, `rev`. Shell analysis follows such text into a shell or eval, so the
// hardline floor sees `echo cm0gLXJmIC8= | base64 -d | sh` as the `rm -rf /` it runs. Where
// implementations differ (GNU base64 prints what it decoded up to the first bad character; others
// skip bad characters) every reading is returned, and each is judged.

/** Decoded text longer than this is not followed: it is judged as unknown text. */
export const DECODED_LIMIT = 64 * 1024;

/** Names of the commands decodedText reads, for telling the user the text was decoded. */
export const DECODER_NAMES = new Set(["base64", "xxd", "rev"]);

/** The readings of what `argv` prints when fed each of `stdin`'s readings, or null when not a decoder (or its input is unknown). */
export function decodedText(argv: string[], stdin: string[] | null): string[] | null | "too large" {
  const name = (argv[0] ?? "").replace(/^.*\//, "");
  const reader = decoderOf(name, argv.slice(1));
  if (!reader || stdin === null) return null;
  const out = new Set<string>();
  for (const text of stdin) {
    if (text.length > DECODED_LIMIT * 2) return "too large";
    for (const reading of reader(text)) {
      if (reading.length > DECODED_LIMIT) return "too large";
      out.add(reading);
    }
  }
  return [...out].slice(0, 8);
}

type Reader = (text: string) => string[];

function decoderOf(name: string, args: string[]): Reader | null {
  if (name === "base64") return base64Reader(args);
  if (name === "xxd") return xxdReader(args);
  // rev with files reads them, not stdin
  if (name === "rev") return args.every((a) => a === "-") ? (t) => [reverseLines(t)] : null;
  return null;
}

function base64Reader(args: string[]): Reader | null {
  let decode = false;
  let ignoreGarbage = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-d" || a === "--decode" || a === "-D") decode = true;
    else if (a === "-i" || a === "--ignore-garbage") ignoreGarbage = true;
    else if (/^-[diD]+$/.test(a)) {
      decode ||= /[dD]/.test(a);
      ignoreGarbage ||= a.includes("i");
    } else if (a === "-w" || a === "-b") i++;
    else if (/^(-w\d+|--wrap=\d+|-b\d+|--break=\d+)$/.test(a)) continue;
    else if (a !== "-") return null; // a file operand: its text is unknown here
  }
  if (!decode) return (t) => [wrap(Buffer.from(t, "utf8").toString("base64"))];
  return (t) => {
    const lenient = latin1(Buffer.from(t.replace(/[^A-Za-z0-9+/]/g, ""), "base64"));
    return ignoreGarbage ? [lenient] : [gnuBase64(t), lenient];
  };
}

/** GNU base64 -d: newlines are skipped, decoding goes on past padding, and stops at the first other character after printing what it had. */
function gnuBase64(text: string): string {
  const clean: string[] = [];
  for (const c of text) {
    if (c === "\n") continue;
    if (!/[A-Za-z0-9+/=]/.test(c)) break;
    clean.push(c);
  }
  return clean
    .join("")
    .split("=")
    .map((chunk) => latin1(Buffer.from(chunk, "base64")))
    .join("");
}

function xxdReader(args: string[]): Reader | null {
  let reverse = false;
  let plain = false;
  for (const a of args) {
    if (a === "-") continue;
    if (a === "-r" || a === "-revert") reverse = true;
    else if (a === "-p" || a === "-ps" || a === "-plain" || a === "-postscript") plain = true;
    else if (/^-[rps]+$/.test(a)) {
      reverse ||= a.includes("r");
      plain ||= a.includes("p");
    } else return null;
  }
  if (!reverse || !plain) return null;
  // xxd -r -p pairs up the hex digits and skips everything else
  return (t) => {
    const digits = t.replace(/[^0-9a-fA-F]/g, "");
    return [latin1(Buffer.from(digits.slice(0, digits.length - (digits.length % 2)), "hex"))];
  };
}

function reverseLines(text: string): string {
  return text
    .split("\n")
    .map((line) => [...line].reverse().join(""))
    .join("\n");
}

/** Decoded bytes as text: UTF-8 when they are, else one character per byte. */
function latin1(bytes: Buffer): string {
  const utf8 = bytes.toString("utf8");
  return Buffer.from(utf8, "utf8").equals(bytes) ? utf8 : bytes.toString("latin1");
}

function wrap(b64: string): string {
  return `${b64.replace(/.{76}(?=.)/g, "$&\n")}\n`;
}
