// A plugin folder in Claude Code's layout: `.claude-plugin/plugin.json` (its name, version and
// description) and beside it the parts, each optional: `commands/`, `agents/`, `skills/`,
// `hooks/hooks.json`, `.mcp.json`. Reading never throws: a folder without a manifest loads under
// the folder's name, and a manifest with a field KHAELOR does not know is a notice naming the file,
// as Claude Code's manifests carry keys for parts KHAELOR has no use for.
import { existsSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { z } from "zod";
import { FileReadError, LIMITS, readTextIfExists } from "../workspace/safe-read.ts";

/** Claude Code's rule for a plugin's name: kebab-case, no spaces (it becomes a command namespace). */
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/** The manifest keys KHAELOR reads; Claude Code's metadata keys are known and quiet. */
const Manifest = z.object({
  name: z.string().regex(NAME, "a plugin name is letters, digits, ., _ and - (it becomes /name:command)"),
  version: z.string().optional(),
  description: z.string().optional(),
});
const METADATA = new Set(["author", "homepage", "repository", "license", "keywords", "$schema"]);
/** Claude Code's keys for parts kept elsewhere than the default folders: not read yet, so said. */
const NOT_READ = new Set(["commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers", "userConfig", "dependencies"]);

export type PluginFolder = {
  name: string;
  version?: string;
  description?: string;
  /** The plugin's folder, absolute: ${CLAUDE_PLUGIN_ROOT}. */
  root: string;
  /** .claude-plugin/plugin.json, whether or not it exists (for notices). */
  manifestFile: string;
  commandsDir: string;
  agentsDir: string;
  skillsDir: string;
  hooksFile: string;
  mcpFile: string;
};

export function manifestPath(root: string): string {
  return join(root, ".claude-plugin", "plugin.json");
}

/** The plugin in `dir`, or null with the reason when there is no folder to load. */
export function readPluginFolder(dir: string): { plugin: PluginFolder | null; problems: string[] } {
  const root = resolve(dir);
  const manifestFile = manifestPath(root);
  const parts = { root, manifestFile, commandsDir: join(root, "commands"), agentsDir: join(root, "agents"), skillsDir: join(root, "skills"), hooksFile: join(root, "hooks", "hooks.json"), mcpFile: join(root, ".mcp.json") };
  if (!isDir(root)) return { plugin: null, problems: [`plugin ${dir}: no such folder; not loaded`] };
  let text: string | null;
  try {
    text = readTextIfExists(manifestFile, LIMITS.smallConfig);
  } catch (e) {
    return { plugin: null, problems: [`${manifestFile}: cannot read (${e instanceof FileReadError ? e.reason : (e as Error).message}); the plugin is not loaded`] };
  }
  const folderName = basename(root);
  if (text === null) {
    if (!NAME.test(folderName)) return { plugin: null, problems: [`${manifestFile}: missing, and the folder's name ${JSON.stringify(folderName)} cannot name the plugin; not loaded`] };
    return { plugin: { name: folderName, ...parts }, problems: [`${manifestFile}: missing; the plugin is loaded under its folder's name, ${folderName} (add the file with "name", "version" and "description")`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { plugin: null, problems: [`${manifestFile}: not valid JSON (${(e as Error).message}); the plugin is not loaded`] };
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join(".") || "(the file)"}: ${i.message}`).join("; ");
    return { plugin: null, problems: [`${manifestFile}: ${why}; the plugin is not loaded`] };
  }
  const problems: string[] = [];
  const keys = Object.keys(json as object);
  const unknown = keys.filter((k) => !(k in Manifest.shape) && !METADATA.has(k) && !NOT_READ.has(k));
  if (unknown.length > 0) problems.push(`${manifestFile}: unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (ignored; the plugin still loads)`);
  const unread = keys.filter((k) => NOT_READ.has(k));
  if (unread.length > 0) problems.push(`${manifestFile}: ${unread.join(", ")} ${unread.length > 1 ? "are" : "is"} not read by KHAELOR yet; only the default folders (commands/, skills/, hooks/hooks.json, .mcp.json) load`);
  const m = parsed.data;
  return { plugin: { name: m.name, ...(m.version ? { version: m.version } : {}), ...(m.description ? { description: m.description } : {}), ...parts }, problems };
}

function isDir(p: string): boolean {
  try {
    return existsSync(p) && statSync(p).isDirectory();
  } catch {
    return false;
  }
}
