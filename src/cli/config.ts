// The few settings the composition root reads itself (the permission rules in the same files
// belong to src/permissions). A broken file is reported and skipped, never fatal.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";

const Settings = z.looseObject({
  model: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
});
export type Settings = z.infer<typeof Settings>;

export function configHome(): string {
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "khaelor");
}

export function settingsFiles(projectRoot: string): string[] {
  return [
    join(configHome(), "settings.json"),
    join(projectRoot, ".khaelor", "settings.json"),
    join(projectRoot, ".khaelor", "settings.local.json"),
  ];
}

/** Later files win (user < project < local). Problems are returned, not thrown. */
export function loadSettings(projectRoot: string): { settings: Settings; problems: string[] } {
  const settings: Settings = {};
  const problems: string[] = [];
  for (const file of settingsFiles(projectRoot)) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    try {
      const parsed = Settings.safeParse(JSON.parse(text));
      if (!parsed.success) {
        problems.push(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")} (ignored)`);
        continue;
      }
      Object.assign(settings, Object.fromEntries(Object.entries(parsed.data).filter(([k]) => k === "model" || k === "apiKey")));
    } catch (e) {
      problems.push(`${file}: not valid JSON (${e instanceof Error ? e.message : e}); ignored`);
    }
  }
  return { settings, problems };
}
