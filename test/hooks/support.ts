// Hook tests: real shell scripts as hooks, in a temporary project, against the real CLI in print mode.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../support/cli.ts";

export type HookSpec = { matcher?: string; command: string; timeout?: number };

/** A project and an isolated home; hooks go in the user's settings unless `project` is set. */
export function hookProject(baseURL: string) {
  const dir = tempProject("khaelor-hooks-");
  const env = isolatedEnv(baseURL);
  const userSettings = join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json");
  const logFile = join(dir, "hook-input.jsonl");
  return {
    dir,
    env,
    logFile,
    /** A script in the project that logs its stdin (one JSON line) and then runs `body`. */
    script(name: string, body: string): string {
      const file = join(dir, `${name}.sh`);
      writeFileSync(file, `#!/bin/sh\nIN=$(cat)\nprintf '%s\\n' "$IN" >> "${logFile}"\n${body}\n`);
      chmodSync(file, 0o755);
      return file;
    },
    hooks(hooks: Record<string, HookSpec[]>, where: "user" | "project" = "user") {
      const file = where === "user" ? userSettings : join(dir, ".khaelor", "settings.json");
      mkdirSync(join(file, ".."), { recursive: true });
      const shaped = Object.fromEntries(
        Object.entries(hooks).map(([event, list]) => [
          event,
          list.map((h) => ({ ...(h.matcher ? { matcher: h.matcher } : {}), hooks: [{ type: "command", command: h.command, ...(h.timeout ? { timeout: h.timeout } : {}) }] })),
        ]),
      );
      writeFileSync(file, JSON.stringify({ hooks: shaped }, null, 2));
      return file;
    },
    /** Every JSON a hook received, in order. */
    received(): Array<Record<string, unknown>> {
      if (!existsSync(logFile)) return [];
      return readFileSync(logFile, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
  };
}
