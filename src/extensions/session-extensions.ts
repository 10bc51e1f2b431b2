// The custom commands and skills one session offers, and what `/name args` becomes for the model.
import { loadCommands, commandDirs, type CustomCommand, type PluginSource } from "./commands.ts";
import { expandBody, parseSlash, type Expander } from "./expand.ts";
import { loadSkills, skillDirs, skillsSection, type Skill } from "./skills.ts";
import { fingerprintOf, type TrustItem } from "../trust/project-trust.ts";

/** What the composer completes and /help lists. */
export type SlashEntry = { name: string; description: string; argumentHint?: string; kind: "command" | "skill"; file: string; scope: "project" | "user"; /** The plugin it comes from. */ plugin?: string };

/** A plugin's commands/ and skills/ (src/plugins), with whether the plugin is on now. */
export type PluginExtensions = PluginSource & { commandsDir: string; skillsDir: string };

/**
 * A `/name args` found: what the command asks for this turn only, and its prompt, made once the
 * turn grants what it asks (its allowed-tools are what let its !`cmd` lines run, as in Claude Code).
 */
export type FoundCommand = {
  model?: string;
  /** Its effort level for this turn; a project's raises the session's only where its trust item holds. */
  effort?: string;
  /** From the project's files (a project skill's effort may only lower the session's: it has no trust item). */
  project: boolean;
  allowedTools: string[];
  /** A project command's allowed-tools are granted only once the project is trusted (src/trust). */
  trust?: TrustItem;
  entry: SlashEntry;
  expand(x: Expander): Promise<string>;
};

export type SessionExtensions = {
  problems: string[];
  skills: Skill[];
  /** For the dynamic part of the system prompt ("" without skills). */
  skillsPrompt: string;
  entries(): SlashEntry[];
  /** The project's commands that grant tools (allowed-tools) or pick a model: what the trust question lists. */
  trustItems: TrustItem[];
  /** Null when the input is not one of these commands (built-ins are the mode's, and win). */
  find(input: string): FoundCommand | null;
};

export function loadSessionExtensions(cwd: string, home: string, configDir: string, plugins: PluginExtensions[] = []): SessionExtensions {
  // A plugin's are the user's own (a project's plugin is on only once trusted), after the user's and the project's.
  const source = (p: PluginExtensions): PluginSource => ({ name: p.name, active: p.active });
  const c = loadCommands([...commandDirs(cwd, home, configDir), ...plugins.map((p) => ({ dir: p.commandsDir, scope: "user" as const, plugin: source(p) }))]);
  const s = loadSkills([...skillDirs(cwd, home, configDir), ...plugins.map((p) => ({ dir: p.skillsDir, scope: "user" as const, plugin: source(p) }))]);
  const problems = [...c.problems, ...s.problems];
  const commands = new Map<string, CustomCommand>(c.commands.map((x) => [x.name, x]));
  const skills = new Map<string, Skill>();
  for (const skill of s.skills) {
    const clash = commands.get(skill.name);
    if (clash) problems.push(`/${skill.name} is both a command (${clash.file}, used) and a skill (${skill.file}); the skill is still offered to the model`);
    else skills.set(skill.name, skill);
  }
  const on = (x: { plugin?: PluginSource }) => !x.plugin || x.plugin.active();
  const entryOf = (x: CustomCommand): SlashEntry => ({ name: x.name, description: x.description, ...(x.argumentHint ? { argumentHint: x.argumentHint } : {}), kind: "command", file: x.file, scope: x.scope, ...(x.plugin ? { plugin: x.plugin.name } : {}) });
  // A project command's grants and its model hold only in a trusted project.
  const trust = new Map([...commands.values()].filter((x) => x.scope === "project" && (x.allowedTools.length > 0 || x.model || x.effort)).map((x) => [x.name, commandTrustItem(x)]));
  const skillEntry = (k: Skill): SlashEntry => ({ name: k.name, description: k.description, kind: "skill", file: k.file, scope: k.scope, ...(k.plugin ? { plugin: k.plugin.name } : {}) });
  // The system prompt is written once: a plugin trusted later offers its skills by name (/plugin:skill) this session, in the list from the next.
  const offered = s.skills.filter(on);
  const lookup = byName(commands, skills, on);
  return {
    problems,
    skills: offered,
    skillsPrompt: skillsSection(offered),
    trustItems: [...trust.values()],
    entries: () => [...[...commands.values()].filter(on).map(entryOf), ...[...skills.values()].filter(on).map(skillEntry)].sort((a, b) => a.name.localeCompare(b.name)),
    find(input) {
      const slash = parseSlash(input);
      if (!slash) return null;
      const { cmd, skill } = lookup(slash.name);
      if (cmd) {
        const item = trust.get(cmd.name);
        return { ...(cmd.model ? { model: cmd.model } : {}), ...(cmd.effort ? { effort: cmd.effort } : {}), project: cmd.scope === "project", allowedTools: cmd.allowedTools, ...(item ? { trust: item } : {}), entry: entryOf(cmd), expand: (x) => expandBody(cmd.body, slash.args, x) };
      }
      if (skill) {
        // Asked for by name, the skill's instructions are the task: the model reads SKILL.md now.
        const prompt = `Use the skill "${skill.name}": read ${skill.file} with the read tool and follow it${slash.args ? ` for this: ${slash.args}` : "."}`;
        return { ...(skill.effort ? { effort: skill.effort } : {}), project: skill.scope === "project", allowedTools: [], entry: skillEntry(skill), expand: async () => prompt };
      }
      return null;
    },
  };
}

/**
 * A command or skill by its name, or by a plugin's bare name (/review for /my-plugin:review) when
 * only one plugin on now has it and nothing else is called that.
 */
function byName(commands: Map<string, CustomCommand>, skills: Map<string, Skill>, on: (x: { plugin?: PluginSource }) => boolean) {
  return (name: string): { cmd?: CustomCommand; skill?: Skill } => {
    const cmd = commands.get(name);
    const skill = skills.get(name);
    if (cmd || skill) return cmd && on(cmd) ? { cmd } : skill && on(skill) ? { skill } : {};
    const bare = (x: { name: string; plugin?: PluginSource }) => !!x.plugin && x.name === `${x.plugin.name}:${name}` && on(x);
    const found = [...[...commands.values()].filter(bare).map((c) => ({ cmd: c })), ...[...skills.values()].filter(bare).map((k) => ({ skill: k }))];
    return found.length === 1 ? found[0]! : {};
  };
}

/**
 * What the trust question shows for a project command that grants tools or picks a model: the
 * grants, the lines they would let run unasked, the model. Its body is in the fingerprint, so a changed body asks again.
 */
function commandTrustItem(x: CustomCommand): TrustItem {
  const lines = [...x.body.matchAll(/!`([^`\n]+)`/g)].map((m) => m[1]!);
  return {
    kind: "command",
    name: `/${x.name}`,
    file: x.file,
    command: [
      x.allowedTools.length > 0 ? `allowed-tools: ${x.allowedTools.join(", ")}${lines.length > 0 ? `; runs ${lines.map((l) => `\`${l}\``).join(", ")}` : ""}` : "",
      x.model ? `uses the model ${x.model} (billed to your key)` : "",
      x.effort ? `runs at effort ${x.effort} (billed to your key)` : "",
    ]
      .filter(Boolean)
      .join("; "),
    // The model joins the fingerprint only where there is one: grants trusted before keep their answer.
    fingerprint: fingerprintOf({ command: x.name, allowedTools: x.allowedTools, body: x.body, ...(x.model ? { model: x.model } : {}), ...(x.effort ? { effort: x.effort } : {}) }),
  };
}
