// The three settings files (user, project, local) in Claude Code's format:
//   {"permissions": {"allow": [...], "deny": [...], "ask": [...], "defaultMode": "..."}}
// Reading never throws: a broken file or a bad rule becomes a Problem naming the file and the
// position, and the rest still loads. Writing keeps every other key of the file as it was.
import { mkdirSync, statSync, appendFileSync } from "node:fs";
import { writeFileAtomic } from "../../workspace/atomic-write.ts";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { z } from "zod";
import { FileReadError, LIMITS, readRegularText, readTextIfExists, stripBom } from "../../workspace/safe-read.ts";
import { parseRule, ruleToolOf } from "./rule-syntax.ts";
import { PERMISSION_MODES, type Behavior, type PermissionMode, type Problem, type RuleEntry, type WideningSetting } from "../types.ts";

export type FileScope = "user" | "project" | "local";
/** `claude`: one of Claude Code's own files, read as a layer below KHAELOR's file of the same scope. */
export type SettingsLocation = { scope: FileScope; file: string; claude?: true };

/**
 * Every settings file in the order they are read, a later one winning a key both set: per scope
 * (user, project, local) Claude Code's file first, then KHAELOR's, so a switcher's setup works and
 * KHAELOR's own file has the last word. `claudeDir` is Claude Code's ~/.claude (CLAUDE_CONFIG_DIR).
 */
export function settingsLocations(projectRoot: string, configDir: string, claudeDir: string = claudeConfigDir()): SettingsLocation[] {
  return [
    { scope: "user", file: join(claudeDir, "settings.json"), claude: true },
    { scope: "user", file: join(configDir, "settings.json") },
    { scope: "project", file: join(projectRoot, ".claude", "settings.json"), claude: true },
    { scope: "project", file: join(projectRoot, ".khaelor", "settings.json") },
    { scope: "local", file: join(projectRoot, ".claude", "settings.local.json"), claude: true },
    { scope: "local", file: join(projectRoot, ".khaelor", "settings.local.json") },
  ];
}

/** KHAELOR's own file of a scope: where what KHAELOR saves goes (never into Claude Code's files). */
export function ownLocation(locations: SettingsLocation[], scope: FileScope): SettingsLocation {
  return locations.find((l) => l.scope === scope && !l.claude) as SettingsLocation;
}

/** A directory a settings file names: ~ is home, a relative one is from the project (the folder holding .claude or .khaelor). */
function expandDir(d: string, loc: SettingsLocation): string {
  if (d === "~" || d.startsWith("~/")) return join(homedir(), d.slice(2));
  return resolve(loc.scope === "user" ? homedir() : dirname(dirname(loc.file)), d);
}

/** Claude Code's configuration directory: $CLAUDE_CONFIG_DIR, as Claude Code reads it, else ~/.claude. */
export function claudeConfigDir(home: string = homedir(), env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(home, ".claude");
}

/** ~/.config/khaelor, honouring XDG_CONFIG_HOME unless a config home is given (tests). */
export function userConfigDir(home: string, configHome?: string): string {
  return join(configHome ?? (process.env.XDG_CONFIG_HOME || join(home, ".config")), "khaelor");
}

/** `additionalDirectories`: Claude Code's more directories the tools may use as the project, absolute (~ and relative ones resolved). */
export type LoadedSettings = { rules: RuleEntry[]; defaultMode?: PermissionMode; additionalDirectories?: string[]; problems: Problem[] };

const BEHAVIORS: Behavior[] = ["deny", "ask", "allow"];
/** A file whose rules cannot be read may have denied anything. */
const WHOLE_FILE = { behavior: "deny", tool: null } as const;

const SettingsShape = z.looseObject({
  permissions: z
    .looseObject({
      allow: z.array(z.unknown()).optional(),
      deny: z.array(z.unknown()).optional(),
      ask: z.array(z.unknown()).optional(),
      defaultMode: z.enum(PERMISSION_MODES).optional(),
      additionalDirectories: z.array(z.string()).optional(),
    })
    .optional(),
});

export function loadSettingsFile(loc: SettingsLocation): LoadedSettings {
  const out: LoadedSettings = { rules: [], problems: [] };
  let text: string;
  try {
    // A repository's settings may be a FIFO or a link to /dev/zero: checked, bounded, BOM dropped.
    const read = readTextIfExists(loc.file, LIMITS.settings);
    if (read === null) return out;
    text = read;
  } catch (e) {
    out.problems.push({ file: loc.file, message: `cannot read: ${e instanceof FileReadError ? e.reason : (e as Error).message}; until it is fixed every tool call asks`, failClosed: WHOLE_FILE });
    return out;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    out.problems.push({ file: loc.file, message: `not valid JSON (${(e as Error).message}); until it is fixed every tool call asks`, failClosed: WHOLE_FILE });
    return out;
  }
  const parsed = SettingsShape.safeParse(json);
  if (!parsed.success) {
    // Report each broken key, then salvage what is well-formed.
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[1] ?? "");
      const covers = issue.path[0] === "permissions" && (key === "deny" || key === "ask" || key === "");
      out.problems.push({ file: loc.file, position: issue.path.join("."), message: issue.message, ...(covers ? { failClosed: WHOLE_FILE } : {}) });
    }
  }
  const perms = (json as { permissions?: Record<string, unknown> } | null)?.permissions;
  if (!perms || typeof perms !== "object") return out;
  for (const behavior of BEHAVIORS) {
    const list = perms[behavior];
    if (!Array.isArray(list)) continue;
    list.forEach((raw, index) => {
      const position = `permissions.${behavior}[${index}]`;
      if (typeof raw !== "string") {
        out.problems.push({ file: loc.file, position, message: `expected a rule string, got ${JSON.stringify(raw)}`, ...(behavior !== "allow" ? { failClosed: { behavior, tool: null } } : {}) });
        return;
      }
      const rule = parseRule(raw);
      if (!rule.ok) {
        // A broken allow rule only allows less; a broken deny or ask rule must not allow more.
        if (behavior === "allow") out.problems.push({ file: loc.file, position, rule: raw, message: `${rule.message}; the rule is ignored` });
        else {
          const tool = ruleToolOf(raw);
          const what = tool ? `every ${tool} call` : "every tool call";
          out.problems.push({ file: loc.file, position, rule: raw, message: `${rule.message}; until it is fixed ${what} asks`, failClosed: { behavior, tool } });
        }
      }
      else out.rules.push({ rule: raw, behavior, scope: loc.scope, file: loc.file });
    });
  }
  const dirs = perms.additionalDirectories;
  if (Array.isArray(dirs)) out.additionalDirectories = dirs.filter((d): d is string => typeof d === "string" && d !== "").map((d) => expandDir(d, loc));
  const mode = perms.defaultMode;
  if (typeof mode === "string" && (PERMISSION_MODES as readonly string[]).includes(mode)) {
    if (loc.scope !== "user" && mode === "bypassPermissions") {
      // Any file inside the project can come with the repository, settings.local.json too (nothing
      // stops a repository from committing it): none may switch the checks off, trusted or not.
      out.problems.push({ file: loc.file, position: "permissions.defaultMode", message: "bypassPermissions is never taken from a file inside the project; pass --permission-mode bypassPermissions, or set it in your user settings" });
    } else out.defaultMode = mode as PermissionMode;
  }
  return out;
}

/** What the project's own two files would widen (allow rules, a mode that asks less), trusted or not. */
export function wideningSettings(projectRoot: string, configDir: string, claudeDir?: string): WideningSetting[] {
  const out: WideningSetting[] = [];
  for (const loc of settingsLocations(projectRoot, configDir, claudeDir)) {
    if (loc.scope === "user") continue;
    const loaded = loadSettingsFile(loc);
    const at = { file: loc.file, scope: loc.scope };
    for (const r of loaded.rules) if (r.behavior === "allow") out.push({ ...at, key: "allow", rule: r.rule });
    const m = loaded.defaultMode;
    if (m !== undefined && m !== "default" && m !== "plan") out.push({ ...at, key: "defaultMode", mode: m });
    for (const dir of loaded.additionalDirectories ?? []) out.push({ ...at, key: "additionalDirectories", dir });
  }
  return out;
}

/**
 * A settings file's JSON object, to change one key and write back ({} when there is no file yet).
 * Throws with a message to show: a file that is not a JSON object is never overwritten.
 */
export function readSettingsObject(file: string): Record<string, unknown> {
  const text = readTextIfExists(file, LIMITS.settings);
  if (text === null || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripBom(text));
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}); fix it by hand before saving to it`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`${file} is not valid JSON (not a JSON object); fix it by hand before saving to it`);
  return parsed as Record<string, unknown>;
}

/** Add or remove one rule in a settings file, keeping everything else. Throws with a message to show. */
export function updateRuleInFile(file: string, behavior: Behavior, rule: string, change: "add" | "remove"): boolean {
  const json = readSettingsObject(file);
  const perms = (json.permissions && typeof json.permissions === "object" ? json.permissions : {}) as Record<string, unknown>;
  const list = Array.isArray(perms[behavior]) ? [...(perms[behavior] as unknown[])] : [];
  const at = list.indexOf(rule);
  if (change === "add") {
    if (at !== -1) return false;
    list.push(rule);
  } else {
    if (at === -1) return false;
    list.splice(at, 1);
  }
  perms[behavior] = list;
  json.permissions = perms;
  // Through a symlink (settings kept in a dotfiles repository), keeping owner and mode.
  writeFileAtomic(file, Buffer.from(JSON.stringify(json, null, 2) + "\n"));
  return true;
}

/** Keep a file out of git through .git/info/exclude (never .gitignore, which the user owns and shares). */
export function excludeFromGit(file: string): void {
  const found = findGitDir(dirname(file));
  if (!found) return;
  const excludeFile = join(found.commonDir, "info", "exclude");
  const entry = "/" + relative(found.workTree, file).split("\\").join("/");
  const current = readTextIfExists(excludeFile, LIMITS.smallConfig) ?? "";
  if (current.split("\n").some((l) => l.trim() === entry)) return;
  mkdirSync(dirname(excludeFile), { recursive: true });
  appendFileSync(excludeFile, `${current === "" || current.endsWith("\n") ? "" : "\n"}# kept out of git by KHAELOR\n${entry}\n`);
}

function findGitDir(from: string): { workTree: string; commonDir: string } | null {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    try {
      const st = statSync(dotGit);
      let gitDir = dotGit;
      if (st.isFile()) {
        const m = /^gitdir:\s*(.+)$/m.exec(readRegularText(dotGit, LIMITS.smallConfig));
        if (!m) return null;
        gitDir = resolve(dir, (m[1] as string).trim());
      }
      const commonFile = join(gitDir, "commondir");
      const common = readTextIfExists(commonFile, LIMITS.smallConfig);
      const commonDir = common !== null ? resolve(gitDir, common.trim()) : gitDir;
      return { workTree: dir, commonDir };
    } catch {
      // no .git here
    }
    if (dirname(dir) === dir) return null;
  }
}
