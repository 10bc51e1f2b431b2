// Subagent definitions as Claude Code keeps them: markdown files with frontmatter (name,
// description, tools, disallowedTools, model, effort, maxTurns; the body is the system prompt) in
// .claude/agents/ and .khaelor/agents/ of the project, ~/.claude/agents/ and
// ~/.config/khaelor/agents/ of the user; and the same fields as JSON (--agents, the Agent SDK's
// `agents`). A project's file is a prompt, not a command: it needs no trust, and it cannot widen
// what the session's permissions allow (the child asks the parent's gate). A file whose
// frontmatter is broken is skipped with a notice naming the file and the field.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { LIMITS, readRegularText } from "../workspace/safe-read.ts";
import { field, listField, parseFrontmatter } from "./frontmatter.ts";

export type AgentEffortLevel = "low" | "medium" | "high" | "max";

/** Where a definition comes from, highest priority first after the session's own. */
export type AgentSource = "session" | "project" | "user" | "built-in";

export type AgentDefinition = {
  name: string;
  description: string;
  /** The child's system prompt. */
  prompt: string;
  /** Claude Code's tool names ("Read", "Bash"); absent: every tool the parent has (but the agent tool). */
  tools?: string[];
  disallowedTools: string[];
  /** sonnet, opus, haiku, inherit or a model id; absent: the parent's. */
  model?: string;
  effort?: AgentEffortLevel;
  maxTurns?: number;
  /** Leave the project's instruction files and git status out of its prompt (Claude Code's Explore and Plan do). */
  omitClaudeMd?: boolean;
  source: AgentSource;
  file?: string;
};

export type AgentDirs = { dir: string; scope: "project" | "user" }[];

export function agentDirs(cwd: string, home: string, configDir: string): AgentDirs {
  // Project before user, as Claude Code: a repository's reviewer replaces the user's of that name.
  return [
    { dir: join(cwd, ".khaelor", "agents"), scope: "project" },
    { dir: join(cwd, ".claude", "agents"), scope: "project" },
    { dir: join(configDir, "agents"), scope: "user" },
    { dir: join(home, ".claude", "agents"), scope: "user" },
  ];
}

const EFFORTS = ["low", "medium", "high", "max"] as const;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** One definition's fields, from frontmatter (strings) or JSON; a problem names the field. */
function checkFields(raw: { name?: string; description?: string; tools?: string[]; disallowedTools?: string[]; model?: string; effort?: string; maxTurns?: string | number }): { problem: string } | Omit<AgentDefinition, "prompt" | "source" | "file"> {
  if (!raw.name) return { problem: `field "name" is missing` };
  if (!NAME.test(raw.name)) return { problem: `field "name": ${JSON.stringify(raw.name.slice(0, 60))} is not a name (letters, digits, - _ . :)` };
  if (!raw.description) return { problem: `field "description" is missing` };
  if (raw.effort !== undefined && !(EFFORTS as readonly string[]).includes(raw.effort)) return { problem: `field "effort": must be one of ${EFFORTS.join(", ")}` };
  let maxTurns: number | undefined;
  if (raw.maxTurns !== undefined && raw.maxTurns !== "") {
    maxTurns = typeof raw.maxTurns === "number" ? raw.maxTurns : Number(raw.maxTurns);
    if (!Number.isInteger(maxTurns) || maxTurns < 1) return { problem: `field "maxTurns": must be a whole number of at least 1` };
  }
  if (raw.model !== undefined && !/^[\w.:@/-]+$/.test(raw.model)) return { problem: `field "model": ${JSON.stringify(raw.model.slice(0, 60))} is not a model name` };
  return {
    name: raw.name,
    description: raw.description,
    ...(raw.tools !== undefined ? { tools: raw.tools } : {}),
    disallowedTools: raw.disallowedTools ?? [],
    ...(raw.model ? { model: raw.model } : {}),
    ...(raw.effort ? { effort: raw.effort as AgentEffortLevel } : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
  };
}

/** One agent file; a problem (naming the file and the field) means it is skipped. */
export function parseAgentFile(file: string, text: string, scope: "project" | "user"): AgentDefinition | { problem: string } {
  const fm = parseFrontmatter(text);
  if (fm.problem) return { problem: `${file}: ${fm.problem.replace(/; (read as plain text|frontmatter ignored)$/, "")}; agent skipped` };
  if (Object.keys(fm.data).length === 0) return { problem: `${file}: no frontmatter (--- name: … description: … ---); agent skipped` };
  const list = (key: string) => (fm.data[key] === undefined ? undefined : listField(fm, key));
  const checked = checkFields({
    name: field(fm, "name"),
    description: field(fm, "description"),
    tools: list("tools"),
    disallowedTools: list("disallowedTools"),
    model: field(fm, "model"),
    effort: field(fm, "effort"),
    maxTurns: field(fm, "maxTurns"),
  });
  if ("problem" in checked) return { problem: `${file}: ${checked.problem}; agent skipped` };
  return { ...checked, prompt: fm.body.trim(), source: scope, file };
}

export function loadAgentFiles(dirs: AgentDirs): { agents: AgentDefinition[]; problems: string[] } {
  const byName = new Map<string, AgentDefinition>();
  const problems: string[] = [];
  for (const { dir, scope } of dirs) {
    for (const file of agentFiles(dir)) {
      let text: string;
      try {
        text = readRegularText(file, LIMITS.smallConfig);
      } catch (e) {
        problems.push(`${e instanceof Error ? e.message : String(e)}; agent skipped`);
        continue;
      }
      const def = parseAgentFile(file, text, scope);
      if ("problem" in def) {
        problems.push(def.problem);
        continue;
      }
      const earlier = byName.get(def.name);
      if (earlier) {
        problems.push(`agent ${def.name} is defined twice: ${earlier.file} is used, ${file} is not`);
        continue;
      }
      byName.set(def.name, def);
    }
  }
  return { agents: [...byName.values()], problems };
}

const JsonAgent = z.object({
  description: z.string(),
  prompt: z.string(),
  tools: z.array(z.string()).optional(),
  disallowedTools: z.array(z.string()).optional(),
  model: z.string().optional(),
  effort: z.string().optional(),
  maxTurns: z.number().optional(),
});

/** --agents '<json>' or the SDK's `agents`: {name: {description, prompt, tools?, …}}; a bad entry is skipped with its problem. */
export function parseAgentsJson(value: unknown, from: string): { agents: AgentDefinition[]; problems: string[] } {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { agents: [], problems: [`${from}: expected an object of agents by name`] };
  const agents: AgentDefinition[] = [];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const p = JsonAgent.safeParse(raw);
    if (!p.success) {
      const issue = p.error.issues[0];
      problems.push(`${from}: agent ${name}: field "${issue?.path.join(".") || "(definition)"}": ${issue?.message ?? "invalid"}; agent skipped`);
      continue;
    }
    const checked = checkFields({ name, ...p.data });
    if ("problem" in checked) {
      problems.push(`${from}: agent ${name}: ${checked.problem}; agent skipped`);
      continue;
    }
    agents.push({ ...checked, prompt: p.data.prompt, source: "session" });
  }
  return { agents, problems };
}

function agentFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names
    .filter((n) => !n.startsWith(".") && /\.md$/i.test(n))
    .map((n) => join(dir, n))
    .filter((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
}
