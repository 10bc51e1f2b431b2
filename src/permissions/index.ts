/**
 * Permissions: may this tool call run, ask the user first, or never run?
 *
 *   const engine = await createPermissionEngine({ projectRoot, mode?, home?, configHome?, cliAllow?, cliDeny? });
 *   engine.decide({ tool: "bash", input: { command: "git push origin main" }, cwd })
 *     → { behavior: "ask", reason, source: "mode:default",
 *         suggestion: { rule: "Bash(git push *)", rules: ["Bash(git push *)"], description } }
 *
 * - Creation is async (the tree-sitter bash grammar loads once); decide() is then synchronous and
 *   never throws (an internal failure asks).
 * - Tools: read/write/edit use file_path, grep/glob path (+ pattern), bash command, process
 *   action + command (+ cwd). Rules use Claude Code's names: read→Read, write/edit→Edit,
 *   grep→Grep and Read, glob→Glob and Read, bash→Bash, process start→Process (Bash deny/ask rules
 *   apply to it too).
 * - Order: hardline floor and protected paths (.git/, .khaelor/, KHAELOR's user settings) deny in
 *   every mode; then deny rules; then ask rules (ignored in bypassPermissions); then the mode.
 *   Deny beats ask beats allow from any scope; an allow rule (including every grant) never
 *   outranks a deny or an ask.
 * - The floor reads what would really run: text a shell or eval runs after a static decoder
 *   (`base64 -d`, `xxd -r -p`, `rev`, printf escapes, `$(...)` of them in heredocs, herestrings,
 *   words and variables) is judged as commands (their asks say what decoded them); one-line programs
 *   (`python -c`, `perl -e`, `node -e`, `ruby -e`, `php -r`, also on stdin) are scanned for
 *   recursive deletion, chmod or chown of /, home, the project or a system directory, block devices,
 *   and the shell commands they run. Floor reasons start `hardline floor (<entry>): `.
 * - Environment: an allow rule (or the read-only set) covers `VAR=... cmd`, `env VAR=... cmd` and
 *   `git -c key=...` only when every variable or key is known inert, or the rule spells it out.
 * - A bare tool rule (`Bash`) allows every call of the tool but the floor, protected paths and
 *   configured deny/ask rules. acceptEdits runs mkdir, touch, rm, rmdir, mv, cp and sed -i on
 *   paths that resolve inside the project; an Edit deny rule denies a command writing a path it covers.
 * - Inline interpreter code (`python -c`, `node -e`, `perl -ne`, `deno eval`, `perl -M'x;...'`,
 *   `node --import data:...`, a program piped or fed by heredoc into an interpreter, also as
 *   `/dev/stdin`, and a script it cannot see: `<(...)`, `$X`, `/dev/fd/3`) is opaque: it is never read-only, and an allow rule covers
 *   it only if the rule spells out the code option (`Bash(python -c:*)`) or is the bare tool.
 *   A shell's literal script (`bash -c '...'`, `bash <<'EOF'`) is read and judged instead.
 * - Searches: decide() judges the directory a grep or glob covers; searchFilter(tool, dir) then
 *   says which paths found below it to leave out (a deny rule on a folder inside; for grep also
 *   what reading directly would ask about), so a search over a parent does not leak them.
 * - Walks: a shell command that walks folders (grep -r, rg, git grep, find, ls -R, tree, du, diff
 *   -r, git diff --no-index, git's history views git log -p / git diff / git show (where git tracks
 *   files), and cp -r, mv, tar, zip, rsync) is judged by where it can reach, compared with the Read rules' own
 *   patterns: reaching a denied path (for contents, also one that asks) asks, and a read-only walk
 *   is denied in bypassPermissions. An exclusion the command verifiably applies (grep
 *   --exclude-dir, rg -g '!x', find -path x -prune -o, git ':!x', tree -I, rsync --exclude) lets
 *   it run as usual; the reason says which one. A contents walk of the project root, above it or
 *   outside the project also asks (but in bypass), as reading one asks, when a secret-bearing file
 *   (.env, .env.local, *.pem, id_rsa, ...; ~/.ssh and the like below home) sits directly in the
 *   folder it starts from and it would read it: not left out by its options, nor ignored by git
 *   for rg and ag, nor untracked for git grep. Deeper ones are not looked for (the grep tool's
 *   per-file check covers them).
 *   `git show REV:path` and `git cat-file -p REV:path` are reads of that path.
 * - "Allow always": show suggestion.description, then grant() every rule in suggestion.rules to
 *   the scope the user picked ("session" | "local" | "user"). No suggestion is offered where an
 *   allow rule could not help (configured asks, parse errors, unknowable commands).
 * - Settings: user ($XDG_CONFIG_HOME or ~/.config)/khaelor/settings.json, project
 *   .khaelor/settings.json, local .khaelor/settings.local.json (added to .git/info/exclude when we
 *   write it). Bad rules are listed by problems() with file and position, and ignored.
 * - The project's two files may only restrict unless the project is trusted for what they widen
 *   (opts.projectSettings; none is without it): their deny and ask rules always hold, their allow
 *   rules and a defaultMode other than default/plan are held() back. bypassPermissions is never
 *   taken from them. A rule "allow always" writes into settings.local.json is the user's.
 *
 * Layout, each wing importing only ./types.ts and the wings before it: rules/ (rule syntax, the
 * rule set, the path and command matchers, settings files), paths/ (facts about a path, the
 * decision for one path, search filters), shell/ (a command line's words, wrappers, redirections,
 * inline code, the read-only set, the hardline floor), walks/ (where a walking command reaches,
 * its shape in walks/types.ts, and how that meets the Read rules); decide-shell.ts joins shell/
 * and walks/, and engine.ts is the engine.
 */
export { createPermissionEngine, splitRuleList, untrustedProjectSettings } from "./engine.ts";
export type { GrantResult, PermissionEngine, PermissionEngineOptions } from "./engine.ts";
export type {
  Behavior,
  Decision,
  DecisionRequest,
  GrantScope,
  PermissionMode,
  Problem,
  ProjectSettingsTrust,
  RuleEntry,
  RuleScope,
  SearchFilter,
  SearchSkip,
  Suggestion,
  WideningSetting,
} from "./types.ts";
export type { SearchTool } from "./paths/search-filter.ts";
export { PERMISSION_MODES } from "./types.ts";
export { isMcpName, MCP_PREFIX } from "./rules/mcp-rules.ts";
export { claudeConfigDir, excludeFromGit, ownLocation, readSettingsObject, settingsLocations, userConfigDir, wideningSettings } from "./rules/settings-files.ts";
