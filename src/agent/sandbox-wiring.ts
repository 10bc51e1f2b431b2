// The session's sandbox: its settings read from the same files as the rules (the user's block,
// a project's only tightening), opened once, and what the user must hear at start: that it is on,
// or that it is not and why, with what to install. It never claims confinement that is not there:
// an editor's terminal (ACP) is not confined, and the notice says so.
import { homedir } from "node:os";
import { readSettingsObject, settingsLocations, userConfigDir, type PermissionEngine } from "../permissions/index.ts";
import { openSandbox, type Sandbox } from "../sandbox/sandbox.ts";
import { mergeSandboxSettings, type SandboxFile } from "../sandbox/settings.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import { sandboxGate, type SandboxGate } from "./sandbox-gate.ts";

/**
 * The session's sandbox on its workspace and in its gate. An editor's terminal (ACP) cannot be
 * confined: its commands ask as without a sandbox, and the notice says so.
 */
export async function attachSandbox(cwd: string, engine: Pick<PermissionEngine, "rules" | "directories">, workspace: LocalWorkspace, notices: string[]): Promise<{ sandbox: Sandbox; gate: SandboxGate | null }> {
  const editorTerminal = workspace.terminal !== undefined;
  const sb = await openSessionSandbox(cwd, engine, { editorTerminal });
  notices.push(...sb.notices);
  if (editorTerminal) return { sandbox: sb.sandbox, gate: null };
  workspace.confine = sb.sandbox;
  return { sandbox: sb.sandbox, gate: sandboxGate(sb.sandbox) };
}

export async function openSessionSandbox(cwd: string, engine: Pick<PermissionEngine, "rules" | "directories">, opts: { editorTerminal: boolean }): Promise<{ sandbox: Sandbox; notices: string[] }> {
  const files: SandboxFile[] = [];
  const notices: string[] = [];
  for (const loc of settingsLocations(cwd, userConfigDir(homedir()))) {
    try {
      files.push({ ...loc, json: readSettingsObject(loc.file) });
    } catch {
      // A broken file is reported by the rules' loader, once.
    }
  }
  const { settings, problems } = mergeSandboxSettings(files);
  notices.push(...problems);
  const readDenyRules = () => engine.rules().filter((r) => r.behavior === "deny").flatMap((r) => /^Read\((.+)\)$/.exec(r.rule)?.[1] ?? []);
  // The directories added to the project (--add-dir, additionalDirectories that hold) are written as the project is.
  const sandbox = await openSandbox({ root: cwd, settings: { ...settings, allowWrite: [...settings.allowWrite, ...engine.directories()] }, readDenyRules });
  const line = sandboxNotice(sandbox, opts.editorTerminal);
  if (line) notices.push(line);
  return { sandbox, notices };
}

/** The start-up line: null when the sandbox is off (nothing was asked of it). */
export function sandboxNotice(sandbox: Sandbox, editorTerminal: boolean): string | null {
  const s = sandbox.state();
  if (s.kind === "off") return null;
  if (s.kind === "unavailable") {
    return `sandbox unavailable: ${s.why}. ${s.install}. ${s.refuse ? "sandbox.failIfUnavailable is set: bash and process commands are refused" : "Commands run unconfined and ask as without the sandbox"}`;
  }
  const domains = sandbox.settings.allowedDomains.length;
  const parts = [`sandbox on (${s.enforcer}): commands write only to the project and temp dirs, network ${domains ? `only to ${domains} allowed domain${domains === 1 ? "" : "s"}` : "closed"}${s.sharedNetwork ? " (localhost is the session's own: servers its commands start, not the host's)" : ""}${sandbox.settings.autoAllowBashIfSandboxed ? "; confined commands run without asking" : ""}`];
  if (editorTerminal) parts.push("commands run in the editor's terminal are NOT confined and ask as usual");
  const unenforced = sandbox.plan().unenforced;
  if (unenforced.length) parts.push(`Read deny rules the sandbox cannot enforce (globs outside the project, or a project too large to look through; the rules still hold for KHAELOR's own tools): ${unenforced.join(", ")}`);
  parts.push(...s.warnings);
  return parts.join("; ");
}
