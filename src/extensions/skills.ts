// Skills as Claude Code keeps them: a folder with a SKILL.md (frontmatter name and description)
// in .khaelor/skills/, .claude/skills/ or .agents/skills/ of the project or the user. Only the
// name, description and path are put before the model; it reads the body (and the files beside
// it) with the read tool when the task calls for it.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { LIMITS, readTextIfExists } from "../workspace/safe-read.ts";
import { effortField, field, parseFrontmatter } from "./frontmatter.ts";
import type { PluginSource } from "./commands.ts";

/** A plugin's skill is named plugin:skill (its own name after the colon), as in Claude Code. `effort`: the level when it is asked for by name. */
export type Skill = { name: string; description: string; file: string; dir: string; scope: "project" | "user"; plugin?: PluginSource; effort?: string };
export type SkillDirs = { dir: string; scope: "project" | "user"; plugin?: PluginSource }[];

export function skillDirs(cwd: string, home: string, configDir: string): SkillDirs {
  // The user's own first, as in Claude Code (personal before project).
  return [
    { dir: join(configDir, "skills"), scope: "user" },
    { dir: join(home, ".claude", "skills"), scope: "user" },
    { dir: join(home, ".agents", "skills"), scope: "user" },
    { dir: join(cwd, ".khaelor", "skills"), scope: "project" },
    { dir: join(cwd, ".claude", "skills"), scope: "project" },
    { dir: join(cwd, ".agents", "skills"), scope: "project" },
  ];
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function loadSkills(dirs: SkillDirs): { skills: Skill[]; problems: string[] } {
  const byName = new Map<string, Skill>();
  const problems: string[] = [];
  for (const { dir, scope, plugin } of dirs) {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      const file = join(dir, entry, "SKILL.md");
      // Checked before it is opened: a SKILL.md that is a FIFO (or a link to /dev/zero) in a cloned
      // repository froze start-up, in every mode.
      let text: string | null;
      try {
        text = readTextIfExists(file, LIMITS.smallConfig);
      } catch (e) {
        problems.push(`${e instanceof Error ? e.message : String(e)}; the skill is not offered`);
        continue;
      }
      if (text === null) continue;
      const fm = parseFrontmatter(text);
      if (fm.problem) {
        problems.push(`${file}: ${fm.problem}; the skill is not offered`);
        continue;
      }
      const own = field(fm, "name") ?? entry;
      const description = field(fm, "description");
      if (!description) {
        problems.push(`${file}: no description in its frontmatter, so the model could not know when to use it; not offered`);
        continue;
      }
      if (!NAME.test(own)) {
        problems.push(`${file}: the name ${JSON.stringify(own)} must be lowercase letters, digits and hyphens; not offered`);
        continue;
      }
      const name = plugin ? `${plugin.name}:${own}` : own;
      const earlier = byName.get(name);
      if (earlier) {
        problems.push(`two skills are named ${name}: ${earlier.file} is used, ${file} is not`);
        continue;
      }
      const effort = effortField(fm, file, problems);
      byName.set(name, { name, description, file, dir: join(dir, entry), scope, ...(plugin ? { plugin } : {}), ...(effort ? { effort } : {}) });
    }
  }
  return { skills: [...byName.values()], problems };
}

/** The dynamic part of the system prompt lists these (never the bodies). */
export function skillsSection(skills: Skill[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((s) => `- ${s.name}: ${s.description} (${s.file})`);
  return [
    "# Skills",
    "Instructions the user keeps for particular tasks. When a task matches a skill's description, read its SKILL.md with the read tool first and follow it; files it mentions are beside it.",
    ...lines,
  ].join("\n");
}
