// Project trust: a command written in a project's own files (its .mcp.json servers, its hooks) runs,
// and a setting there that widens permissions holds (./settings-trust.ts), only once the user has
// trusted that project. A repository cloned from anywhere must never run a command or allow one
// just because KHAELOR was started in it.
//
// The answer is kept per project in the user's data directory, never inside the project (a repo
// could ship a file saying it is trusted). What the user saw is kept with it, as fingerprints of
// the commands: a command added or changed later (a `git pull`) is new and asks again, while the
// ones already seen keep their answer.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { dataRoot } from "../session/paths.ts";
import { writeFileAtomic } from "../workspace/atomic-write.ts";

/** One command a project's files would run. */
export type TrustItem = {
  /** What defines it, e.g. "MCP server" or "hook". */
  kind: string;
  name: string;
  /** The file it is written in (absolute). */
  file: string;
  /** What would run, as the user should read it: `npx -y some-server --flag`, or a URL. */
  command: string;
  /** Identifies this exact definition; see fingerprintOf. */
  fingerprint: string;
};

export type TrustState = {
  /** Items the user trusted (this definition, in this project). */
  trusted: TrustItem[];
  /** Items the user declined. */
  declined: TrustItem[];
  /** Items never shown to the user: the app asks about these; print mode skips them. */
  unasked: TrustItem[];
};

const Store = z.object({
  version: z.literal(1),
  projects: z.record(
    z.string(),
    z.object({
      trusted: z.array(z.string()).default([]),
      declined: z.array(z.string()).default([]),
      at: z.string().optional(),
      /** This version has looked at the project's settings (trust covers them since): see settings-trust.ts. */
      settingsChecked: z.boolean().optional(),
    }),
  ),
});
type Store = z.infer<typeof Store>;

/** Where answers are kept: $KHAELOR_HOME/trusted-projects.json. */
export function trustStorePath(env: Record<string, string | undefined> = process.env): string {
  return join(dataRoot(env), "trusted-projects.json");
}

/** A stable digest of a definition (keys sorted), so reformatting the file does not ask again. */
export function fingerprintOf(definition: unknown): string {
  return createHash("sha256").update(stableJson(definition)).digest("hex").slice(0, 32);
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

function projectKey(root: string): string {
  try {
    return realpathSync(resolve(root));
  } catch {
    return resolve(root);
  }
}

function readStore(file: string): Store {
  try {
    const parsed = Store.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (parsed.success) return parsed.data;
  } catch {
    // missing or unreadable: nothing is trusted, which is the safe reading
  }
  return { version: 1, projects: {} };
}

export function trustState(projectRoot: string, items: TrustItem[], file = trustStorePath()): TrustState {
  const entry = readStore(file).projects[projectKey(projectRoot)];
  const trusted = new Set(entry?.trusted ?? []);
  const declined = new Set(entry?.declined ?? []);
  return {
    trusted: items.filter((i) => trusted.has(i.fingerprint)),
    declined: items.filter((i) => !trusted.has(i.fingerprint) && declined.has(i.fingerprint)),
    unasked: items.filter((i) => !trusted.has(i.fingerprint) && !declined.has(i.fingerprint)),
  };
}

/** Every definition the user trusted in this project, by fingerprint. */
export function trustedFingerprints(projectRoot: string, file = trustStorePath()): Set<string> {
  return new Set(readStore(file).projects[projectKey(projectRoot)]?.trusted ?? []);
}

/**
 * The first time a version whose trust covers settings opens this project: whether the user had
 * trusted anything here before. Marks the project as checked (so the answer is "checked" from then on).
 */
export function firstSettingsCheck(projectRoot: string, file = trustStorePath()): "trusted-before" | "new" | "checked" {
  const store = readStore(file);
  const key = projectKey(projectRoot);
  const entry = store.projects[key];
  if (entry?.settingsChecked) return "checked";
  const before = (entry?.trusted.length ?? 0) > 0 ? "trusted-before" : "new";
  store.projects[key] = { ...(entry ?? { trusted: [], declined: [] }), settingsChecked: true };
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, new TextEncoder().encode(`${JSON.stringify(store, null, 2)}\n`), { mode: 0o600 });
  } catch {
    // An unwritable data directory: checked again next time, which changes nothing for the user.
  }
  return before;
}

/** Remember the user's answer about these items in this project. */
export function recordTrust(projectRoot: string, items: TrustItem[], answer: "trust" | "decline", file = trustStorePath()): void {
  const store = readStore(file);
  const key = projectKey(projectRoot);
  const entry = store.projects[key] ?? { trusted: [], declined: [] };
  const prints = new Set(items.map((i) => i.fingerprint));
  const keep = (list: string[]) => list.filter((f) => !prints.has(f));
  entry.trusted = answer === "trust" ? [...keep(entry.trusted), ...prints] : keep(entry.trusted);
  entry.declined = answer === "decline" ? [...keep(entry.declined), ...prints] : keep(entry.declined);
  entry.at = new Date().toISOString();
  store.projects[key] = entry;
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, new TextEncoder().encode(`${JSON.stringify(store, null, 2)}\n`), { mode: 0o600 });
}

/** For print mode: what was skipped and how to trust it, one line per item after the first. */
export function skippedMessage(projectRoot: string, items: TrustItem[]): string {
  const lines = items.map((i) => `  ${i.kind} ${i.name} (${i.file}): ${i.command}`);
  return [
    `not running ${items.length === 1 ? "a command" : `${items.length} commands`} from this project's files, as ${projectRoot} is not trusted:`,
    ...lines,
    `  To trust them: open khaelor here once and answer the trust question, or pass --trust-project to this run.`,
  ].join("\n");
}
