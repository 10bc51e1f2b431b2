// One network namespace per session, so a dev server started with the process tool is reached by
// a later `curl localhost:PORT` from bash. A holder process made by bubblewrap (--unshare-net; an
// unprivileged user gets a user namespace with it) keeps the namespace and runs the proxy relay
// (socat, 127.0.0.1:3128 inside to the proxy's unix socket) once for the session. Each confined
// command joins it with nsenter before its own bubblewrap (bwrap 0.8 has no --netns): nsenter may
// enter a user namespace our user created, and its network namespace, without any privilege.
//
// The namespaces are held by file descriptors of ours, opened while the holder is known alive and
// handed to each command as fds 3 and 4 (nsenter --net=/proc/self/fd/3): a pid cannot be reused
// under us, so a command never lands in some other process's network (the host's) by mistake.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PROXY_PORT_INSIDE } from "./bwrap.ts";

export type SessionNet = {
  /** The argv prefix that puts a command into the session's network; `fds` become the command's fds 3 (and 4). */
  enter(): { prefix: string[]; fds: number[] };
  /** The relay to the proxy listens inside (false: no proxy socket was given). */
  readonly relay: boolean;
  /** The holder still runs (its relay with it). */
  alive(): boolean;
  close(): void;
};

export type SessionNetOptions = {
  bwrap: string;
  nsenter: string;
  /** The proxy's unix socket: the relay connects to it; null: no relay, the namespace holds only loopback. */
  proxySocket: string | null;
  /** A private directory of the session's, for the holder's pid. */
  stateDir: string;
  /** How long the holder may take to start and listen (tests make it short). */
  waitMs?: number;
};

const pause = new Int32Array(new SharedArrayBuffer(4));
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Started synchronously (a command that needs it may be starting): waits at most waitMs, polling. */
export function openSessionNet(o: SessionNetOptions): SessionNet | { error: string } {
  const pidFile = join(o.stateDir, "net-holder.pid");
  const out = openSync(pidFile, "w", 0o600);
  const relay = o.proxySocket ? `socat TCP-LISTEN:${PROXY_PORT_INSIDE},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${q(o.proxySocket)}` : "sleep infinity";
  let child: ChildProcess;
  try {
    // No pid namespace: `$$` is the holder's pid as we see it. Its own session, so a Ctrl-C at the
    // terminal (print mode) does not end the session's network; stdin and stderr are /dev/null opened
    // out here (a plain bind of / has no devices). No --dev: for its devpts an
    // unprivileged bwrap nests a second user namespace, and the network one would belong to the
    // outer one, which nsenter, entering the inner, could not join.
    child = spawn(o.bwrap, ["--ro-bind", "/", "/", "--unshare-net", "--unshare-ipc", "--die-with-parent", "--", "bash", "-c", `echo $$; exec ${relay}`], { stdio: ["ignore", out, "ignore"], detached: true });
  } finally {
    closeSync(out);
  }
  child.unref();
  const deadline = Date.now() + (o.waitMs ?? 5000);
  let failed: string | null = null;
  child.once("error", (e) => (failed = e.message));
  const stop = () => {
    if (child.pid !== undefined) killQuietly(child.pid);
    rmSync(pidFile, { force: true });
  };
  let pid = 0;
  while (!pid) {
    pid = Number(readFileSync(pidFile, "utf8").trim()) || 0;
    if (pid) break;
    if (failed || child.exitCode !== null || Date.now() > deadline) {
      stop();
      return { error: `the session's network could not start (${failed ?? (child.exitCode !== null ? `bwrap exited ${child.exitCode}` : "no answer in time")})` };
    }
    Atomics.wait(pause, 0, 0, 2);
  }
  // The relay accepts before the first command asks it (read from the namespace's own /proc view).
  while (o.proxySocket && !listening(pid, PROXY_PORT_INSIDE)) {
    if (!processAlive(pid) || Date.now() > deadline) {
      stop();
      return { error: "the proxy relay (socat) did not start in the session's network" };
    }
    Atomics.wait(pause, 0, 0, 2);
  }
  let fds: number[];
  try {
    const ownUser = readlinkSync(`/proc/${pid}/ns/user`) !== readlinkSync("/proc/self/ns/user");
    fds = [openSync(`/proc/${pid}/ns/net`, "r"), ...(ownUser ? [openSync(`/proc/${pid}/ns/user`, "r")] : [])];
  } catch (e) {
    stop();
    return { error: `the session's network could not be opened (${(e as Error).message})` };
  }
  if (!processAlive(pid)) {
    for (const fd of fds) closeSync(fd);
    stop();
    return { error: "the session's network holder ended as it started" };
  }
  // The user namespace first (it owns the network one); --preserve-credentials: stay our own uid.
  const prefix = [o.nsenter, ...(fds.length > 1 ? ["--user=/proc/self/fd/4", "--preserve-credentials"] : []), "--net=/proc/self/fd/3", "--"];
  let closed = false;
  return {
    relay: o.proxySocket !== null,
    enter: () => ({ prefix, fds }),
    alive: () => !closed && processAlive(pid),
    close() {
      if (closed) return;
      closed = true;
      stop();
      for (const fd of fds) closeSync(fd);
    },
  };
}

/** Whether something listens on 127.0.0.1:port in the network namespace of `pid`. */
function listening(pid: number, port: number): boolean {
  try {
    const hex = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
    return readFileSync(`/proc/${pid}/net/tcp`, "utf8").split("\n").some((l) => l.includes(` ${hex} `) && / 0A /.test(l));
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
