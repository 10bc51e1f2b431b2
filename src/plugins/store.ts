// Where plugins are kept: the user's data directory ($KHAELOR_HOME, else $XDG_DATA_HOME/khaelor),
// in plugins/, laid out as Claude Code's ~/.claude/plugins: the marketplaces added
// (known_marketplaces.json, their checkouts in marketplaces/<name>), the plugins installed
// (installed_plugins.json, their copies in cache/<marketplace>/<plugin>). Never inside a project.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { dataRoot } from "../session/paths.ts";
import { writeFileAtomic } from "../workspace/atomic-write.ts";

type Env = Record<string, string | undefined>;

export function pluginsRoot(env: Env = process.env): string {
  return join(dataRoot(env), "plugins");
}

const MarketplaceSource = z.discriminatedUnion("kind", [
  /** A git repository KHAELOR cloned (a URL, owner/repo on GitHub, a local bare repository). */
  z.object({ kind: z.literal("git"), url: z.string(), ref: z.string().optional() }),
  /** A folder on this machine, read where it is. */
  z.object({ kind: z.literal("directory"), path: z.string() }),
]);
export type MarketplaceSource = z.infer<typeof MarketplaceSource>;

const KnownMarketplace = z.object({
  source: MarketplaceSource,
  /** Where its marketplace.json is read: the checkout, or the folder itself. */
  location: z.string(),
  /** The commit checked out (git sources). */
  commit: z.string().optional(),
  /** Set when added at a full commit id: `marketplace update` leaves it there. */
  pinned: z.string().optional(),
  updatedAt: z.string(),
});
export type KnownMarketplace = z.infer<typeof KnownMarketplace>;

const InstalledPlugin = z.object({ path: z.string(), version: z.string().optional(), commit: z.string().optional(), installedAt: z.string() });
export type InstalledPlugin = z.infer<typeof InstalledPlugin>;

const Known = z.record(z.string(), KnownMarketplace);
const Installed = z.object({ version: z.literal(1), plugins: z.record(z.string(), InstalledPlugin) });

export function knownMarketplacesFile(env: Env = process.env): string {
  return join(pluginsRoot(env), "known_marketplaces.json");
}
export function installedPluginsFile(env: Env = process.env): string {
  return join(pluginsRoot(env), "installed_plugins.json");
}

export function readKnownMarketplaces(env: Env = process.env): Record<string, KnownMarketplace> {
  return readJson(knownMarketplacesFile(env), Known) ?? {};
}
export function writeKnownMarketplaces(known: Record<string, KnownMarketplace>, env: Env = process.env): void {
  writeJson(knownMarketplacesFile(env), known);
}

/** Installed plugins by id (name@marketplace). */
export function readInstalled(env: Env = process.env): Record<string, InstalledPlugin> {
  return readJson(installedPluginsFile(env), Installed)?.plugins ?? {};
}
export function writeInstalled(plugins: Record<string, InstalledPlugin>, env: Env = process.env): void {
  writeJson(installedPluginsFile(env), { version: 1, plugins });
}

/** A file KHAELOR wrote itself: missing or unreadable reads as empty (and is rewritten whole next time). */
function readJson<T>(file: string, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`));
}
