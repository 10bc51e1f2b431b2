// An environment assignment or a config override in front of an allowed command is part of the
// command: an allow rule (and the read-only set) covers `VAR=… cmd`, `env VAR=… cmd` and
// `git -c key=… cmd` only when every variable or key is known to be inert, or when the rule spells
// the assignment out. Variables that name a program or change what loads, and unknown ones, ask.
import { afterAll, beforeAll, test } from "bun:test";
import { createPermissionEngine, type PermissionEngine } from "../../src/permissions/index.ts";
import { expectRows } from "./decision-rows.ts";
import { makeFixture, type Fixture, trustedProject } from "./fixture.ts";

let fx: Fixture;
let engine: PermissionEngine;

beforeAll(async () => {
  fx = makeFixture({
    project: { permissions: { allow: ["Bash(git *)", "Bash(make *)", "Bash(env *)", "Bash(npm run test *)", "Bash(GIT_PAGER=cat git log:*)"] } },
  });
  engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject });
});
afterAll(() => fx.cleanup());

test("a variable that names a program or changes loading keeps an allow rule from matching", () => {
  expectRows(engine, fx, [
    ["??da", "GIT_EXTERNAL_DIFF=/tmp/evil git diff"], ["??da", "GIT_PAGER='sh -c evil' git log"], ["??da", "PAGER=/tmp/evil git log -1"],
    ["??da", "GIT_SSH_COMMAND='sh -c evil' git fetch"], ["??da", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=evil git log"],
    ["??da", "EDITOR=/tmp/evil git commit"], ["??da", "LD_PRELOAD=/tmp/x.so make"], ["??da", "PATH=/tmp/evil:$PATH make"], ["??da", "BASH_ENV=/tmp/x make"],
    ["??da", "NODE_OPTIONS='--require /tmp/x.js' npm run test"], ["??da", "DYLD_INSERT_LIBRARIES=/tmp/x make"], ["??da", "MAKEFLAGS=x FOO=1 make"],
    ["??da", "env GIT_EXTERNAL_DIFF=/tmp/evil git diff"], ["??da", "env -u HOME PAGER=evil git log"], ["??da", "timeout 5 env LD_PRELOAD=x make"],
    ["??da", "export GIT_PAGER=/tmp/evil; git log"], ["??da", "PAGER=/tmp/evil; export PAGER; git log"],
    // an unknown variable is not known to be inert
    ["??da", "FOO=1 make"], ["??da", "env FOO=1 make"],
  ]);
});

test("read-only commands are not escalated either", () => {
  expectRows(engine, fx, [
    ["??da", "GIT_EXTERNAL_DIFF=/tmp/evil git status"], ["??da", "GIT_PAGER=/tmp/evil git branch"], ["??da", "MANPAGER=/tmp/evil ls"],
    ["??da", "LESSOPEN='|/tmp/evil %s' ls"], ["??da", "SYSTEMD_PAGER=/tmp/evil ls"],
  ]);
});

test("config overrides that run programs keep an allow rule from matching", () => {
  expectRows(engine, fx, [
    ["??da", "git -c core.pager=/tmp/evil log"], ["??da", "git -c diff.external=/tmp/evil diff"], ["??da", "git -c 'alias.x=!rm -rf src' x"],
    ["??da", "git -c core.sshCommand='sh -c evil' fetch"], ["??da", "git --config-env=core.pager=EVIL log"], ["??da", "git -c core.fsmonitor=/tmp/evil status"],
    ["??da", "git --exec-path=/tmp/evil status"], ["??da", "git -c core.hooksPath=/tmp/hooks commit -m x"], ["??da", "git -ccore.pager=evil log"],
  ]);
});

test("known inert variables and keys, and rules that spell the assignment out, still allow", () => {
  expectRows(engine, fx, [
    ["aada", "LANG=C make"], ["aada", "LC_ALL=C TZ=UTC make build"], ["aada", "NO_COLOR=1 CI=1 npm run test"], ["aada", "env LANG=C make"],
    ["aada", "TERM=dumb COLUMNS=80 FORCE_COLOR=0 DEBUG=1 make"], ["aada", "GIT_PAGER=cat git log -1"], ["aada", "git -c color.ui=always log"],
    ["aaaa", "git -C src log"], ["aaaa", "LANG=C git status"], ["aaaa", "git status"], ["aaaa", "git log"], ["aaaa", "FOO=1 ls"],
  ]);
});
