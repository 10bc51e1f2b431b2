// What the sandbox blocked, read back from a finished command: writes that met a read-only file
// system, reads of hidden places, and hosts the proxy refused (or, with no proxy, names that could
// not be resolved). Each becomes one line for the model, and the first write and host become the
// app's offer to allow them for the session.
import { relative, resolve } from "node:path";
import { inside, type FsPlan } from "./fs-plan.ts";

export type Blocked = { notes: string[]; offer: { write?: string; domain?: string } | null };

const READ_ONLY = [/(?:^|[\s'"‘`])([^\s'"’`:]+)['"’`]?: Read-only file system/gm, /Read-only file system: ['"]([^'"\n]+)['"]/g, /EROFS[^\n]*?['"]([^'"\n]+)['"]/g];
const NO_HOST = [/Could not resolve host: ([A-Za-z0-9.-]+)/g, /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([A-Za-z0-9.-]+)/g, /Failed to resolve '([A-Za-z0-9.-]+)'/g];

export function explainBlocked(output: string, o: { plan: FsPlan; home: string; root: string; cwd: string; deniedHosts: string[]; networkOpen: boolean }): Blocked {
  const notes: string[] = [];
  const offer: { write?: string; domain?: string } = {};
  const show = (p: string) => (inside(o.root, p) ? relative(o.root, p) || "." : inside(o.home, p) ? `~/${relative(o.home, p)}` : p);
  const writes = new Set<string>();
  for (const re of READ_ONLY) for (const m of output.matchAll(re)) if (m[1]) writes.add(resolve(o.cwd, m[1].replace(/^~(?=\/)/, o.home)));
  for (const w of writes) {
    const kept = [...o.plan.readOnly, ...o.plan.blockCreate].some((r) => inside(r, w));
    notes.push(`blocked by the sandbox: write to ${show(w)}${kept ? " (protected: it would run or widen permissions later)" : " (outside the project's writable places)"}`);
    if (!kept) offer.write ??= w;
  }
  // A protected path that did not exist is an empty read-only directory inside: writes to it fail otherwise.
  for (const b of o.plan.blockCreate) {
    const named = [b, show(b)];
    if (output.split("\n").some((l) => named.some((n) => l.includes(n)) && /Is a directory|Read-only file system|Not a directory|Permission denied/.test(l)) && ![...writes].some((w) => inside(b, w))) {
      notes.push(`blocked by the sandbox: write to ${show(b)} (protected: it would run or widen permissions later)`);
    }
  }
  const reads = new Set<string>();
  for (const d of o.plan.denyRead) if (output.includes(d) || output.includes(show(d))) reads.add(d);
  for (const r of reads) notes.push(`blocked by the sandbox: read of ${show(r)} (hidden inside the sandbox)`);
  const hosts = new Set(o.deniedHosts);
  if (!o.networkOpen) for (const re of NO_HOST) for (const m of output.matchAll(re)) if (m[1]) hosts.add(m[1]);
  for (const h of hosts) {
    notes.push(`blocked by the sandbox: network to ${h} (not in sandbox.network.allowedDomains)`);
    offer.domain ??= h;
  }
  if (notes.length > 0) notes.push("a command the sandbox blocks can be run outside it with dangerouslyDisableSandbox: true, which asks the user");
  return { notes, offer: offer.write || offer.domain ? offer : null };
}
