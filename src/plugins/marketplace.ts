// Marketplaces as Claude Code writes them: `.claude-plugin/marketplace.json` at a repository's (or
// a folder's) root, `{ name, owner, metadata?: { pluginRoot }, plugins: [{ name, source,
// description?, version? }] }`, where a plugin's source is a path inside the marketplace
// ("./plugins/x") or another repository ({ source: "github", repo, ref?, sha? } or
// { source: "url", url, ref?, sha? }). Added, one is cloned into the data directory (a folder is
// read where it is); `#ref` after the source picks a branch or tag, and a full commit id pins it.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { FileReadError, LIMITS, readTextIfExists } from "../workspace/safe-read.ts";
import { cloneAt, fetchAndMove, GitFetchError, isCommitId } from "./git-source.ts";
import { pluginsRoot, readKnownMarketplaces, writeKnownMarketplaces, type KnownMarketplace, type MarketplaceSource } from "./store.ts";

export class PluginCommandError extends Error {}

const GitRepoSource = z.looseObject({ source: z.literal("github"), repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "owner/repo"), ref: z.string().optional(), sha: z.string().optional() });
const GitUrlSource = z.looseObject({ source: z.literal("url"), url: z.string().min(1), ref: z.string().optional(), sha: z.string().optional() });
const PluginSource = z.union([z.string().min(1), GitRepoSource, GitUrlSource, z.looseObject({ source: z.string() })]);
export type PluginSource = z.infer<typeof PluginSource>;

const Entry = z.looseObject({ name: z.string().min(1), source: PluginSource, description: z.string().optional(), version: z.string().optional() });
export type MarketplaceEntry = z.infer<typeof Entry>;
const Marketplace = z.looseObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, "letters, digits, ., _ and - (it is the part after @ in name@marketplace)"),
  owner: z.looseObject({ name: z.string() }).optional(),
  metadata: z.looseObject({ pluginRoot: z.string().optional(), description: z.string().optional() }).optional(),
  plugins: z.array(Entry),
});
export type MarketplaceFile = z.infer<typeof Marketplace>;

export function marketplaceFile(location: string): string {
  return join(location, ".claude-plugin", "marketplace.json");
}

/** The marketplace.json at `location`, or a PluginCommandError naming the file and what is wrong. */
export function readMarketplace(location: string): MarketplaceFile {
  const file = marketplaceFile(location);
  let text: string | null;
  try {
    text = readTextIfExists(file, LIMITS.smallConfig);
  } catch (e) {
    throw new PluginCommandError(`${file}: cannot read (${e instanceof FileReadError ? e.reason : (e as Error).message})`);
  }
  if (text === null) throw new PluginCommandError(`${file}: missing; a marketplace has its list of plugins there`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new PluginCommandError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = Marketplace.safeParse(json);
  if (!parsed.success) throw new PluginCommandError(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(the file)"}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

/** What `marketplace add` was given: a local folder with a marketplace.json, else a git repository, with `#ref`. */
export function parseMarketplaceArg(arg: string, cwd: string): MarketplaceSource {
  const hash = arg.lastIndexOf("#");
  const [where, ref] = hash > 0 ? [arg.slice(0, hash), arg.slice(hash + 1) || undefined] : [arg, undefined];
  const local = resolve(cwd, where);
  const isLocal = where.startsWith(".") || where.startsWith("/") || where.startsWith("~") || existsSync(local);
  if (isLocal && existsSync(marketplaceFile(local))) {
    if (ref) throw new PluginCommandError(`${arg}: a folder is read where it is, so it takes no #ref; add its git repository to pin it`);
    return { kind: "directory", path: local };
  }
  if (isLocal && isDir(local)) return { kind: "git", url: local, ...(ref ? { ref } : {}) };
  if (/^[\w.-]+\/[\w.-]+$/.test(where)) return { kind: "git", url: `https://github.com/${where}.git`, ...(ref ? { ref } : {}) };
  if (/^(https?|ssh|git|file):\/\//.test(where) || /^[\w.-]+@[\w.-]+:/.test(where)) return { kind: "git", url: where, ...(ref ? { ref } : {}) };
  throw new PluginCommandError(`${arg}: not a folder with .claude-plugin/marketplace.json, a git URL or owner/repo`);
}

/** Adds a marketplace: cloned (or read in place), checked, recorded under the name its file gives. */
export async function addMarketplace(source: MarketplaceSource, cwd: string): Promise<{ name: string; known: KnownMarketplace; plugins: number }> {
  const now = new Date().toISOString();
  if (source.kind === "directory") {
    const m = readMarketplace(source.path);
    return record(m, { source, location: source.path, updatedAt: now });
  }
  const root = join(pluginsRoot(), "marketplaces");
  mkdirSync(root, { recursive: true });
  const temp = join(root, `.adding-${process.pid}-${Date.now()}`);
  try {
    const commit = await cloneAt(source.url, temp, source.ref, cwd).catch((e: unknown) => {
      throw new PluginCommandError(`cannot fetch the marketplace ${source.url}${source.ref ? `#${source.ref}` : ""}: ${(e as Error).message}`);
    });
    const m = readMarketplace(temp);
    const location = join(root, m.name);
    rmSync(location, { recursive: true, force: true });
    renameSync(temp, location);
    return record(m, { source, location, commit, ...(isCommitId(source.ref) ? { pinned: commit } : {}), updatedAt: now });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function record(m: MarketplaceFile, known: KnownMarketplace): { name: string; known: KnownMarketplace; plugins: number } {
  const all = readKnownMarketplaces();
  all[m.name] = known;
  writeKnownMarketplaces(all);
  return { name: m.name, known, plugins: m.plugins.length };
}

/** Fetches a git marketplace again (a pinned one stays at its commit); a folder is re-read. */
export async function updateMarketplace(name: string): Promise<{ name: string; from?: string; to?: string; pinned: boolean }> {
  const all = readKnownMarketplaces();
  const known = all[name];
  if (!known) throw new PluginCommandError(`no marketplace named ${name} (khaelor plugin marketplace list)`);
  if (known.source.kind === "directory" || known.pinned) {
    readMarketplace(known.location);
    return { name, ...(known.commit ? { from: known.commit, to: known.commit } : {}), pinned: !!known.pinned };
  }
  const to = await fetchAndMove(known.location, known.source.ref).catch((e: unknown) => {
    throw new PluginCommandError(`cannot update the marketplace ${name} from ${known.source.kind === "git" ? known.source.url : ""}: ${(e as Error).message}; it stays at ${known.commit?.slice(0, 12) ?? "its last commit"}`);
  });
  readMarketplace(known.location);
  all[name] = { ...known, commit: to, updatedAt: new Date().toISOString() };
  writeKnownMarketplaces(all);
  return { name, ...(known.commit ? { from: known.commit } : {}), to, pinned: false };
}

export function removeMarketplace(name: string): void {
  const all = readKnownMarketplaces();
  const known = all[name];
  if (!known) throw new PluginCommandError(`no marketplace named ${name} (khaelor plugin marketplace list)`);
  if (known.source.kind === "git") rmSync(known.location, { recursive: true, force: true });
  delete all[name];
  writeKnownMarketplaces(all);
}

export { GitFetchError };

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
