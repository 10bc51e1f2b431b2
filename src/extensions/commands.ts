// Custom slash commands as Claude Code keeps them: markdown files in .khaelor/commands/ and
// .claude/commands/ of the project, ~/.config/khaelor/commands/ and ~/.claude/commands/ of the
// user; a subfolder is a namespace (frontend/component.md is /frontend:component). The first
// place that defines a name wins, project before user, and the loser is named in a notice.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { LIMITS, readRegularText } from "../workspace/safe-read.ts";
import { effortField, field, listField, parseFrontmatter } from "./frontmatter.ts";

export type CustomCommand = {
  name: string;
  description: string;
  argumentHint?: string;
  model?: string;
  /** `effort`: the effort level for this command's turn (src/model/effort.ts). */
  effort?: string;
  allowedTools: string[];
  body: string;
  file: string;
  scope: "project" | "user";
  /** A plugin's command: named /plugin:command, reachable as /command where no other has that name. */
  plugin?: PluginSource;
};

/** A plugin's folder of commands or skills, and whether the plugin is on now (a project's waits for trust). */
export type PluginSource = { name: string; active: () => boolean };
export type CommandDirs = { dir: string; scope: "project" | "user"; plugin?: PluginSource }[];

export function commandDirs(cwd: string, home: string, configDir: string): CommandDirs {
  // The user's own first: a repository's command of the same name never replaces the one the user
  // has (as in Claude Code, personal before project).
  return [
    { dir: join(configDir, "commands"), scope: "user" },
    { dir: join(home, ".claude", "commands"), scope: "user" },
    { dir: join(cwd, ".khaelor", "commands"), scope: "project" },
    { dir: join(cwd, ".claude", "commands"), scope: "project" },
  ];
}

const MAX_DEPTH = 4;

export function loadCommands(dirs: CommandDirs): { commands: CustomCommand[]; problems: string[] } {
  const byName = new Map<string, CustomCommand>();
  const problems: string[] = [];
  for (const { dir, scope, plugin } of dirs) {
    for (const file of markdownFiles(dir, 0)) {
      const own = relative(dir, file).replace(/\.md$/i, "").split(/[\\/]/).join(":");
      const name = plugin ? `${plugin.name}:${own}` : own;
      let text: string;
      try {
        text = readRegularText(file, LIMITS.smallConfig);
      } catch (e) {
        problems.push(`${e instanceof Error ? e.message : String(e)}; /${name} is not available`);
        continue;
      }
      const fm = parseFrontmatter(text);
      if (fm.problem) problems.push(`${file}: ${fm.problem}`);
      const cmd: CustomCommand = {
        name,
        description: field(fm, "description") ?? firstLine(fm.body) ?? `(${scope} command)`,
        allowedTools: listField(fm, "allowed-tools"),
        body: fm.body,
        file,
        scope,
        ...(plugin ? { plugin } : {}),
      };
      const hint = field(fm, "argument-hint");
      if (hint) cmd.argumentHint = hint;
      const model = field(fm, "model");
      if (model) cmd.model = model;
      const effort = effortField(fm, file, problems);
      if (effort) cmd.effort = effort;
      const earlier = byName.get(name);
      if (earlier) {
        problems.push(`/${name} is defined twice: ${earlier.file} is used, ${file} is not`);
        continue;
      }
      byName.set(name, cmd);
    }
  }
  return { commands: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}

function markdownFiles(dir: string, depth: number): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names) {
    if (n.startsWith(".")) continue;
    const p = join(dir, n);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory() && depth < MAX_DEPTH) out.push(...markdownFiles(p, depth + 1));
    else if (st.isFile() && /\.md$/i.test(n)) out.push(p);
  }
  return out;
}

function firstLine(body: string): string | undefined {
  const line = body.split("\n").find((l) => l.trim())?.trim().replace(/^#+\s*/, "");
  return line ? (line.length > 80 ? `${line.slice(0, 79)}…` : line) : undefined;
}
