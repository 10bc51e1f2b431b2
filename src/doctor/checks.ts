// What `khaelor doctor` looks at, one function per line it prints. Each answers with what it found
// and, when something is wrong, the problem and the command or change that fixes it. Nothing here
// makes a network request or writes outside KHAELOR's cache (where ripgrep is unpacked anyway).
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { loadSettings } from "../agent/config.ts";
import { cacheDir, ripgrepPath } from "../assets/embedded.ts";
import { createParser } from "../assets/tree-sitter.ts";
import { updateCommand, installKind } from "../install/install-kind.ts";
import { releaseUrl } from "../install/release-url.ts";
import { readUpdateState, updateChecksOff, updateStateFile } from "../install/update-check.ts";
import { readSettingsObject, settingsLocations, userConfigDir } from "../permissions/index.ts";
import { probeSandbox } from "../sandbox/availability.ts";
import { mergeSandboxSettings, type SandboxFile } from "../sandbox/settings.ts";
import { isReleaseTarget, runningPlatform } from "../platform/target.ts";
import { sessionsRoot } from "../session/paths.ts";
import { capsFromEnv } from "../tui/term/caps.ts";
import { VERSION } from "../version.ts";
import { describeProviderForDoctor } from "./provider.ts";

type Env = Record<string, string | undefined>;
export type Finding = { name: string; value: string; problem?: string; fix?: string };

export function versionFinding(): Finding {
  const kind = installKind();
  const where = kind.kind === "source" ? `from source (${Bun.main})` : `${kind.kind === "npm" ? "installed with npm" : "binary"} at ${kind.path}`;
  const f: Finding = { name: "version", value: `${VERSION} (${runningPlatform()}), ${where}` };
  if (kind.kind !== "source" && !isReleaseTarget(runningPlatform())) return { ...f, problem: `${runningPlatform()} is not a platform KHAELOR is built for`, fix: "run it from source (see the README)" };
  return f;
}

/** The settings files, sessions and cache; each settings file that does not parse is a problem. */
export function placesFindings(cwd: string, env: Env): Finding[] {
  const out: Finding[] = [];
  for (const { file, scope, claude } of settingsLocations(cwd, userConfigDir(homedir()))) {
    if (!existsSync(file)) {
      if (scope === "user" && !claude) out.push({ name: "settings", value: `${file} (none yet)` });
      continue;
    }
    const f: Finding = { name: "settings", value: `${file} (${scope}${claude ? ", Claude Code's, read under KHAELOR's" : ""})` };
    try {
      const j: unknown = JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
      if (!j || typeof j !== "object" || Array.isArray(j)) throw new Error("not a JSON object");
      out.push({ ...f, value: f.value + whatItHolds(j as Record<string, unknown>) + (claude ? notCarriedOut(j as Record<string, unknown>) : "") });
    } catch (e) {
      out.push({ ...f, problem: `${file} is not valid JSON (${(e as Error).message}); KHAELOR skips it and denies what its rules might have denied`, fix: `fix ${file} by hand (or remove it)` });
    }
  }
  for (const p of loadSettings(cwd).problems) out.push({ name: "settings", value: "a key KHAELOR cannot use", problem: p, fix: "correct or remove that key" });
  out.push({ name: "sessions", value: sessionsRoot(env) }, { name: "cache", value: cacheDir() });
  return out;
}

export function providerFinding(cwd: string, env: Env): Finding {
  const { settings } = loadSettings(cwd);
  const r = describeProviderForDoctor(env, { apiKey: settings.apiKey, apiKeyHelper: settings.apiKeyHelper });
  return { name: "provider", value: r.line, ...(r.problem ? { problem: r.problem, fix: r.fix ?? "" } : {}) };
}

export function ripgrepFinding(): Finding {
  try {
    const rg = ripgrepPath();
    const p = Bun.spawnSync([rg, "--version"], { stdout: "pipe", stderr: "pipe" });
    const first = p.stdout.toString().split("\n")[0] ?? "";
    if (p.exitCode !== 0) throw new Error(`${rg} --version exited ${p.exitCode}: ${p.stderr.toString().trim().slice(0, 200)}`);
    return { name: "ripgrep", value: `${first} (${rg})` };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { name: "ripgrep", value: "does not run", problem: msg, fix: /download khaelor-/.test(msg) ? msg.slice(msg.lastIndexOf(": ") + 2) : `reinstall khaelor (${updateCommand(installKind())})` };
  }
}

export async function grammarFinding(): Promise<Finding> {
  try {
    const parser = await createParser("bash");
    const tree = parser.parse("echo ok | wc -c");
    if (tree?.rootNode.type !== "program" || tree.rootNode.hasError) throw new Error("the Bash grammar parsed a plain pipeline as an error");
    return { name: "grammars", value: "tree-sitter Bash grammar loads and parses" };
  } catch (e) {
    return { name: "grammars", value: "does not load", problem: `the embedded Bash grammar: ${e instanceof Error ? e.message : String(e)} (commands cannot be checked against permission rules)`, fix: `reinstall khaelor (${updateCommand(installKind())})` };
  }
}

export function terminalFinding(env: Env, stdout: { isTTY?: boolean; columns?: number; rows?: number }): Finding {
  if (!stdout.isTTY) return { name: "terminal", value: "no terminal (stdout is not one): not checked" };
  const c = capsFromEnv(env);
  const parts = [`TERM=${env.TERM ?? "(unset)"}`, `${stdout.columns ?? "?"}x${stdout.rows ?? "?"}`, `colour: ${c.colorDepth}`, `synchronized output: ${c.syncOutput ? "yes" : "asked at start-up"}`];
  if (env.TERM_PROGRAM) parts.push(`program: ${env.TERM_PROGRAM}`);
  if (c.inTmux) parts.push("inside tmux");
  if (c.remote) parts.push("over SSH");
  const f: Finding = { name: "terminal", value: parts.join(", ") };
  if (env.TERM === "dumb") return { ...f, problem: "TERM=dumb: the interactive app does not start (print mode does)", fix: "set TERM to your terminal's type, e.g. export TERM=xterm-256color" };
  return f;
}

/**
 * The OS sandbox: whether the settings turn it on (Claude Code's `sandbox.enabled`) and whether it
 * can run here. On but unable to run is a problem with what to install; off, it is information.
 */
export function sandboxFinding(cwd: string): Finding {
  const files: SandboxFile[] = [];
  for (const loc of settingsLocations(cwd, userConfigDir(homedir()))) {
    try {
      files.push({ ...loc, json: readSettingsObject(loc.file) });
    } catch {
      // The settings finding reports a broken file.
    }
  }
  const { settings, problems } = mergeSandboxSettings(files);
  // A key that is ignored (a project's widening, one KHAELOR has no such setting for) is a problem to fix.
  const said = problems.length ? { problem: problems.join("; "), fix: "correct the block or remove those keys" } : {};
  const a = probeSandbox();
  const can = a.ok ? `${a.enforcer === "bubblewrap" ? "bubblewrap" : "Seatbelt (sandbox-exec)"} works here${a.enforcer === "bubblewrap" ? `${a.socat ? "" : ", socat missing (no network through the proxy)"}${a.nsenter ? "" : ", nsenter missing (each command gets its own network)"}` : ""}` : `cannot run here: ${a.why}`;
  if (!settings.enabled) return { name: "sandbox", value: `off ("sandbox": {"enabled": true} in settings turns it on); ${can}`, ...said };
  const f: Finding = { name: "sandbox", value: `on${settings.failIfUnavailable ? " (failIfUnavailable)" : ""}; ${can}`, ...said };
  if (a.ok) return f;
  return { ...f, problem: settings.failIfUnavailable ? "the sandbox is on but cannot run: every command is refused" : "the sandbox is on but cannot run: commands fall back to permission prompts", fix: a.install };
}

export function updatesFinding(cwd: string, env: Env): Finding {
  const kind = installKind();
  if (kind.kind === "source") return { name: "updates", value: "run from source: no update checks (update with git pull)" };
  const off = updateChecksOff(env, loadSettings(cwd).settings.autoUpdates);
  const state = readUpdateState(updateStateFile(env));
  const last = state ? `; last checked ${new Date(state.checkedAt).toISOString()}${state.latest ? `, latest ${state.latest}` : ""}` : "";
  return { name: "updates", value: `${off ? `automatic checks off (${off})` : "checked daily in the background"} from ${releaseUrl(env)}${last}; update with ${updateCommand(kind)}` };
}

/**
 * Claude Code settings KHAELOR has nothing for (read nowhere in src/): named where a switcher
 * looks, so that none of them seems to hold. Information, not a problem: the file is Claude Code's.
 */
const NOT_CARRIED_OUT = new Set(["outputStyle", "includeCoAuthoredBy", "cleanupPeriodDays", "extraKnownMarketplaces", "forceLoginMethod", "forceLoginOrgUUID", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper", "allowManagedHooksOnly", "spinnerTipsEnabled", "alwaysThinkingEnabled", "companyAnnouncements", "respectGitignore"]);

function notCarriedOut(j: Record<string, unknown>): string {
  const keys = Object.keys(j).filter((k) => NOT_CARRIED_OUT.has(k));
  return keys.length ? `; not carried out by KHAELOR: ${keys.join(", ")}` : "";
}

/** The rules and hooks one settings file holds, so a user sees which file each came from. */
function whatItHolds(j: Record<string, unknown>): string {
  const perms = (j.permissions && typeof j.permissions === "object" ? j.permissions : {}) as Record<string, unknown>;
  const rules = (["allow", "ask", "deny"] as const).flatMap((b) => (Array.isArray(perms[b]) ? (perms[b] as unknown[]).filter((r) => typeof r === "string").map((r) => `${b} ${r}`) : []));
  const hooks = j.hooks && typeof j.hooks === "object" ? Object.entries(j.hooks as Record<string, unknown>).flatMap(([event, groups]) => (Array.isArray(groups) ? groups.map((g: { matcher?: unknown }) => (typeof g?.matcher === "string" && g.matcher ? `${event} (${g.matcher})` : event)) : [])) : [];
  const parts = [...(rules.length ? [`rules: ${rules.join(", ")}`] : []), ...(hooks.length ? [`hooks: ${hooks.join(", ")}`] : [])];
  return parts.length ? `; ${parts.join("; ")}` : "";
}
