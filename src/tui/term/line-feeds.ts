// A tty in raw mode as Node and Bun set it (libuv's UV_TTY_MODE_RAW) still has ONLCR: every LF the
// screen writes leaves the tty as CR LF. The screen never relies on that (it writes CR itself where
// it needs column 0), so the CR is a byte per line on the wire for nothing: over SSH, 7% of what a
// streamed answer costs. Turned off here, after each switch to raw mode (libuv sets ONLCR again
// every time); leaving raw mode restores the tty's own settings, ONLCR included.
import { spawnSync } from "node:child_process";

/** Stops the tty on `stdin` from turning LF into CR LF; best effort (no stty: nothing changes). */
export function plainLineFeeds(stdin: { isTTY?: boolean }): void {
  if (!stdin.isTTY || process.platform === "win32") return;
  try {
    spawnSync("stty", ["-onlcr"], { stdio: ["inherit", "ignore", "ignore"], timeout: 1000 });
  } catch {
    /* the CR stays: correct, a byte per line dearer */
  }
}
