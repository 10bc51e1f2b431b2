// Where a shell command ended up: the bash tool's cwd carries over from call to call (and a `!`
// command's for the user), so a `cd` lasts. An EXIT trap writes `pwd -P` to a file of ours, read
// back once the command is over.
import { lstatSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRegularText } from "../workspace/safe-read.ts";

export const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
let seq = 0;

/**
 * Where the shell leaves its final directory: a 0700 directory of this process with a random name
 * (mkdtemp). A predictable name in the shared $TMPDIR let another local user plant the file and move
 * the agent into a folder of theirs.
 */
let privateDir: string | null = null;
function cwdDir(): string {
  if (privateDir === null || !ownPrivateDir(privateDir)) {
    privateDir = mkdtempSync(join(tmpdir(), "khaelor-"));
    const made = privateDir;
    process.once("exit", () => rmSync(made, { recursive: true, force: true }));
  }
  return privateDir;
}

function ownPrivateDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** The directory the shell wrote, trusted only as a regular file of ours naming an existing directory. */
function readCwdFile(file: string): string | null {
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.uid !== process.getuid?.() || st.size > 16_384) return null;
    const dir = readRegularText(file, 16_384).replace(/\n$/, "");
    return dir.startsWith("/") && !dir.includes("\n") && statSync(dir).isDirectory() ? dir : null;
  } catch {
    return null;
  } finally {
    rmSync(file, { force: true });
  }
}

/** `command` as a script that records where it ended up; `finalCwd()` (once it has run) reads that, once. */
export function trackCwd(command: string): { script: string; finalCwd(): string | null } {
  const cwdFile = join(cwdDir(), `cwd-${++seq}`);
  rmSync(cwdFile, { force: true });
  // The EXIT trap records where the command ended up, even after an explicit `exit N`.
  // The trap's body is quoted whole, so a TMPDIR with a space in it (or a quote) cannot split it.
  const script = `trap ${shQuote(`__khaelor_ec=$?; pwd -P > ${shQuote(cwdFile)} 2>/dev/null; exit $__khaelor_ec`)} EXIT\n${command}`;
  return { script, finalCwd: () => readCwdFile(cwdFile) };
}
