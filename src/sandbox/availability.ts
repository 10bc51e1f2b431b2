// Whether the sandbox can run here, found out by running it once: bubblewrap on PATH (the user's,
// never embedded, so they see and control which one runs) that can make its namespaces, or macOS's
// sandbox-exec. What is missing is said with what to install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export type Availability =
  /** nsenter (util-linux): the session's one network namespace is joined with it; without it each command has its own. */
  | { ok: true; enforcer: "bubblewrap" | "seatbelt"; socat: boolean; nsenter?: boolean; warnings: string[] }
  | { ok: false; why: string; install: string };

const which = (name: string): string | null => Bun.which(name);

export function probeSandbox(): Availability {
  if (process.platform === "darwin") {
    return existsSync("/usr/bin/sandbox-exec") ? { ok: true, enforcer: "seatbelt", socat: false, warnings: [] } : { ok: false, why: "sandbox-exec is missing from /usr/bin", install: "sandbox-exec ships with macOS; nothing to install (is this a restricted system?)" };
  }
  if (process.platform !== "linux") return { ok: false, why: `no sandbox for ${process.platform}`, install: "the sandbox runs on Linux (bubblewrap) and macOS; on Windows run KHAELOR inside WSL2" };
  const bwrap = which("bwrap");
  if (!bwrap) return { ok: false, why: "bubblewrap (bwrap) is not on PATH", install: "install bubblewrap and socat: sudo apt-get install bubblewrap socat (Fedora: sudo dnf install bubblewrap socat)" };
  const r = spawnSync(bwrap, ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid", "--die-with-parent", "true"], { encoding: "utf8", timeout: 10_000 });
  if (r.status !== 0) {
    const said = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split("\n")[0];
    return { ok: false, why: `bubblewrap cannot make its namespaces here (${said})`, install: "turn on unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap); in a container, run it with --privileged or outside" };
  }
  const socat = which("socat") !== null;
  const nsenter = which("nsenter") !== null;
  return { ok: true, enforcer: "bubblewrap", socat, nsenter, warnings: [] };
}
