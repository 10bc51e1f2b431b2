// The permission engine: rules from every scope, the current mode, and decide() for one tool call.
// See ./index.ts for the contract.
import type { Parser } from "web-tree-sitter";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { createParser } from "../assets/tree-sitter.ts";
import { isMcpName } from "./rules/mcp-rules.ts";
import { decidePath, type JudgeContext } from "./paths/decide-path.ts";
import { decideShell } from "./decide-shell.ts";
import { realPath, resolveToolPath } from "./paths/path-facts.ts";
import { RuleSet } from "./rules/rule-set.ts";
import { parseRule, toolsCoveredBy } from "./rules/rule-syntax.ts";
import { searchFilter, type SearchTool } from "./paths/search-filter.ts";
import {
  claudeConfigDir,
  excludeFromGit,
  loadSettingsFile,
  ownLocation,
  settingsLocations,
  updateRuleInFile,
  userConfigDir,
  type SettingsLocation,
} from "./rules/settings-files.ts";
import type {
  Behavior,
  Decision,
  DecisionRequest,
  GrantScope,
  PermissionMode,
  Problem,
  ProjectSettingsTrust,
  RuleEntry,
  RuleScope,
  RuleTool,
  SearchFilter,
  SearchSkip,
  WideningSetting,
} from "./types.ts";

export type PermissionEngineOptions = {
  projectRoot: string;
  /** Home directory (tests point it at a temp dir). Default: os.homedir(). */
  home?: string;
  /** Replaces $XDG_CONFIG_HOME / ~/.config for the user settings file. */
  configHome?: string;
  /** Claude Code's directory (default $CLAUDE_CONFIG_DIR, else ~/.claude of `home`). */
  claudeDir?: string;
  /** --permission-mode; when absent, the settings' defaultMode (local, project, user), else "default". */
  mode?: PermissionMode;
  /** --allowedTools / --disallowedTools rules. */
  cliAllow?: string[];
  cliDeny?: string[];
  /**
   * Which allow rules and modes in the project's own files hold (see WideningSetting). Without it
   * none do: a project's files may only restrict, as in a project nobody trusted.
   */
  projectSettings?: ProjectSettingsTrust;
  /** The session's plan file: the one file plan mode writes, and read or written unasked in every mode. */
  planFile?: string;
  /** --add-dir: more directories the tools may use as the project (absolute). */
  addDirs?: string[];
};

export type GrantResult = { ok: true; rule: string; file?: string } | { ok: false; error: string };

export interface PermissionEngine {
  /** Synchronous and never throws; an internal failure asks. */
  decide(req: DecisionRequest): Decision;
  /**
   * For a grep or glob over a directory that decide() allowed: which paths found below it to leave
   * out (denied by a rule, or for grep, asked about if read directly). Never throws; on an
   * internal failure every path is left out.
   */
  searchFilter(tool: SearchTool, dir: string): SearchFilter;
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): void;
  /** Save an allow rule ("allow always"). Takes effect at once; never outranks a deny or ask. */
  grant(rule: string, scope: GrantScope): GrantResult;
  /** Every rule in force, with its scope and file. */
  rules(): RuleEntry[];
  /** Remove one rule (as listed by rules()); from its file too. Takes effect at once. */
  removeRule(entry: Pick<RuleEntry, "rule" | "behavior" | "scope">): GrantResult;
  /** Bad rules and unreadable settings files, with file and position. */
  problems(): Problem[];
  /** Re-read the settings files (after the user edited them, or trusted the project). */
  reload(): void;
  /** The project files' allow rules and modes that do not hold, as the project is not trusted for them. */
  held(): WideningSetting[];
  /** The settings files' defaultMode in force (the most local one that holds). */
  settingsMode(): PermissionMode | undefined;
  /** The directories added to the project (--add-dir, additionalDirectories that hold), real paths. */
  directories(): string[];
}

/** Nothing the project's files say widens; what KHAELOR writes for the user is remembered in memory. */
export function untrustedProjectSettings(): ProjectSettingsTrust {
  const written = new Set<string>();
  const key = (s: WideningSetting) => (s.key === "allow" ? `allow:${s.rule}` : s.key === "additionalDirectories" ? `dir:${s.dir}` : `mode:${s.mode}`);
  return { widens: (s) => written.has(key(s)), written: (s) => void written.add(key(s)) };
}

export async function createPermissionEngine(opts: PermissionEngineOptions): Promise<PermissionEngine> {
  const parser = await createParser("bash");
  return new Engine(parser, opts);
}

class Engine implements PermissionEngine {
  private ctx: JudgeContext;
  private locations: SettingsLocation[];
  private fileProblems: Problem[] = [];
  private cliProblems: Problem[] = [];
  private memoryRules: RuleEntry[] = [];
  private cliDirs: string[] = [];
  private trust: ProjectSettingsTrust;
  private heldSettings: WideningSetting[] = [];
  private fileMode: PermissionMode | undefined;

  constructor(
    private parser: Parser,
    opts: PermissionEngineOptions,
  ) {
    const home = realPath(resolve(opts.home ?? homedir()));
    const root = realPath(resolve(opts.projectRoot));
    const configDir = userConfigDir(home, opts.configHome);
    this.locations = settingsLocations(root, configDir, opts.claudeDir ?? claudeConfigDir(home));
    this.ctx = { rules: new RuleSet({ root, home }), mode: "default", root, home, configDir, ...(opts.planFile ? { planFile: realPath(resolve(opts.planFile)) } : {}) };
    this.trust = opts.projectSettings ?? untrustedProjectSettings();
    this.cliDirs = (opts.addDirs ?? []).map((d) => realPath(resolve(d)));
    this.addCli(opts.cliAllow ?? [], "allow", "--allowedTools");
    this.addCli(opts.cliDeny ?? [], "deny", "--disallowedTools");
    const defaultMode = this.loadFiles();
    this.ctx.mode = opts.mode ?? defaultMode ?? "default";
  }

  get mode(): PermissionMode {
    return this.ctx.mode;
  }

  setMode(mode: PermissionMode): void {
    this.ctx.mode = mode;
  }

  decide(req: DecisionRequest): Decision {
    const reads = req.onlyReads && this.ctx.mode !== "plan" ? this.planDenial(req) : null;
    if (reads) return reads;
    let d: Decision;
    try {
      d = this.decideUnsafe(req);
      if (d.behavior === "allow") {
        // Rules that did not parse fail closed: what they may have denied or asked about is asked.
        const broken = this.problems().find((p) => p.failClosed && (p.failClosed.tool === null || toolsCoveredBy(p.failClosed.tool).includes(req.tool.toLowerCase())));
        if (broken) d = { behavior: "ask", reason: `${broken.rule ? `the rule "${broken.rule}"` : "a settings file"} in ${broken.file} could not be read and may cover this; asking until it is fixed`, source: "broken rule" };
      }
    } catch (e) {
      d = { behavior: "ask", reason: `the permission check failed (${(e as Error).message}); asking instead`, source: "error" };
    }
    // dontAsk (Claude Code's, for unattended runs) is the default mode with nobody to ask: what
    // would ask is denied, and the reason says what it would have asked about.
    if (this.ctx.mode === "dontAsk" && d.behavior === "ask") return { behavior: "deny", reason: `dontAsk mode denies what would ask (${d.reason})`, source: "mode:dontAsk" };
    return d;
  }

  /** What plan mode's "nothing that writes" denies of this call (a read-only agent's limit), else null. */
  private planDenial(req: DecisionRequest): Decision | null {
    const mode = this.ctx.mode;
    this.ctx.mode = "plan";
    let d: Decision;
    try {
      d = this.decideUnsafe(req);
    } catch (e) {
      d = { behavior: "deny", reason: `the permission check failed (${(e as Error).message})`, source: "mode:plan" };
    } finally {
      this.ctx.mode = mode;
    }
    if (d.behavior !== "deny" || !(d.source.startsWith("mode:plan") || d.source === "parse-error")) return null;
    return { behavior: "deny", reason: `this agent only reads: ${d.reason.replace(/\. Present the plan instead$/, "")}`, source: "agent:read-only" };
  }

  searchFilter(tool: SearchTool, dir: string): SearchFilter {
    // A failed check leaves the path out: showing it could leak what a deny rule hides.
    const failed = (e: unknown): SearchSkip => ({ kind: "denied", because: `the permission check failed (${(e as Error).message})` });
    try {
      const filter = searchFilter(this.ctx, tool, dir);
      const skip = (abs: string) => {
        try {
          return filter.skip(abs);
        } catch (e) {
          return failed(e);
        }
      };
      return { active: filter.active, leaveOut: filter.leaveOut, skip };
    } catch (e) {
      return { active: true, leaveOut: { names: [], paths: [] }, skip: () => failed(e) };
    }
  }

  private decideUnsafe(req: DecisionRequest): Decision {
    const input = (req.input ?? {}) as Record<string, unknown>;
    const str = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : undefined);
    const cwd = realPath(resolve(this.ctx.root, req.cwd || this.ctx.root));
    const path = (p: string) => resolveToolPath(p, cwd, this.ctx.home);
    switch (req.tool) {
      case "read":
      case "write":
      case "edit": {
        const file = str("file_path");
        if (!file) return this.malformed(req.tool, "file_path");
        return decidePath(this.ctx, req.tool === "read" ? "read" : "write", path(file), req.tool === "read" ? ["Read"] : ["Edit"]);
      }
      case "grep":
        return decidePath(this.ctx, "read", path(str("path") ?? "."), ["Grep", "Read"], { directory: true });
      case "glob": {
        const base = path(str("path") ?? ".");
        // judge the directory the pattern really lists: `secrets/**` lists secrets/, and an
        // absolute or `..` pattern reaches past `path`
        const pattern = str("pattern") ?? "";
        const literal = pattern.split("/").filter((_, i, all) => all.slice(0, i + 1).every((s) => !/[*?[{]/.test(s))).join("/");
        const target = literal ? resolveToolPath(literal, base, this.ctx.home) : base;
        return decidePath(this.ctx, "read", target, ["Glob", "Read"], { directory: true });
      }
      case "bash": {
        const command = str("command");
        if (command === undefined) return this.malformed(req.tool, "command");
        return decideShell(this.ctx, this.parser, "Bash", command, cwd);
      }
      case "process":
        return this.decideProcess(input, cwd);
      case "exit_plan_mode":
        // The user approves a plan, whatever the mode and the rules: its tool runs only in plan mode.
        return { behavior: "ask", reason: "the plan is ready for your review", source: "mode:plan" };
      case "agent": {
        // A subagent's own calls ask this engine again, one by one: opening it needs no question,
        // only a deny rule (Agent, Agent(Explore)) stops it.
        const type = str("subagent_type") ?? "general-purpose";
        const deny = this.ctx.rules.matchAgent("deny", type);
        if (deny) return { behavior: "deny", reason: `the ${type} agent is denied by ${deny.rule} (${deny.scope} settings)`, source: `${deny.scope}:${deny.rule}` };
        return { behavior: "allow", reason: "a subagent's calls are asked about one by one", source: "subagent" };
      }
      case "send_message":
        // Goes on with an agent this session started (allowed then): its calls ask again, one by one.
        return { behavior: "allow", reason: "a subagent's calls are asked about one by one", source: "subagent" };
      default:
        if (isMcpName(req.tool)) return this.decideMcp(req.tool, req.readOnly === true);
        return this.decideOtherTool(req.tool);
    }
  }

  private decideProcess(input: Record<string, unknown>, cwd: string): Decision {
    const action = input.action;
    if (action === "start") {
      const command = typeof input.command === "string" ? input.command : undefined;
      if (command === undefined) return this.malformed("process", "command");
      const dir = typeof input.cwd === "string" ? resolveToolPath(input.cwd, cwd, this.ctx.home) : cwd;
      return decideShell(this.ctx, this.parser, "Process", command, dir);
    }
    if (action === "write") {
      // input to a running REPL or server is as powerful as a command
      return this.decideOtherTool("Process");
    }
    // list, read, stop: only look at or end processes the agent itself started
    return { behavior: "allow", reason: `process ${String(action)} only touches processes started in this session`, source: "read-only" };
  }

  private decideOtherTool(name: string): Decision {
    const known: Record<string, RuleTool> = { Process: "Process", webfetch: "WebFetch", WebFetch: "WebFetch" };
    const ruleTool = known[name];
    if (ruleTool) {
      const deny = this.ctx.rules.matchTool("deny", ruleTool);
      if (deny) return { behavior: "deny", reason: `${name} is denied by ${deny.rule} (${deny.scope} settings)`, source: `${deny.scope}:${deny.rule}` };
      const ask = this.ctx.rules.matchTool("ask", ruleTool);
      if (ask && this.ctx.mode !== "bypassPermissions") return { behavior: "ask", reason: `${name} asks because of ${ask.rule}`, source: `${ask.scope}:${ask.rule}` };
    }
    if (this.ctx.mode === "bypassPermissions") return { behavior: "allow", reason: "bypassPermissions mode", source: "mode:bypassPermissions" };
    if (this.ctx.mode === "plan") return { behavior: "deny", reason: `plan mode does not run ${name}`, source: "mode:plan" };
    const allow = ruleTool ? this.ctx.rules.matchTool("allow", ruleTool) : undefined;
    if (allow) return { behavior: "allow", reason: `allowed by ${allow.rule}`, source: `${allow.scope}:${allow.rule}` };
    const suggestion = ruleTool ? { rule: ruleTool, rules: [ruleTool], description: `always allow ${ruleTool}` } : undefined;
    return { behavior: "ask", reason: `using ${name}`, source: `mode:${this.ctx.mode}`, ...(suggestion ? { suggestion } : {}) };
  }

  /** An MCP server's tool: rules by mcp__ name; default mode asks; plan mode runs only tools marked read-only. */
  private decideMcp(name: string, readOnly: boolean): Decision {
    const rules = this.ctx.rules;
    const deny = rules.matchMcp("deny", name);
    if (deny) return { behavior: "deny", reason: `${name} is denied by ${deny.rule} (${deny.scope} settings)`, source: `${deny.scope}:${deny.rule}` };
    const ask = rules.matchMcp("ask", name);
    if (ask && this.ctx.mode !== "bypassPermissions") return { behavior: "ask", reason: `${name} asks because of ${ask.rule}`, source: `${ask.scope}:${ask.rule}` };
    if (this.ctx.mode === "bypassPermissions") return { behavior: "allow", reason: "bypassPermissions mode", source: "mode:bypassPermissions" };
    const suggestion = { rule: name, rules: [name], description: `always allow ${name}` };
    if (this.ctx.mode === "plan") {
      if (readOnly) return { behavior: "allow", reason: `${name} is marked read-only by its server`, source: "read-only" };
      return { behavior: "ask", reason: `plan mode: ${name} is not marked read-only by its server, so it may change something`, source: "mode:plan", suggestion };
    }
    const allow = rules.matchMcp("allow", name);
    if (allow) return { behavior: "allow", reason: `allowed by ${allow.rule}`, source: `${allow.scope}:${allow.rule}` };
    return { behavior: "ask", reason: `calling the MCP tool ${name}`, source: `mode:${this.ctx.mode}`, suggestion };
  }

  private malformed(tool: string, field: string): Decision {
    // The tool's own validation reports this to the model; nothing will run.
    return { behavior: "allow", reason: `${tool} input has no ${field}; the tool will reject it`, source: "invalid-input" };
  }

  grant(rule: string, scope: GrantScope): GrantResult {
    const parsed = parseRule(rule);
    if (!parsed.ok) return { ok: false, error: parsed.message };
    const entry: RuleEntry = { rule, behavior: "allow", scope };
    if (scope !== "session") {
      const loc = this.location(scope);
      try {
        updateRuleInFile(loc.file, "allow", rule, "add");
        // The user chose it: it holds in this project whether or not the project is trusted.
        if (scope === "local") {
          this.trust.written({ key: "allow", rule, file: loc.file, scope });
          excludeFromGit(loc.file);
        }
      } catch (e) {
        return { ok: false, error: (e as Error).message };
      }
      entry.file = loc.file;
    } else this.memoryRules.push(entry);
    this.ctx.rules.add(entry);
    return entry.file ? { ok: true, rule, file: entry.file } : { ok: true, rule };
  }

  rules(): RuleEntry[] {
    return this.ctx.rules.all().map(({ rule, behavior, scope, file }) => (file ? { rule, behavior, scope, file } : { rule, behavior, scope }));
  }

  removeRule(entry: Pick<RuleEntry, "rule" | "behavior" | "scope">): GrantResult {
    const same = (r: RuleEntry) => r.rule === entry.rule && r.behavior === entry.behavior && r.scope === entry.scope;
    const found = this.ctx.rules.all().find(same);
    if (!found) return { ok: false, error: `no ${entry.behavior} rule ${entry.rule} in ${entry.scope} scope` };
    if (found.file) {
      try {
        updateRuleInFile(found.file, entry.behavior, entry.rule, "remove");
      } catch (e) {
        return { ok: false, error: (e as Error).message };
      }
    }
    this.memoryRules = this.memoryRules.filter((r) => !same(r));
    this.ctx.rules.remove(same);
    return found.file ? { ok: true, rule: entry.rule, file: found.file } : { ok: true, rule: entry.rule };
  }

  problems(): Problem[] {
    return [...this.cliProblems, ...this.fileProblems];
  }

  reload(): void {
    this.loadFiles();
  }

  held(): WideningSetting[] {
    return [...this.heldSettings];
  }

  directories(): string[] {
    return [...(this.ctx.extraDirs ?? [])];
  }

  settingsMode(): PermissionMode | undefined {
    return this.fileMode;
  }

  private location(scope: "user" | "project" | "local"): SettingsLocation {
    return ownLocation(this.locations, scope);
  }

  /** Load the three files; returns the most local defaultMode. */
  private loadFiles(): PermissionMode | undefined {
    const fileScopes: RuleScope[] = ["user", "project", "local"];
    this.ctx.rules.remove((r) => fileScopes.includes(r.scope));
    this.fileProblems = [];
    this.heldSettings = [];
    let mode: PermissionMode | undefined;
    const dirs = [...this.cliDirs];
    for (const loc of this.locations) {
      const loaded = loadSettingsFile(loc);
      this.fileProblems.push(...loaded.problems);
      const inProject = loc.scope === "user" ? null : { file: loc.file, scope: loc.scope };
      // Deny and ask rules from anywhere only restrict; allow rules and a mode that asks less are
      // held back where the project is not trusted for them.
      for (const r of loaded.rules) {
        const widening: WideningSetting | null = inProject && r.behavior === "allow" ? { ...inProject, key: "allow", rule: r.rule } : null;
        if (widening && !this.trust.widens(widening)) this.heldSettings.push(widening);
        else this.ctx.rules.add(r);
      }
      // A directory a project's file adds widens what the tools reach: held like an allow rule.
      for (const dir of loaded.additionalDirectories ?? []) {
        const widening: WideningSetting | null = inProject ? { ...inProject, key: "additionalDirectories", dir } : null;
        if (widening && !this.trust.widens(widening)) this.heldSettings.push(widening);
        else dirs.push(realPath(dir));
      }
      const m = loaded.defaultMode;
      if (m === undefined) continue;
      const widening: WideningSetting | null = inProject && m !== "default" && m !== "plan" ? { ...inProject, key: "defaultMode", mode: m } : null;
      if (widening && !this.trust.widens(widening)) this.heldSettings.push(widening);
      else mode = m;
    }
    for (const r of this.memoryRules) this.ctx.rules.add(r);
    this.ctx.extraDirs = [...new Set(dirs)];
    this.fileMode = mode;
    return mode;
  }

  private addCli(values: string[], behavior: Behavior, flag: string): void {
    splitRuleList(values).forEach((rule, index) => {
      const parsed = parseRule(rule);
      if (!parsed.ok) this.cliProblems.push({ file: flag, position: `${index}`, rule, message: `${parsed.message}; the rule is ignored` });
      else {
        const entry: RuleEntry = { rule, behavior, scope: "cli" };
        this.memoryRules.push(entry);
        this.ctx.rules.add(entry);
      }
    });
  }
}

/** `--allowedTools "Bash(git log *) Edit,Read"`: rules separated by commas or spaces outside parentheses. */
export function splitRuleList(values: string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    let depth = 0;
    let current = "";
    for (const c of v) {
      if (c === "(") depth++;
      if (c === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (c === "," || /\s/.test(c))) {
        if (current.trim()) out.push(current.trim());
        current = "";
      } else current += c;
    }
    if (current.trim()) out.push(current.trim());
  }
  return out;
}
