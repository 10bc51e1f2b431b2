// The plan as a Seatbelt profile for macOS's sandbox-exec. Reads are allowed but for the hidden
// places; writes only below the writable trees, less what stays read-only (a path that does not
// exist yet is covered too: Seatbelt matches names, not files); the network only to the proxy's
// loopback port (no DNS either: the proxy resolves names). This cannot run on Linux: it is tested as text (test/sandbox/seatbelt.test.ts).
import type { FsPlan } from "./fs-plan.ts";

const str = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

export function seatbeltProfile(plan: FsPlan & { protectedNames?: string[] }, opts: { proxyPort: number | null }): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork signal (target same-sandbox))",
    "(allow process-info* sysctl-read mach-lookup ipc-posix-shm iokit-open pseudo-tty)",
    "(allow file-read*)",
    "(allow file-write-data file-ioctl (literal \"/dev/null\") (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+$\") (literal \"/dev/ptmx\"))",
  ];
  if (plan.denyRead.length) lines.push(`(deny file-read* ${plan.denyRead.map((d) => `(subpath ${str(d)})`).join(" ")})`);
  if (plan.writable.length) lines.push(`(allow file-write* ${plan.writable.map((w) => `(subpath ${str(w)})`).join(" ")})`);
  const keep = [...plan.readOnly, ...plan.blockCreate, ...(plan.protectedNames ?? [])];
  if (keep.length) lines.push(`(deny file-write* ${keep.map((r) => `(subpath ${str(r)})`).join(" ")})`);
  if (opts.proxyPort !== null) lines.push(`(allow network-outbound (remote tcp "localhost:${opts.proxyPort}"))`);
  return lines.join("\n") + "\n";
}
