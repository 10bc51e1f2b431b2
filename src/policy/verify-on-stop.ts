// A model that edits files and stops without running a check usually leaves something broken.
// When that happens we remind it once (twice at most per user turn), naming the project's own
// test/build/lint commands so it need not guess.
import { existsSync } from "node:fs";
import { LIMITS, readRegularText } from "../workspace/safe-read.ts";
import { join } from "node:path";
import type { LoopPolicy, PolicyVerdict } from "../kernel/types.ts";
import { builtinFacts } from "../tools/builtin.ts";
import type { ToolCall } from "../tools/types.ts";

const MAX_NUDGES = 2;
const CHECK_WORDS =
  /\b(test|tests|spec|lint|check|typecheck|tsc|build|compile|pytest|unittest|jest|vitest|mocha|eslint|ruff|mypy|pyright|clippy|cargo|go (test|build|vet)|make|ctest|mvn|gradle|rspec|phpunit)\b/;

export function verifyOnStopPolicy(projectRoot: string): LoopPolicy {
  let editedSinceCheck = false;
  let nudges = 0;
  let commands: string[] | null = null;
  return {
    onUserTurn() {
      editedSinceCheck = false;
      nudges = 0;
    },
    afterTools(calls: ToolCall[], results): PolicyVerdict {
      calls.forEach((call, i) => {
        if (results[i]?.isError) return;
        // What the call did, as its tool says: edited a file, or ran a command (a check, perhaps).
        const facts = builtinFacts(call.name, call.input, projectRoot);
        if (facts.kind === "edit") editedSinceCheck = true;
        else if (facts.kind === "execute" && isCheckCommand(facts.command)) editedSinceCheck = false;
      });
      return { kind: "continue" };
    },
    onStop(): PolicyVerdict {
      if (!editedSinceCheck || nudges >= MAX_NUDGES) return { kind: "continue" };
      nudges++;
      editedSinceCheck = false;
      commands ??= findVerifyCommands(projectRoot);
      const named = commands.length > 0 ? ` This project's checks: ${commands.map((c) => `\`${c}\``).join(", ")}.` : "";
      return {
        kind: "nudge",
        tag: "verify",
        text: `You edited files but have not run any test, build or lint command since your last edit.${named} Run the relevant one and fix what it reports before you finish, or say why it cannot be run.`,
      };
    },
  };
}

function isCheckCommand(command: unknown): boolean {
  return typeof command === "string" && CHECK_WORDS.test(command);
}

/** The project's own verify commands, from the files that usually declare them. */
export function findVerifyCommands(root: string): string[] {
  const found: string[] = [];
  const read = (f: string) => {
    try {
      return readRegularText(join(root, f), LIMITS.smallConfig);
    } catch {
      return null;
    }
  };
  const pkg = read("package.json");
  if (pkg) {
    try {
      const scripts = (JSON.parse(pkg) as { scripts?: Record<string, string> }).scripts ?? {};
      const runner = existsSync(join(root, "bun.lock")) || existsSync(join(root, "bun.lockb")) ? "bun run" : "npm run";
      for (const name of ["test", "typecheck", "lint", "check", "build"]) if (scripts[name]) found.push(`${runner} ${name}`);
    } catch {
      // A broken package.json is the model's to find; it just names no commands.
    }
  }
  const makefile = read("Makefile");
  if (makefile)
    for (const target of ["test", "check", "lint"]) if (new RegExp(`^${target}:`, "m").test(makefile)) found.push(`make ${target}`);
  const pyproject = read("pyproject.toml");
  if (pyproject) {
    if (/pytest/.test(pyproject)) found.push("pytest");
    if (/\[tool\.ruff/.test(pyproject)) found.push("ruff check");
    if (/\[tool\.mypy/.test(pyproject)) found.push("mypy .");
  }
  if (read("Cargo.toml")) found.push("cargo test", "cargo clippy");
  if (read("go.mod")) found.push("go test ./...", "go vet ./...");
  return found;
}
