// The worst case of every pattern that runs on model input (commands, paths, tool output, the
// streamed answer), at two sizes: `ratio` is the cost at 10x the input over the cost at 1x, about
// 10 for linear work (100 would be quadratic). `before_ms_10k` is the pattern this replaced, on the
// 10 K input, where one was measured (not for the many-star rules: the regex they were, O(n^4) and
// worse, would not finish). Worst cases are the attack strings a ReDoS checker (recheck)
// reported for the old patterns.
import type { BenchResult } from "./run.ts";
import { createPermissionEngine } from "../src/permissions/index.ts";
import { forkBombText } from "../src/permissions/shell/shell-analysis.ts";
import { compileCommandPattern } from "../src/permissions/rules/command-pattern.ts";
import { compilePathPattern } from "../src/permissions/rules/path-pattern.ts";
import { compileGlob, compilePieces, fnmatchPieces } from "../src/permissions/rules/wildcard.ts";
import { printedText } from "../src/permissions/shell/printed-text.ts";
import { createTextRedactor } from "../src/session/redact.ts";
import { trimEndChars } from "../src/text/trim-chars.ts";
import { holdBack, healInline } from "../src/tui/markdown/heal.ts";
import { renderMarkdown } from "../src/tui/markdown/index.ts";
import { highlightCode } from "../src/tui/markdown/highlight/highlighter.ts";
import { parseUnifiedDiff } from "../src/tui/views/diff-view.ts";

const SMALL = 10_000;
// The redactor's shapes these rows measured before: a JWT tried at every `eyJ` of one run, and a
// private key's lazy body rescanning 16 KiB after every header without an END.
const OLD_START = String.raw`(?<=^|[^A-Za-z0-9_]|\\[nrt])`;
const OLD_JWT = new RegExp(OLD_START + String.raw`eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}`, "g");
const OLD_PRIVATE_KEY = new RegExp(OLD_START + String.raw`-----BEGIN [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,16384}?-----END [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----`, "g");

/** CPU milliseconds this process has used: the machine is shared, and wall time counts the waits for a core. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Milliseconds of CPU per run of `fn`, averaged over runs that repeat until 30 ms have passed, so a
 * sub-millisecond cost is not one reading of the clock and a GC pause (which made ratios of linear
 * work swing from 7 to 228).
 */
function perRun(fn: () => unknown): number {
  let runs = 0;
  const t0 = cpuMs();
  let spent = 0;
  do {
    fn();
    runs++;
    spent = cpuMs() - t0;
  } while (spent < 30);
  return spent / runs;
}

/** Both sizes, measured in turns (so a busy moment of the machine falls on both), the best of five each. */
function measure(small: () => unknown, large: () => unknown): [number, number] {
  let a = Infinity;
  let b = Infinity;
  for (let i = 0; i < 5; i++) {
    a = Math.min(a, perRun(small));
    b = Math.min(b, perRun(large));
  }
  return [a, b];
}

function timeOnce(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

type Case = { name: string; input: (n: number) => string; run: (s: string) => unknown; before?: (s: string) => unknown };

export async function run(_opts: { json: boolean }): Promise<BenchResult[]> {
  const trace = process.env.BENCH_TRACE === "1";
  const engine = await createPermissionEngine({ projectRoot: "/tmp", mode: "default", home: "/tmp", configHome: "/nonexistent-khaelor-bench" });
  const redact = createTextRedactor({});
  const anchors = { root: "/work/project", home: "/home/u" };
  const cases: Case[] = [
    { name: "fork-bomb text check, one long word", input: (n) => "A".repeat(n), run: forkBombText, before: (s) => /(\S+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(s) },
    { name: "fork-bomb text check, (){ heads", input: (n) => "f(){ ".repeat(n / 5), run: forkBombText },
    {
      name: "bash decision, echo <base64> | base64 -d > logo.png",
      input: (n) => `echo ${"QUJD".repeat(n / 4)} | base64 -d > logo.png`,
      run: (s) => engine.decide({ tool: "bash", input: { command: s }, cwd: "/tmp" }),
    },
    { name: "Bash(*a*a*a*a*b) rule on a long command", input: (n) => "a".repeat(n), run: (s) => compileCommandPattern("*a*a*a*a*b")(s) },
    { name: "Read(secrets/**) rule on a path of many segments", input: (n) => "/a".repeat(n / 2), run: (s) => compilePathPattern("secrets/**", anchors)(s) },
    { name: "name glob *a*a*a*b", input: (n) => "a".repeat(n), run: (s) => compileGlob("*a*a*a*b")(s) },
    { name: "find -path fnmatch *a*a*a*b", input: (n) => "a".repeat(n), run: (s) => compilePieces(fnmatchPieces("*a*a*a*b"))(s) },
    { name: "trailing slashes trim", input: (n) => "/".repeat(n) + "x", run: (s) => trimEndChars(s, "/"), before: (s) => s.replace(/\/+$/, "") },
    { name: "printf directive %000…", input: (n) => "%" + "0".repeat(n), run: (s) => printedText(["printf", s], null), before: (s) => /^%([-+ #0]*)(\d+|\*)?(?:\.(\d*|\*))?([sbqcdiu%])/.test(s) },
    { name: "redactor: URL-password shape (A+A+…)", input: (n) => "A+".repeat(n / 2), run: redact, before: (s) => s.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"\\]+:)([^\s@/"\\]+)(@)/gi, "$1x$3") },
    { name: "redactor: JWT heads (eyJ-eyJ-…)", input: (n) => "eyJ-".repeat(n / 4), run: redact, before: (s) => s.replace(OLD_JWT, "x") },
    { name: "redactor: JWT segments chained (eyJaaaaaaaa.eyJaaaaaaaa.…)", input: (n) => "eyJaaaaaaaa.".repeat(n / 12), run: redact },
    { name: "redactor: private key BEGIN without END", input: (n) => "-----BEGIN RSA PRIVATE KEY-----\n".repeat(n / 32), run: redact, before: (s) => s.replace(OLD_PRIVATE_KEY, "x") },
    { name: "redactor: private key header, then a body with no END", input: (n) => "-----BEGIN RSA PRIVATE KEY-----\n" + "A".repeat(n), run: redact },
    { name: "redactor: private key header, then key lines with no END", input: (n) => "-----BEGIN RSA PRIVATE KEY-----" + "\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".repeat(n / 65), run: redact },
    { name: "redactor: secret assignments (password=…)", input: (n) => "password=".repeat(n / 9), run: redact },
    { name: "redactor: env-like output", input: (n) => "API_TOKEN=abc123def456ghi789 HOME=/home/u\n".repeat(n / 42), run: redact },
    {
      name: "markdown hold-back: table delimiter row (|:|-…)",
      input: (n) => "|-" + "|:|-".repeat(n / 4) + "\u0000",
      run: (s) => holdBack(s, { inFence: false, paragraphLastLineHasPipe: true }),
    },
    { name: "markdown hold-back: fence ~~~~…", input: (n) => "~~~" + "~".repeat(n) + "`", run: (s) => holdBack(s, { inFence: false, paragraphLastLineHasPipe: false }) },
    { name: "markdown hold-back: * and tabs", input: (n) => "*" + "\t".repeat(n) + "x", run: (s) => holdBack(s, { inFence: false, paragraphLastLineHasPipe: false }) },
    { name: "markdown heal: half links ([([…)", input: (n) => "([".repeat(n / 2), run: (s) => healInline(s, new Map()) },
    // The highlighter's lexers, on lines built to make a scanner look ahead again and again.
    { name: "highlight ts: unclosed regex classes (x = /[…)", input: (n) => "x = /[".repeat(n / 6), run: (s) => highlightCode("typescript", s) },
    { name: "highlight ts: template interpolations (`${`${…)", input: (n) => "`${".repeat(n / 3), run: (s) => highlightCode("typescript", s) },
    { name: "highlight ts: ordinary code", input: (n) => 'const a = f(x.y, "s", 1.5e3); '.repeat(n / 30), run: (s) => highlightCode("typescript", s) },
    { name: "highlight css: declarations (a:b;…)", input: (n) => "a:b;".repeat(n / 4), run: (s) => highlightCode("css", s) },
    { name: "highlight css: selectors before one brace", input: (n) => "a ".repeat(n / 2) + "{", run: (s) => highlightCode("css", s) },
    { name: "highlight yaml: colons without spaces (a:b…)", input: (n) => "a:b".repeat(n / 3), run: (s) => highlightCode("yaml", s) },
    { name: "highlight bash: heredocs and $vars (x <<A $y …)", input: (n) => "x <<A $y ".repeat(n / 10), run: (s) => highlightCode("bash", s) },
    { name: "highlight c: # runs", input: (n) => "#".repeat(n), run: (s) => highlightCode("cpp", s) },
    { name: "highlight python: escapes in a string", input: (n) => '"' + "\\x".repeat(n / 2), run: (s) => highlightCode("python", s) },
    { name: "highlight rust: quotes (\'a\'…)", input: (n) => "'a".repeat(n / 2), run: (s) => highlightCode("rust", s) },
    { name: "highlight ruby: ?' after a name (x ?'…)", input: (n) => "x ?'".repeat(n / 4), run: (s) => highlightCode("ruby", s) },
    { name: "highlight ruby: unclosed regex classes (puts /[…)", input: (n) => "puts /[".repeat(n / 7), run: (s) => highlightCode("ruby", s) },
    { name: "highlight ruby: nested %q( (%q(%q(…)", input: (n) => "%q(".repeat(n / 3), run: (s) => highlightCode("ruby", s) },
    { name: "highlight ruby: division after names (t /1 …)", input: (n) => "t /1 ".repeat(n / 5), run: (s) => highlightCode("ruby", s) },
    { name: "markdown: ``` fence of backticks", input: (n) => "`".repeat(n) + "\n", run: (s) => renderMarkdown(s, { width: 80, links: true }) },
    { name: "markdown: heading with tab run", input: (n) => "# a" + "\t".repeat(n) + "#\tx\n", run: (s) => renderMarkdown(s, { width: 80, links: true }) },
    { name: "diff header +++ with tabs", input: (n) => "+++ +" + "\t".repeat(n) + "\n", run: (s) => parseUnifiedDiff(s) },
  ];
  const out: BenchResult[] = [];
  for (const c of cases) {
    const small = c.input(SMALL);
    const large = c.input(SMALL * 10);
    if (trace) console.error("start", c.name);
    const [a, b] = measure(() => c.run(small), () => c.run(large));
    if (trace) console.error("  ", a, b);
    const row: BenchResult = { name: `pattern: ${c.name}`, ms_10k: +a.toFixed(3), ms_100k: +b.toFixed(3), ratio: +(b / Math.max(a, 0.0001)).toFixed(1) };
    if (c.before) row.before_ms_10k = +timeOnce(() => c.before!(small)).toFixed(1);
    out.push(row);
  }
  return out;
}
