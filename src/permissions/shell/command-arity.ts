// "Allow always" for a shell command suggests the narrowest rule that is still useful: how many
// leading words name the action (`git push`, `npm run test`, `docker compose up`) comes from this
// arity table, looked up by the command's name without its directory (`/usr/bin/git push`); the
// rest are arguments and become ` *`.
import { basename } from "node:path";
import { isWrapperName, unwrapCommand } from "./command-wrappers.ts";
import { literalWord } from "./shell-words.ts";

const ARITY: Record<string, number> = {
  git: 2, "git remote": 3, "git stash": 3, "git worktree": 3, "git submodule": 3, "git config": 3,
  npm: 2, "npm run": 3, "npm exec": 3, yarn: 2, "yarn run": 3, "yarn workspace": 4, pnpm: 2, "pnpm run": 3,
  "pnpm --filter": 4, bun: 2, "bun run": 3, "bun x": 3, npx: 2, bunx: 2, pnpx: 2, deno: 2, "deno task": 3,
  cargo: 2, "cargo +nightly": 3, go: 2, "go mod": 3, rustup: 2, dotnet: 2, mvn: 2, gradle: 2, "./gradlew": 2,
  make: 2, just: 2, cmake: 2, bazel: 2, pip: 2, pip3: 2, uv: 2, "uv run": 3, "uv pip": 3, poetry: 2, "poetry run": 3,
  python: 2, python3: 2, "python -m": 3, "python3 -m": 3, node: 2, ruby: 2, bundle: 2, "bundle exec": 3, rake: 2,
  docker: 2, "docker compose": 3, "docker container": 3, "docker image": 3, podman: 2, kubectl: 2,
  "kubectl get": 3, "kubectl describe": 3, "kubectl apply": 3, "kubectl delete": 3, helm: 2, terraform: 2,
  gh: 3, "gh api": 2, brew: 2, apt: 2, "apt-get": 2, systemctl: 2, tsc: 1, jest: 1, vitest: 2, pytest: 1,
  // Interpreters: the script is the action (`sh run.sh *`, never `sh *`, which would allow anything).
  sh: 2, bash: 2, zsh: 2, dash: 2, perl: 2, php: 2, lua: 2, Rscript: 2, java: 2, "java -jar": 3,
};

/**
 * The leading words a rule should pin, or null when the command cannot be generalised (it has an
 * option where its action should be, or fewer words than its action needs): then the exact
 * command is the narrowest useful rule.
 */
export function actionPrefix(words: string[]): string[] | null {
  let arity = 1;
  const named = [basename(words[0] ?? ""), ...words.slice(1)];
  for (let n = Math.min(words.length, 4); n >= 1; n--) {
    const key = named.slice(0, n).join(" ");
    const a = ARITY[key];
    if (a !== undefined) {
      arity = a;
      break;
    }
  }
  if (words.length < arity) return null;
  const prefix = words.slice(0, arity);
  // `git --version`: an option in the action position; `python -m x` is listed explicitly above
  if (prefix.slice(1).some((w, i) => w.startsWith("-") && ARITY[named.slice(0, i + 2).join(" ")] === undefined)) return null;
  return prefix;
}

/** Commands whose next use may destroy something else: "allow always" covers only this exact one. */
const EXACT_ONLY = new Set(["rm", "rmdir", "unlink", "shred", "dd", "truncate", "kill", "pkill", "killall", "chmod", "chown", "chgrp"]);

/**
 * `Bash(git push *)` for `git push origin main`; `Bash(git --version)` when nothing generalises.
 * The exact command when what runs is destructive however it is spelled (`/bin/rm`, `sudo rm`,
 * `env kill`), or when the action word would be a wrapper or elevator (`sudo *` allows anything).
 */
export function suggestCommandRule(tool: "Bash" | "Process", words: string[]): string {
  const runs = unwrapCommand(words.map(literalWord), { throughSudo: true }).argv[0]?.text ?? "";
  const name = basename(runs);
  const exact = EXACT_ONLY.has(name) || name.startsWith("mkfs") || isWrapperName(basename(words[0] ?? ""));
  const prefix = exact ? null : actionPrefix(words);
  const escape = (s: string) => s.replace(/\*/g, "\\*");
  if (!prefix) return `${tool}(${words.map(escape).join(" ")})`;
  return `${tool}(${prefix.map(escape).join(" ")} *)`;
}
