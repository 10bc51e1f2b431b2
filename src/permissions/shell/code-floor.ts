// One-line interpreter programs (`python -c`, `perl -e`, `node -e`, `ruby -e`, `php -r`, or the
// same fed by a heredoc) read for what the hardline floor refuses: a recursive deletion, chmod or
// chown of /, the home directory, the project root or a system directory (`shutil.rmtree("/")`,
// `FileUtils.rm_rf(Dir.home)`, `fs.rmSync(os.homedir(), {recursive: true})`), a block device named
// anywhere (`open("/dev/sda", "wb")`), and shell commands the program runs (`os.system("rm -rf ~")`,
// `subprocess.run(["rm", "-rf", "/"])`, Perl's and Ruby's backticks), which shell analysis reads
// as scripts of their own. This is a scan of the text, not a parser: what it cannot name (a path
// computed at run time) is left to the ask every inline program gets outside bypass.
import { resolve } from "node:path";
import { isAncestorOrSelf, isBlockDevice } from "../paths/path-facts.ts";

export type CodeAnchors = { root: string; home: string };

const SYSTEM_DIRS = new Set([
  "/etc", "/usr", "/bin", "/sbin", "/boot", "/var", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/root", "/home", "/srv",
  "/sys", "/proc", "/dev", "/snap", "/System", "/Library", "/Applications", "/Users", "/private", "/Volumes",
]);

/** Calls that delete a tree, whatever their options. */
const TREE_DELETE = /^(rmtree|rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|remove_tree|rimraf|rimrafSync|removeSync|emptyDirSync|emptyDir)$/;
/** Node's deletions, recursive only with `recursive: true`. */
const NODE_DELETE = /^(rmSync|rmdirSync|rm|rmdir)$/;
const PERMISSIONS = /^(chmod|chown|lchown|lchmod|chmodSync|chownSync|lchownSync|chmod_R|chown_R|chgrp)$/;
/** Calls whose string arguments are a shell command or an argv. */
const RUNS = /^(system|popen|popen2|popen3|exec|execSync|execFileSync|execFile|spawn|spawnSync|run|call|check_call|check_output|getoutput|getstatusoutput|Popen|shell_exec|passthru|proc_open|pcntl_exec|execv|execvp|execve|execl|execlp|capture2|capture2e|capture3)$/;
const CALL = /\b([A-Za-z_]\w*)\s*(\(|[ \t]+(?=["'$\w[]))/g;
/** Expressions that are the home directory in Python, Node, Perl, Ruby and PHP. */
const HOME_EXPR = /Path\.home\(\)|homedir\(\)|Dir\.home|process\.env(?:\.HOME\b|\[\s*["']HOME["']\s*\])|environ(?:\.get\(\s*|\[\s*)["']HOME["']|getenv\(\s*["']HOME["']|\$ENV\{\s*["']?HOME["']?\s*\}|ENV(?:\[\s*|\.fetch\(\s*)["']HOME["']|\$_SERVER\[\s*["']HOME["']\s*\]/;

type Literal = { value: string; start: number; end: number; runs: boolean };
type Scan = { code: string; masked: string; literals: Literal[]; consts: Map<string, string> };

/** Why this program is refused outright, or null. `cwd` null: relative paths are not judged. */
export function codeFloorReason(interpreter: string, code: string, cwd: string | null, anchors: CodeAnchors): string | null {
  const scan = scanCode(interpreter, code);
  for (const l of scan.literals) {
    const path = l.value.replace(/^[+<>|&\s]+/, "").trim();
    if (path.startsWith("/dev/") && isBlockDevice(path)) return `hardline floor (block device): ${interpreter} code names the block device ${path}; it is never allowed`;
  }
  for (const call of calls(scan)) {
    const deletes = TREE_DELETE.test(call.name) || (NODE_DELETE.test(call.name) && /recursive\s*:\s*true/.test(call.args));
    const perms = PERMISSIONS.test(call.name);
    if (!deletes && !perms) continue;
    for (const value of call.values) {
      const target = floorTarget(value, cwd, anchors);
      if (!target) continue;
      const what = deletes ? "recursive deletion" : "permissions of a system place";
      const verb = deletes ? "deletes" : call.name.includes("own") || call.name === "chgrp" ? "changes the owner of" : "changes the permissions of";
      return `hardline floor (${what}): ${interpreter} code ${verb} ${target} (${call.name}); it is /, your home, the project or a system directory, and is never allowed`;
    }
  }
  return null;
}

/** Shell commands the program runs, as texts to read as scripts: `os.system("...")`, an argv list, backticks. */
export function shellCommandsIn(interpreter: string, code: string, home: string): string[] {
  const scan = scanCode(interpreter, code);
  const out: string[] = scan.literals.filter((l) => l.runs).map((l) => l.value);
  for (const call of calls(scan, home)) {
    if (!RUNS.test(call.name) || call.values.length === 0) continue;
    out.push(...call.values);
    if (call.values.length > 1) out.push(call.values.map(shellQuote).join(" "));
  }
  return [...new Set(out)].filter((t) => t.length <= 4096).slice(0, 32);
}

function floorTarget(value: string, cwd: string | null, anchors: CodeAnchors): string | null {
  let p = value.trim();
  if (p === "") return null;
  if (p === "~" || p.startsWith("~/")) p = anchors.home + p.slice(1);
  if (!p.startsWith("/")) {
    if (cwd === null) return null;
    p = resolve(cwd, p);
  }
  const abs = resolve(p);
  const floor = abs === "/" || SYSTEM_DIRS.has(abs) || isAncestorOrSelf(abs, anchors.home) || isAncestorOrSelf(abs, anchors.root);
  return floor ? value : null;
}

type Call = { name: string; args: string; values: string[] };

/** Each call in the code with its argument text and the values it names: literals, constants, the home directory. */
function calls(scan: Scan, home?: string): Call[] {
  const out: Call[] = [];
  for (const m of scan.masked.matchAll(CALL)) {
    const name = m[1] as string;
    if (!TREE_DELETE.test(name) && !NODE_DELETE.test(name) && !PERMISSIONS.test(name) && !RUNS.test(name)) continue;
    const from = (m.index as number) + m[0].length;
    const end = m[2] === "(" ? closing(scan.masked, from) : statementEnd(scan.masked, from);
    // a method on a path object names its target before the call: `Pathname.new("/").rmtree`
    const receiverFrom = Math.max(scan.masked.lastIndexOf(";", m.index), scan.masked.lastIndexOf("\n", m.index), scan.masked.lastIndexOf("=", m.index)) + 1;
    const pieces = [...splitTopLevel(scan, from, end), { start: receiverFrom, end: m.index as number }];
    const values: string[] = [];
    for (const piece of pieces) values.push(...pieceValues(scan, piece.start, piece.end, home));
    out.push({ name, args: scan.code.slice(from, end), values });
  }
  return out;
}

function pieceValues(scan: Scan, start: number, end: number, home?: string): string[] {
  const text = scan.code.slice(start, end);
  const values = scan.literals.filter((l) => l.start >= start && l.end <= end && !/^HOME$/.test(l.value)).map((l) => l.value);
  if (HOME_EXPR.test(text)) values.push(home ?? "~");
  const ident = /^\s*(\$?[A-Za-z_]\w*)\s*$/.exec(scan.masked.slice(start, end))?.[1];
  const constant = ident ? scan.consts.get(ident) : undefined;
  if (constant !== undefined) values.push(constant);
  return values;
}

function splitTopLevel(scan: Scan, start: number, end: number): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let depth = 0;
  let from = start;
  for (let i = start; i < end; i++) {
    const c = scan.masked[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push({ start: from, end: i });
      from = i + 1;
    }
  }
  out.push({ start: from, end });
  return out;
}

function closing(masked: string, from: number): number {
  let depth = 1;
  for (let i = from; i < masked.length; i++) {
    if (masked[i] === "(") depth++;
    else if (masked[i] === ")" && --depth === 0) return i;
  }
  return masked.length;
}

function statementEnd(masked: string, from: number): number {
  const m = /[;\n}]|\b(?:or|and|if|unless)\b/.exec(masked.slice(from));
  return m ? from + m.index : masked.length;
}

/** String literals (with the usual escapes decoded), a copy of the code with their insides blanked, and `name = "literal"` constants. */
function scanCode(interpreter: string, code: string): Scan {
  const literals: Literal[] = [];
  const backtickRuns = /^(perl|ruby|php)/.test(interpreter);
  const hashComments = /^(python|pypy|perl|ruby|php)/.test(interpreter);
  const slashComments = /^(node|nodejs|php|bun|deno)/.test(interpreter);
  let masked = "";
  let i = 0;
  while (i < code.length) {
    const c = code[i] as string;
    if ((hashComments && c === "#" && !/[$\w{]/.test(code[i - 1] ?? "")) || (slashComments && c === "/" && code[i + 1] === "/")) {
      const nl = code.indexOf("\n", i);
      const stop = nl === -1 ? code.length : nl;
      masked += " ".repeat(stop - i);
      i = stop;
      continue;
    }
    const quoteLike = /^(qx|qq|q|%[xqQ])([^\w\s])/.exec(code.slice(i, i + 3));
    const form = quoteLike?.[1] ?? "";
    const opens = ((interpreter.startsWith("perl") && form.startsWith("q")) || (interpreter.startsWith("ruby") && form.startsWith("%"))) && !/\w/.test(code[i - 1] ?? "");
    if (opens || c === "'" || c === '"' || c === "`") {
      const prefix = opens ? (quoteLike as RegExpExecArray)[1]! : "";
      const open = opens ? (quoteLike as RegExpExecArray)[2]! : c;
      const close = ({ "(": ")", "[": "]", "{": "}", "<": ">" } as Record<string, string>)[open] ?? open;
      const triple = !opens && code.startsWith(open.repeat(3), i) && open !== "`";
      const delim = triple ? open.repeat(3) : close;
      const start = i + prefix.length + (triple ? 3 : 1);
      let j = start;
      while (j < code.length && !code.startsWith(delim, j)) j += code[j] === "\\" ? 2 : 1;
      const raw = code.slice(start, Math.min(j, code.length));
      const runs = prefix === "qx" || prefix === "%x" || (open === "`" && !opens && backtickRuns);
      literals.push({ value: unescape(raw), start: i, end: Math.min(j + delim.length, code.length), runs });
      masked += code.slice(i, start) + " ".repeat(raw.length) + code.slice(j, j + delim.length);
      i = j + delim.length;
      continue;
    }
    masked += c;
    i++;
  }
  const consts = new Map<string, string>();
  for (const l of literals) {
    const before = /(\$?[A-Za-z_]\w*)\s*=\s*$/.exec(masked.slice(Math.max(0, l.start - 60), l.start));
    if (before) consts.set(before[1] as string, l.value);
  }
  return { code, masked, literals, consts };
}

function unescape(raw: string): string {
  return raw.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/gs, (_, e: string) => {
    if (e.startsWith("x")) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: "\n", t: "\t", r: "\r" } as Record<string, string>)[e] ?? e;
  });
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
