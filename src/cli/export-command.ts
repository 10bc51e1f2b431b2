// `khaelor export [session] [--format md|html|json] [-o file] [--cwd dir]`: one session to stdout or
// a file. The session is named as --resume names it (an id, a unique prefix, a .jsonl path), or is
// this project's latest when none is given (as --continue picks it).
import { resolve } from "node:path";
import { EXPORT_FORMATS, exportSession, formatFor, type ExportFormat } from "../export/export-session.ts";
import { writeExport } from "../export/write-export.ts";
import { latestSession, resolveSession, SessionNotFoundError } from "../session/store.ts";
import { NewerSessionError } from "../session/log.ts";
import { terminalWriter } from "../text/terminal-out.ts";
import { EXIT } from "../modes/shared/exit-codes.ts";

export const EXPORT_HELP = `khaelor export — a session as Markdown, one HTML page, or JSON

Usage:
  khaelor export [session] [--format md|html|json] [-o file] [--cwd dir]

  session        an id, a unique prefix of one, or a path to its .jsonl log, as --resume takes
                 them; "latest" or nothing: this project's most recent session (as --continue)
  --format, -f   md (default): turns, thinking and tool results folded in <details>
                 html: one self-contained page (inline styles, images inline, loads nothing)
                 json: the session's events
                 Without --format, -o's extension picks it (.html, .htm, .json; else md).
  -o, --output   write to this file (replaced whole, or left as it was if the write fails);
                 without it the export goes to stdout
  --cwd          the project whose sessions are meant (default: the current directory)

Secrets are redacted as in the session log.
`;

class ExportUsage extends Error {}

type Parsed = { session: string | null; format: ExportFormat | null; output: string | null; cwd: string; help: boolean };

function parse(args: string[]): Parsed {
  const p: Parsed = { session: null, format: null, output: null, cwd: process.cwd(), help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      const v = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (v === undefined || v === "") throw new ExportUsage(`${flag} needs a value`);
      return v;
    };
    if (flag === "-h" || flag === "--help") p.help = true;
    else if (flag === "-f" || flag === "--format") {
      const f = value();
      if (!(EXPORT_FORMATS as readonly string[]).includes(f)) throw new ExportUsage(`--format must be one of ${EXPORT_FORMATS.join(", ")}, got "${f}"`);
      p.format = f as ExportFormat;
    } else if (flag === "-o" || flag === "--output") p.output = value();
    else if (flag === "--cwd") p.cwd = resolve(value());
    else if (a.startsWith("-") && a !== "-") throw new ExportUsage(`unknown option ${a} (see khaelor export --help)`);
    else if (p.session !== null) throw new ExportUsage(`one session at a time: got "${p.session}" and "${a}"`);
    else p.session = a;
  }
  return p;
}

export function exportCommand(args: string[]): number {
  const err = terminalWriter(process.stderr);
  let p: Parsed;
  try {
    p = parse(args);
  } catch (e) {
    if (!(e instanceof ExportUsage)) throw e;
    err.write(`khaelor export: ${e.message}\n`);
    return EXIT.usage;
  }
  if (p.help) {
    process.stdout.write(EXPORT_HELP);
    return EXIT.ok;
  }
  let path: string;
  try {
    if (p.session === null || p.session === "latest") {
      const latest = latestSession(p.cwd);
      if (!latest) throw new SessionNotFoundError(`No sessions yet for ${p.cwd}. Name one (an id or a .jsonl path), or pass --cwd.`);
      path = latest.path;
    } else path = resolveSession(p.cwd, p.session).path;
  } catch (e) {
    if (!(e instanceof SessionNotFoundError)) throw e;
    err.write(`khaelor export: ${e.message}\n`);
    return EXIT.error;
  }
  const format = p.format ?? formatFor(p.output);
  let exported;
  try {
    exported = exportSession(path, format);
  } catch (e) {
    err.write(`khaelor export: ${e instanceof NewerSessionError ? e.message : `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`}\n`);
    return EXIT.error;
  }
  if (exported.warnings.length > 0) {
    const n = exported.warnings.length;
    err.write(`khaelor export: ${n} line${n === 1 ? "" : "s"} of the log could not be read and ${n === 1 ? "is" : "are"} left out (${exported.warnings.slice(0, 3).join("; ")}${n > 3 ? "; …" : ""})\n`);
  }
  if (p.output === null) {
    // To a terminal, controls in the conversation are shown, not obeyed; piped, the bytes are exact.
    terminalWriter(process.stdout).write(exported.text);
    return EXIT.ok;
  }
  const written = writeExport(resolve(p.cwd, p.output), exported.text);
  if (!written.ok) {
    err.write(`khaelor export: ${written.error}\n`);
    return EXIT.error;
  }
  err.write(`khaelor export: wrote ${written.path} (${format}, ${exported.turns} turn${exported.turns === 1 ? "" : "s"})\n`);
  return EXIT.ok;
}
