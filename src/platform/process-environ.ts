// Whether a running process's environment holds an entry, to tell our own process groups from a
// stranger's that took a reused pid. Linux has it in /proc/<pid>/environ; macOS has no /proc, and
// ps shows it there with -E. (procps' ps on Linux spells the same thing `e`; that branch is how
// the ps path is exercised on Linux.) null: the environment could not be read, or ps did not show it.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

export type EnvironSource = "proc" | "ps";

export const environSource = (platform: NodeJS.Platform = process.platform): EnvironSource => (platform === "linux" ? "proc" : "ps");

/** ps's arguments for one process's command line followed by its environment. */
export function psEnvironArgs(pid: number, platform: NodeJS.Platform = process.platform): string[] {
  // BSD ps (macOS) reads a dashless `e` as -e, every process: the environment is -E there.
  const show = platform === "darwin" ? ["-E", "-ww"] : ["eww"];
  return [...show, "-o", "command=", "-p", String(pid)];
}

export function environHas(pid: number, entry: string, source: EnvironSource = environSource()): boolean | null {
  if (source === "proc") {
    try {
      return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(entry);
    } catch {
      return null; // gone, or not ours to read
    }
  }
  const ps = spawnSync("ps", psEnvironArgs(pid), { encoding: "utf8", timeout: 2000 });
  // ps joins the command line and the environment with spaces, so only an entry without spaces
  // can be found (a mark such as KHAELOR_SESSION_ID=<uuid> is one). It silently leaves out the
  // environment of a process it may not read, so not finding the entry proves nothing.
  return ps.status === 0 && ps.stdout.split(/\s+/).includes(entry) ? true : null;
}
