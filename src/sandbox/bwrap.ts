// The plan as bubblewrap's arguments. Mounts apply in order, so the later, narrower ones win: the
// whole system read-only, then the writable trees, then what stays read-only inside them, then what
// is hidden. The network is a namespace of its own with only loopback in it; when domains are
// allowed, socat inside relays 127.0.0.1:3128 to the proxy's unix socket, bound in.
//
// --die-with-parent ties the sandbox to KHAELOR (bwrap's parent is always KHAELOR itself: the bash
// tool and the process tool spawn bwrap directly, never through a shell that exits), so a dev server
// started with the process tool lives across later commands and ends with the session.
import { statSync } from "node:fs";
import type { FsPlan } from "./fs-plan.ts";

export const PROXY_PORT_INSIDE = 3128;

export type BwrapOptions = {
  /** The proxy's unix socket, bound in; null: no network at all. */
  proxySocket: string | null;
  /** The process tool's pseudo-terminal: the command keeps it as its controlling terminal (no --new-session). */
  pty: boolean;
  cwd: string;
  /** An empty directory of ours, mounted read-only over protected paths that do not exist yet. */
  emptyDir: string;
};

export function bwrapArgs(plan: FsPlan, opts: BwrapOptions): string[] {
  const a = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const w of plan.writable) a.push(w === "/dev/shm" ? "--dev-bind" : "--bind", w, w);
  for (const r of plan.readOnly) a.push("--ro-bind", r, r);
  // An empty read-only directory, not /dev/null: git ignores it (`git add -A` fails on a device
  // file), and nothing can be created in it or written over it.
  for (const b of plan.blockCreate) a.push("--ro-bind", opts.emptyDir, b);
  for (const d of plan.denyRead) {
    if (isDir(d)) a.push("--tmpfs", d, "--remount-ro", d);
    else a.push("--ro-bind", "/dev/null", d);
  }
  if (opts.proxySocket) a.push("--ro-bind", opts.proxySocket, opts.proxySocket);
  a.push("--unshare-net", "--unshare-pid", "--unshare-ipc", "--die-with-parent");
  if (!opts.pty) a.push("--new-session");
  a.push("--chdir", opts.cwd, "--");
  return a;
}

/**
 * The shell line that runs `script` inside: with a proxy, the relay starts first and the script
 * waits (at most ~2 s) until it accepts, so the first request never meets a closed port.
 */
export function innerCommand(script: string, proxySocket: string | null): string[] {
  if (!proxySocket) return ["bash", "-c", script];
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  // A clean environment: the relay carries no call mark, so it is not taken for a daemon the command
  // left (the namespace ends it with the command).
  const relay = `env -i socat TCP-LISTEN:${PROXY_PORT_INSIDE},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${q(proxySocket)} </dev/null >/dev/null 2>&1 &`;
  const wait = `for __k in $(seq 200); do (: <>/dev/tcp/127.0.0.1/${PROXY_PORT_INSIDE}) 2>/dev/null && break; sleep 0.01; done; unset __k`;
  return ["bash", "-c", `${relay}\n${wait}\nexec bash -c ${q(script)}`];
}

/** What a command inside reads to find the proxy. */
export function proxyEnv(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {};
  for (const k of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"]) env[k] = url;
  env.NO_PROXY = "";
  env.no_proxy = "";
  return env;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
