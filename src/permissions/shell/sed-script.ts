// Whether a sed invocation only edits the files it names: acceptEdits runs `sed -i` inside the
// project, but a sed script can also write other files (`w file`, `s///w file`), read them (`r`),
// or run commands (GNU's `e`, `s///e`). Only scripts without those run unasked.

/** The file operands of a sed whose scripts are plain edits, or null (a script file, an unknown option, a command that writes, reads or runs). */
export function plainSedFiles(args: string[]): string[] | null {
  const scripts: string[] = [];
  const files: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (options && a === "--") {
      options = false;
      continue;
    }
    if (options && a.startsWith("-") && a.length > 1) {
      if (a === "-e" || a === "--expression") scripts.push(args[++i] ?? "");
      else if (a.startsWith("--expression=")) scripts.push(a.slice(13));
      else if (a === "-l" || a === "--line-length") i++;
      else if (!/^(-[nEsuzr]+|-i.*|--in-place(=.*)?|--regexp-extended|--quiet|--silent|--separate|--posix|--null-data|--unbuffered|--line-length=\d+|-l\d+)$/.test(a)) return null;
      continue;
    }
    files.push(a);
  }
  if (scripts.length === 0) {
    const script = files.shift();
    if (script === undefined) return null;
    scripts.push(script);
  }
  return scripts.every(isPlainScript) ? files : null;
}

const SAFE_COMMANDS = new Set([..."dDpPnNgGhHxlq=QzF{}"]);

function isPlainScript(script: string): boolean {
  let i = 0;
  const n = script.length;
  const skipDelimited = (delim: string, parts: number): boolean => {
    for (let k = 0; k < parts; k++) {
      while (i < n && script[i] !== delim) i += script[i] === "\\" ? 2 : 1;
      if (i >= n) return false;
      i++;
    }
    return true;
  };
  while (i < n) {
    const c = script[i] as string;
    if (/[\s;]/.test(c) || c === "!" || c === ",") {
      i++;
      continue;
    }
    // addresses: line numbers, $, first~step, +N, /regex/ or \cregexc
    if (/[0-9$~+]/.test(c)) {
      i++;
      continue;
    }
    if (c === "/" || c === "\\") {
      const delim = c === "/" ? "/" : (script[i + 1] ?? "");
      i += c === "/" ? 1 : 2;
      if (!skipDelimited(delim, 1)) return false;
      while (/[IM]/.test(script[i] ?? "")) i++;
      continue;
    }
    if (c === "s" || c === "y") {
      const delim = script[i + 1];
      if (!delim || /[\s\\\n]/.test(delim)) return false;
      i += 2;
      if (!skipDelimited(delim, 2)) return false;
      const flags = /^[gpiImM0-9ew]*/.exec(script.slice(i))?.[0] ?? "";
      if (c === "s" && /[ew]/.test(flags)) return false;
      i += flags.length;
      continue;
    }
    if (c === "a" || c === "i" || c === "c") {
      // text to the end of the line
      const nl = script.indexOf("\n", i);
      i = nl === -1 ? n : nl + 1;
      continue;
    }
    if (c === "b" || c === "t" || c === "T" || c === ":") {
      while (i < n && script[i] !== ";" && script[i] !== "\n") i++;
      continue;
    }
    if (!SAFE_COMMANDS.has(c)) return false; // e, w, W, r, R, and anything not known
    i++;
  }
  return true;
}
