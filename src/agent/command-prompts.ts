// The prompts behind /init and /review: built-in commands that ask the model for a piece of work
// with what it needs attached. The prompts' text is kept beside this file (./prompts/*.md); this
// fills them in from the project: which instruction files exist (/init updates one rather than
// adding a second, anomalyco/opencode#1906), and the diff to review (through KHAELOR's own hardened
// git, so no repository config runs a command).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { git, GitError, gitMaybe } from "../workspace/git/run-git.ts";
import initTemplate from "./prompts/init.md" with { type: "text" };
import reviewTemplate from "./prompts/review.md" with { type: "text" };

/** A prompt to send as the user's turn, or why there is nothing to send (said to the user). */
export type CommandPrompt = { prompt: string } | { message: string };

/** The diff sent with /review is cut here (about 30k tokens); the model is told how to read the rest. */
export const REVIEW_DIFF_LIMIT = 120_000;

/** What an empty project may hold: tools' own folders are not the project. */
const NOT_THE_PROJECT = new Set([".git", ".khaelor", ".claude", ".DS_Store"]);

/** Other agents' instruction files /init folds into the one it writes. */
const OTHER_AGENT_FILES = [".cursorrules", ".cursor/rules", ".windsurfrules", ".clinerules", ".github/copilot-instructions.md", "GEMINI.md", "CONVENTIONS.md"];

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{([A-Z_]+)\}\}/g, (m, k: string) => values[k] ?? m);

export function initPrompt(cwd: string): CommandPrompt {
  let names: string[];
  try {
    names = readdirSync(cwd);
  } catch (e) {
    return { message: `/init cannot read ${cwd}: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (names.every((n) => NOT_THE_PROJECT.has(n)))
    return { message: `/init studies a project to write its AGENTS.md, but ${cwd} is empty: there is nothing to study yet. Start KHAELOR in the project's directory, or create the project first (ask for it in a message).` };
  const agents = existsSync(join(cwd, "AGENTS.md"));
  const claude = existsSync(join(cwd, "CLAUDE.md"));
  const others = OTHER_AGENT_FILES.filter((f) => existsSync(join(cwd, f)));
  const [task, existing] =
    agents && claude
      ? ["update its AGENTS.md and CLAUDE.md", "AGENTS.md and CLAUDE.md both exist: read both first. Update the one that holds the project's instructions in place with the edit tool (if one only points to the other, leave that one alone); keep what is still true, fix what is stale or wrong, add what is missing. Do not create any other instruction file."]
      : agents || claude
        ? [`update its ${agents ? "AGENTS.md" : "CLAUDE.md"}`, `${agents ? "AGENTS.md" : "CLAUDE.md"} already exists: read it first and update it in place with the edit tool; keep what is still true, fix what is stale or wrong, add what is missing. Do not create ${agents ? "CLAUDE.md" : "AGENTS.md"} or any second instruction file: KHAELOR reads either.`]
        : ["write AGENTS.md at its root", "There is no AGENTS.md or CLAUDE.md here yet: create ./AGENTS.md with the write tool."];
  return { prompt: fill(initTemplate, { TASK: task, EXISTING: existing, OTHER_FILES: others.length > 0 ? `found: ${others.join(", ")}` : "none found" }).trimEnd() };
}

/**
 * /review alone: the work tree's uncommitted changes (staged and not) against HEAD, and the
 * untracked files by name. /review REF: `git diff REF` (a commit compared with the work tree, or a
 * range such as main...HEAD).
 */
export async function reviewPrompt(cwd: string, ref: string): Promise<CommandPrompt> {
  if (ref.startsWith("-") || /\s/.test(ref)) return { message: `/review takes a git ref or range (such as main...HEAD or HEAD~3), not "${ref}".` };
  if ((await gitMaybe(["rev-parse", "--show-toplevel"], { cwd })) === null) return { message: `/review reviews git changes, but ${cwd} is not in a git repository.` };
  let diff: string;
  let untracked: string[] = [];
  let what: string;
  let command: string;
  try {
    if (ref) {
      diff = await git(["diff", "--no-color", ref, "--"], { cwd });
      what = `the changes of \`${ref}\` (git diff ${ref})`;
      command = `git diff ${ref}`;
    } else {
      const head = await gitMaybe(["rev-parse", "--verify", "--quiet", "HEAD"], { cwd });
      diff = head ? await git(["diff", "--no-color", "HEAD", "--"], { cwd }) : await git(["diff", "--no-color", "--cached", "--"], { cwd });
      untracked = (await git(["ls-files", "--others", "--exclude-standard", "-z"], { cwd })).split("\0").filter((f) => f !== "");
      what = "the uncommitted changes in the work tree (git diff HEAD: staged and unstaged)";
      command = head ? "git diff HEAD" : "git diff --cached";
    }
  } catch (e) {
    const why = e instanceof GitError ? e.stderr.trim().split("\n")[0] || e.message : e instanceof Error ? e.message : String(e);
    return { message: `/review could not get the diff${ref ? ` of ${ref}` : ""}: ${why}` };
  }
  if (diff.trim() === "" && untracked.length === 0)
    return { message: ref ? `/review: \`git diff ${ref}\` shows no changes.` : "/review: nothing to review, the work tree has no changes against HEAD (name a ref or range, such as /review main...HEAD)." };
  const cut = diff.length > REVIEW_DIFF_LIMIT ? ` (cut at ${REVIEW_DIFF_LIMIT.toLocaleString("en-US")} of its ${diff.length.toLocaleString("en-US")} characters: run \`${command}\` on the files it leaves out)` : "";
  const untrackedNote = untracked.length > 0 ? `New files git does not track yet (not in the diff; read them): ${untracked.slice(0, 100).join(", ")}${untracked.length > 100 ? ` and ${untracked.length - 100} more` : ""}.\n\n` : "";
  return { prompt: fill(reviewTemplate, { WHAT: what, CUT: cut, UNTRACKED: untrackedNote, DIFF: diff.slice(0, REVIEW_DIFF_LIMIT).trimEnd() }).trimEnd() };
}
