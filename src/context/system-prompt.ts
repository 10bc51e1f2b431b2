// The system prompt: a static block (identity, how to work, tool guidance) that is byte-identical
// for every session in every directory, marked for the prompt cache so all sessions share it; then
// a dynamic block (date, cwd, git status, project instructions) that is stable within a session.
// Build it once per session, not per turn: anything that changed between turns here would sit in
// front of every message and void the conversation's cache.
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { looksBinary } from "../workspace/encoding.ts";
import { gitSync } from "../workspace/git/run-git.ts";
import { readRegularFile, stripBom } from "../workspace/safe-read.ts";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { SystemBlock } from "../model/types.ts";
import { shellEquivalents } from "../tools/builtin.ts";

export type ProjectInstructions = Array<{ path: string; content: string }>;

export type SystemPromptOptions = {
  cwd: string;
  date: Date;
  gitStatus: string | null;
  instructions: ProjectInstructions;
  toolNames: string[];
  /** More sections for the dynamic part (the skills list); "" is left out. */
  extra?: string[];
};

const IDENTITY = `You are KHAELOR, a coding agent working in the user's terminal. You read, change and run code in the user's project with the tools you are given, and you finish the task you are asked to do.`;

const HOW_TO_WORK = `# How to work
- Understand before you change: read the relevant code, search for callers and tests, and follow the project's existing conventions (style, libraries, structure).
- Make the smallest change that fully solves the task. Do not refactor, rename or reformat unrelated code.
- After changing code, verify it: run the project's tests, type checker, linter or build, whichever applies. If something fails, fix it and run it again. Say so plainly if you could not verify.
- Never claim to have done something you did not do. If you are blocked, say what blocks you and what you need.
- Be careful with anything destructive or hard to undo (deleting files, force-pushing, dropping data); prefer reversible steps and explain them first.
- Do not commit, push or publish unless the user asks you to.

# How to answer
- Be brief and direct; the user sees your text in a terminal, rendered as Markdown. Use code blocks for code and commands.
- Refer to code as \`path/to/file.ts:42\` so the user can jump to it.
- When you finish, summarise what you changed and how you verified it, in a few lines.`;

/**
 * What holds across the tools: said once here, not in every tool's description. The shell
 * equivalents (each tool's own) are named only for tools the session has, in the tools' order, so
 * the same tool set always yields the same bytes.
 */
function toolSection(toolNames: string[]): string {
  if (toolNames.length === 0) return "";
  const lines = [
    "- Make tool calls that do not depend on each other in the same turn (several reads, searches or commands at once).",
    "- Paths may be absolute or relative to the working directory.",
    "- A call the user's permission rules deny, or the user declines, comes back as an error with the reason: do not retry it unchanged or get around it with another tool; change your approach or ask the user.",
  ];
  const preferred = shellEquivalents(toolNames);
  if (preferred.length > 0) lines.push(`- Prefer the dedicated tools to shell commands: ${preferred.join("; ")}.`);
  return `# Tools\n${lines.join("\n")}`;
}

export function buildSystemPrompt(opts: SystemPromptOptions): SystemBlock[] {
  const staticText = [IDENTITY, HOW_TO_WORK, toolSection(opts.toolNames)].filter((s) => s !== "").join("\n\n");
  return [
    { type: "text", text: staticText, cache_control: { type: "ephemeral" } },
    { type: "text", text: dynamicText(opts) },
  ];
}

/** Where and when the model works: the main prompt's, and each subagent's (as Claude Code gives one). */
export function environmentSection(cwd: string, date: Date): string {
  return `# Environment\n- Working directory: ${cwd}\n- Today's date: ${isoDate(date)}\n- Platform: ${process.platform}`;
}

function dynamicText(opts: SystemPromptOptions): string {
  const parts = [environmentSection(opts.cwd, opts.date), projectSection(opts)];
  for (const x of opts.extra ?? []) if (x) parts.push(x);
  return parts.join("\n\n");
}

/** The git status and the project's instruction files: the main prompt's, and a subagent's. */
export function projectSection(opts: Pick<SystemPromptOptions, "gitStatus" | "instructions">): string {
  const parts = [opts.gitStatus ? `# Git status at session start (it may have changed since)\n${opts.gitStatus}` : "# Git\nThe working directory is not inside a git repository."];
  for (const i of opts.instructions) parts.push(instructionSection(i));
  return parts.join("\n\n");
}

/** One instruction file as the system prompt includes it (/context counts exactly this). */
export function instructionSection(i: { path: string; content: string }): string {
  return `# Instructions from ${i.path}\nThe user wrote these for this project; follow them unless the user says otherwise.\n\n${i.content.trim()}`;
}

/** The local calendar date: the day is what matters, and the time would change every call. */
function isoDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];
const MAX_INSTRUCTION_BYTES = 40_000;

/**
 * AGENTS.md and CLAUDE.md from the git root down to `cwd` (outermost first, so the nearest file
 * speaks last), after the user's own ~/.config/khaelor/AGENTS.md. Outside a git repository only
 * `cwd` itself is searched: walking up to / would pick up files from unrelated projects.
 */
export type InstructionOptions = {
  configDir?: string;
  /**
   * Whether the permission rules let this (real) path be read: "allow", or why not. Without it
   * only the place is checked. The user's own file needs only not to be denied.
   */
  mayRead?: (realPath: string, own: boolean) => true | string;
  /** An instruction file that was there but not read, and why (shown to the user as a notice). */
  onSkip?: (path: string, why: string) => void;
};

/**
 * An instruction file is read only where it really is inside the project or the user's config
 * directory: `AGENTS.md -> /proc/self/environ` put the whole environment (API key included) into
 * every request, `CLAUDE.md -> ~/.ssh/id_rsa` passed a Read(~/.ssh/**) deny.
 */
function instructionPlace(path: string, roots: string[]): string | null {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return null;
  }
  return roots.some((r) => real === r || real.startsWith(r.endsWith("/") ? r : r + "/")) ? real : null;
}

export function loadProjectInstructions(cwd: string, opts: InstructionOptions = {}): ProjectInstructions {
  const configDir = opts.configDir ?? join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "khaelor");
  const dirs: string[] = [];
  const root = gitRoot(cwd);
  for (let d = cwd; ; d = dirname(d)) {
    dirs.unshift(d);
    if (root === null || d === root || dirname(d) === d) break;
  }
  const out: ProjectInstructions = [];
  const seen = new Set<string>();
  const realOf = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const projectRoot = realOf(root ?? cwd);
  const realConfig = realOf(configDir);
  const add = (path: string, own: boolean) => {
    if (!existsSync(path) && !isLink(path)) return;
    const real = instructionPlace(path, own ? [realConfig] : [projectRoot]);
    if (real === null) {
      opts.onSkip?.(path, `it leads outside ${own ? "your config directory" : "the project"}`);
      return;
    }
    const may = opts.mayRead?.(real, own) ?? true;
    if (may !== true) {
      opts.onSkip?.(path, may);
      return;
    }
    const content = readBounded(real);
    if (content === null || content.trim() === "" || seen.has(content)) return;
    seen.add(content);
    out.push({ path, content });
  };
  add(join(configDir, "AGENTS.md"), true);
  for (const d of dirs) for (const f of INSTRUCTION_FILES) add(join(d, f), false);
  return out;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function gitRoot(cwd: string): string | null {
  for (let d = cwd; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d;
    if (dirname(d) === d) return null;
  }
}

function readBounded(path: string): string | null {
  try {
    const { bytes, truncated } = readRegularFile(path, { maxBytes: MAX_INSTRUCTION_BYTES, truncate: true });
    if (looksBinary(bytes)) return null;
    const text = stripBom(bytes.toString("utf8"));
    if (!truncated) return text;
    return `${text}\n\n[... ${path} is longer; the rest was left out. Read the file for more.]`;
  } catch {
    return null;
  }
}

const MAX_STATUS_LINES = 30;
/** Bounded so a huge or slow repository cannot stall startup for long. */
const GIT_TIMEOUT_MS = 2000;

/**
 * Branch, changed files and recent commits, bounded; null outside a repository or without git.
 * Synchronous: it runs once per session, before the first request needs the prompt.
 */
export function gitStatusSummary(cwd: string): string | null {
  // Submodules' changes inside them are left out: git would look with each one's own config.
  const status = git(cwd, ["status", "--porcelain=v1", "--branch", "--untracked-files=normal", "--ignore-submodules=dirty"], true);
  if (status === null) return null;
  const [head = "", ...changes] = status.split("\n").filter((l) => l !== "");
  const branch = head.replace(/^## /, "").replace(/^No commits yet on /, "") || "(unknown)";
  const lines = [`Branch: ${branch}`];
  if (changes.length === 0) lines.push("Working tree clean.");
  else {
    lines.push(`Changed files (${changes.length}):`);
    lines.push(...changes.slice(0, MAX_STATUS_LINES));
    if (changes.length > MAX_STATUS_LINES) lines.push(`... and ${changes.length - MAX_STATUS_LINES} more`);
  }
  const log = git(cwd, ["log", "--oneline", "--no-decorate", "-n", "5"]);
  if (log) lines.push("Recent commits:", ...log.split("\n").filter((l) => l !== "").map((l) => l.slice(0, 120)));
  return lines.join("\n");
}

function git(cwd: string, args: string[], readsWorkTree = false): string | null {
  // status reads changed files through the filters .gitattributes picks: those are blanked
  return gitSync(args, { cwd, timeoutMs: GIT_TIMEOUT_MS, blankFilters: readsWorkTree })?.slice(0, 16_000) ?? null;
}
