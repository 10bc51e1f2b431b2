// The plan as bubblewrap's arguments. Mounts apply in order, so the later, narrower ones win: the
// whole system read-only, then the writable trees, then what stays read-only inside them, then what
// is hidden. The network is the session's namespace (./netns.ts: one for all its commands, only
// loopback in it, the relay to the proxy on 127.0.0.1:3128), joined before bwrap starts; where it
// cannot be had, a namespace of the command's own, with the relay started inside it.
//
// --die-with-parent ties the sandbox to KHAELOR (bwrap's parent is always KHAELOR itself: the bash
// tool and the process tool spawn bwrap directly, never through a shell that exits), so a dev server
// started with the process tool lives across later commands and ends with the session.
import { statSync } from "node:fs";
import type { FsPlan } from "./fs-plan.ts";

export const PROXY_PORT_INSIDE = 3128;

export type BwrapOptions = {
  /** The command's own network namespace (no session one), with the proxy's unix socket bound in (null: no network at all). */
  ownNetwork: { proxySocket: string | null } | null;
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
  if (opts.ownNetwork?.proxySocket) a.push("--ro-bind", opts.ownNetwork.proxySocket, opts.ownNetwork.proxySocket);
  if (opts.ownNetwork) a.push("--unshare-net");
  a.push("--unshare-pid", "--unshare-ipc", "--die-with-parent");
  if (!opts.pty) a.push("--new-session");
  a.push("--chdir", opts.cwd, "--");
  return a;
}

export type InnerOptions = {
  /** A relay of the command's own to start first (no session network): the proxy's unix socket. */
  relaySocket: string | null;
  /** Where to leave a mark when the command left processes running (the namespace ends them with it); null: exec the command. */
  leftFile: string | null;
  /** Descriptors nsenter needed and the command must not keep. */
  closeFds: number[];
};

/**
 * The shell line that runs `script` inside. With a relay of its own, the relay starts first and the
 * script waits (at most ~2 s) until it accepts. With `leftFile` the script runs as a child, so the
 * line can look afterwards at what the command left in its pid namespace (the kernel ends all of it
 * when bwrap's init goes, silently): the bash tool says "were stopped", as it does unconfined.
 */
export function innerCommand(script: string, o: InnerOptions): string[] {
  const lines: string[] = [];
  if (o.closeFds.length) lines.push(`exec ${o.closeFds.map((fd) => `${fd}<&-`).join(" ")}`);
  if (o.relaySocket) {
    // A clean environment: the relay carries no call mark, so it is not taken for a daemon the command left.
    lines.push(`env -i socat TCP-LISTEN:${PROXY_PORT_INSIDE},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${q(o.relaySocket)} </dev/null >/dev/null 2>&1 &`);
    lines.push(`for __k in $(seq 200); do (: <>/dev/tcp/127.0.0.1/${PROXY_PORT_INSIDE}) 2>/dev/null && break; sleep 0.01; done; unset __k`);
  }
  if (lines.length === 0 && o.leftFile === null) return ["bash", "-c", script];
  if (o.leftFile === null) lines.push(`exec bash -c ${q(script)}`);
  else {
    // pid 1 is bwrap's init, $$ this line; the relay (if any) is ours, not the command's. Zombies are gone already.
    const relayPid = o.relaySocket ? "$__relay" : "0";
    if (o.relaySocket) lines.splice(lines.length - 1, 0, "__relay=$!");
    lines.push(`bash -c ${q(script)}`, "__ec=$?");
    // After the command's name: the state, then the parent (the relay's children serve its connections).
    lines.push(`for __p in /proc/[0-9]*; do __n=\${__p#/proc/}; [ "$__n" = 1 ] || [ "$__n" = $$ ] || [ "$__n" = ${relayPid} ] && continue; read -r __s < "$__p/stat" 2>/dev/null || continue; __s=\${__s##*) }; __pp=\${__s#* }; [ "\${__s%% *}" = Z ] || [ "\${__pp%% *}" = ${relayPid} ] && continue; : > ${q(o.leftFile)}; break; done`);
    lines.push("exit $__ec");
  }
  return ["bash", "-c", lines.join("\n")];
}

/** What a command inside reads to find the proxy. `ownLoopback`: loopback is the session's own (its servers), reached directly. */
export function proxyEnv(port: number, ownLoopback: boolean): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {};
  for (const k of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"]) env[k] = url;
  env.NO_PROXY = env.no_proxy = ownLoopback ? "localhost,127.0.0.1,::1" : "";
  return env;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
