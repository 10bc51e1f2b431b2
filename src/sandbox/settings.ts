// Claude Code's `sandbox` settings block, read from the user's settings file; a file inside the
// project comes with the repository, so it may only tighten what the user set (turn the sandbox
// on, refuse more, deny more), never widen it (allow a domain, a write, an unconfined command).
import { z } from "zod";

const Strings = z.array(z.string().min(1)).optional();

const Network = z.looseObject({ allowedDomains: Strings, deniedDomains: Strings });
const Filesystem = z.looseObject({ allowWrite: Strings, denyWrite: Strings, denyRead: Strings });

export const SandboxBlock = z.looseObject({
  enabled: z.boolean().optional(),
  autoAllowBashIfSandboxed: z.boolean().optional(),
  failIfUnavailable: z.boolean().optional(),
  allowUnsandboxedCommands: z.boolean().optional(),
  excludedCommands: Strings,
  network: Network.optional(),
  filesystem: Filesystem.optional(),
});
export type SandboxBlock = z.infer<typeof SandboxBlock>;

/** The settings in force, every field filled. */
export type SandboxSettings = {
  enabled: boolean;
  autoAllowBashIfSandboxed: boolean;
  failIfUnavailable: boolean;
  allowUnsandboxedCommands: boolean;
  excludedCommands: string[];
  allowedDomains: string[];
  deniedDomains: string[];
  allowWrite: string[];
  denyWrite: string[];
  denyRead: string[];
};

export const DEFAULT_SANDBOX: SandboxSettings = {
  enabled: false,
  autoAllowBashIfSandboxed: true,
  failIfUnavailable: false,
  allowUnsandboxedCommands: true,
  excludedCommands: [],
  allowedDomains: [],
  deniedDomains: [],
  allowWrite: [],
  denyWrite: [],
  denyRead: [],
};

export type SandboxFile = { file: string; scope: "user" | "project" | "local"; json: unknown };

/** User settings first; each project file after it may only tighten. Problems are said, never thrown. */
export function mergeSandboxSettings(files: SandboxFile[]): { settings: SandboxSettings; problems: string[] } {
  const s: SandboxSettings = { ...DEFAULT_SANDBOX, excludedCommands: [], allowedDomains: [], deniedDomains: [], allowWrite: [], denyWrite: [], denyRead: [] };
  const problems: string[] = [];
  for (const f of files) {
    const raw = (f.json as { sandbox?: unknown } | null)?.sandbox;
    if (raw === undefined) continue;
    const parsed = SandboxBlock.safeParse(raw);
    if (!parsed.success) {
      problems.push(`${f.file}: sandbox: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(block)"}: ${i.message}`).join("; ")} (the block is ignored)`);
      continue;
    }
    const b = parsed.data;
    const unknown = unknownKeys(b);
    if (unknown.length) problems.push(`${f.file}: sandbox: ${unknown.join(", ")}: not carried out by KHAELOR, ignored (its sandbox has no such setting)`);
    if (f.scope === "user") applyUser(s, b);
    else problems.push(...applyProject(s, b, f.file));
  }
  return { settings: s, problems };
}

// What the schemas name is what is carried out: the loose objects keep the rest, to be said here.
const KNOWN = new Set(Object.keys(SandboxBlock.shape));
const KNOWN_NETWORK = new Set(Object.keys(Network.shape));
const KNOWN_FILESYSTEM = new Set(Object.keys(Filesystem.shape));

/**
 * Claude Code keys KHAELOR's sandbox does not carry out (ignoreViolations, enableWeakerNestedSandbox,
 * network.allowUnixSockets, the proxy ports...) and misspellings: said, so that nobody believes a
 * setting holds that does not.
 */
function unknownKeys(b: SandboxBlock): string[] {
  const out = Object.keys(b).filter((k) => !KNOWN.has(k));
  for (const [part, known] of [["network", KNOWN_NETWORK], ["filesystem", KNOWN_FILESYSTEM]] as const) {
    const sub = b[part];
    if (sub) out.push(...Object.keys(sub).filter((k) => !known.has(k)).map((k) => `${part}.${k}`));
  }
  return out;
}

function applyUser(s: SandboxSettings, b: SandboxBlock): void {
  if (b.enabled !== undefined) s.enabled = b.enabled;
  if (b.autoAllowBashIfSandboxed !== undefined) s.autoAllowBashIfSandboxed = b.autoAllowBashIfSandboxed;
  if (b.failIfUnavailable !== undefined) s.failIfUnavailable = b.failIfUnavailable;
  if (b.allowUnsandboxedCommands !== undefined) s.allowUnsandboxedCommands = b.allowUnsandboxedCommands;
  s.excludedCommands.push(...(b.excludedCommands ?? []));
  s.allowedDomains.push(...(b.network?.allowedDomains ?? []));
  s.deniedDomains.push(...(b.network?.deniedDomains ?? []));
  s.allowWrite.push(...(b.filesystem?.allowWrite ?? []));
  s.denyWrite.push(...(b.filesystem?.denyWrite ?? []));
  s.denyRead.push(...(b.filesystem?.denyRead ?? []));
}

/** The tightening part of a project's block; what would widen is named and ignored. */
function applyProject(s: SandboxSettings, b: SandboxBlock, file: string): string[] {
  const ignored: string[] = [];
  const flag = (key: "enabled" | "failIfUnavailable", v: boolean | undefined) => {
    if (v === true) s[key] = true;
    else if (v === false) ignored.push(`${key}: false`);
  };
  flag("enabled", b.enabled);
  flag("failIfUnavailable", b.failIfUnavailable);
  // Asking more, and refusing to run outside, only tighten.
  if (b.autoAllowBashIfSandboxed === false) s.autoAllowBashIfSandboxed = false;
  else if (b.autoAllowBashIfSandboxed === true) ignored.push("autoAllowBashIfSandboxed: true");
  if (b.allowUnsandboxedCommands === false) s.allowUnsandboxedCommands = false;
  else if (b.allowUnsandboxedCommands === true) ignored.push("allowUnsandboxedCommands: true");
  if (b.excludedCommands?.length) ignored.push("excludedCommands");
  if (b.network?.allowedDomains?.length) ignored.push("network.allowedDomains");
  if (b.filesystem?.allowWrite?.length) ignored.push("filesystem.allowWrite");
  s.deniedDomains.push(...(b.network?.deniedDomains ?? []));
  s.denyWrite.push(...(b.filesystem?.denyWrite ?? []));
  s.denyRead.push(...(b.filesystem?.denyRead ?? []));
  return ignored.length ? [`${file}: sandbox: ${ignored.join(", ")} ignored: a project's settings may only tighten the sandbox; set ${ignored.length === 1 ? "it" : "them"} in your user settings`] : [];
}

/** Claude Code's domain patterns: `example.com` or `*.example.com` (any subdomain, not the apex). */
export function domainMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, "");
  const h = host.toLowerCase().replace(/\.$/, "");
  if (p.startsWith("*.")) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
  return h === p;
}

/** Denied wins over allowed; nothing is allowed unless named. */
export function domainAllowed(s: Pick<SandboxSettings, "allowedDomains" | "deniedDomains">, host: string): boolean {
  if (s.deniedDomains.some((p) => domainMatches(p, host))) return false;
  return s.allowedDomains.some((p) => domainMatches(p, host));
}
