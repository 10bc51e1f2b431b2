// Commands that walk directories: where they start, how deep they go, what they show of what they
// find, and what they reliably leave out. The decision for a shell command compares this reach with
// the Read rules (./walk-coverage.ts), so `grep -r TOKEN .` cannot read a denied secrets/ just
// because `.` itself is allowed. Only what the command line says is used; nothing is listed. The
// shape of a walk is in ./types.ts.
import { copyWalk } from "./copy-walks.ts";
import { listingWalk } from "./listing-walks.ts";
import { searchWalk } from "./search-walks.ts";
import type { ShellWord } from "../shell/shell-words.ts";
import type { Walk } from "./types.ts";

/**
 * The walk a command makes, or null when it reads no directory tree (or is not one we know).
 * `cwd` (null when unknown) is where it runs: diff and git look at what their operands are.
 */
export function walkOf(argv: ShellWord[], cwd: string | null): Walk | null {
  const name = argv[0];
  if (!name || name.dynamic) return null;
  const args = argv.slice(1);
  // `rg --version`, `find --help`: nothing is walked
  if (args.some((w) => w.text === "--help" || w.text === "--version")) return null;
  return searchWalk(name.text, args, cwd) ?? listingWalk(name.text, args) ?? copyWalk(name.text, args);
}
