// /sandbox: the sandbox in force, in words: on (and what it lets commands reach), off, or
// unavailable with what to install. It shows the plan the next command would get.
import { homedir } from "node:os";
import type { AgentSession } from "../../agent/types.ts";

export function describeSandbox(sb: AgentSession["sandbox"]): string {
  const s = sb.state();
  const home = homedir();
  const show = (p: string) => (p === home || p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p);
  if (s.kind === "off") return "Sandbox: off. Commands run as you do and ask as the rules say. /sandbox on confines them for this session (set sandbox.enabled in your settings to keep it).";
  if (s.kind === "unavailable") return `Sandbox: UNAVAILABLE: ${s.why}.\n  ${s.install}.\n  ${s.refuse ? "sandbox.failIfUnavailable is set: bash and process commands are refused." : "Commands run unconfined and ask as without the sandbox."}`;
  const p = sb.plan();
  const set = sb.settings;
  return [
    `Sandbox: on (${s.enforcer})${set.autoAllowBashIfSandboxed ? ", confined commands run without asking" : ", commands still ask as the rules say"}.`,
    `  writable: ${p.writable.map(show).join(", ")}`,
    `  read-only inside them: ${[...p.readOnly, ...p.blockCreate].map(show).join(", ") || "nothing"}`,
    `  hidden: ${p.denyRead.map(show).join(", ") || "nothing"}`,
    `  network: ${set.allowedDomains.length ? `${set.allowedDomains.join(", ")} through KHAELOR's proxy` : "closed"}${set.deniedDomains.length ? `; denied: ${set.deniedDomains.join(", ")}` : ""}`,
    ...(set.excludedCommands.length ? [`  run unconfined (excludedCommands): ${set.excludedCommands.join(", ")}`] : []),
    ...(p.unenforced.length ? [`  not enforced inside: ${p.unenforced.join(", ")}`] : []),
    ...s.warnings.map((w) => `  ! ${w}`),
    `  Outside the sandbox: ${set.allowUnsandboxedCommands ? "a command may ask to run outside (dangerouslyDisableSandbox)" : "never (allowUnsandboxedCommands is false)"}. /sandbox off turns it off for this session.`,
  ].join("\n");
}
