// How MCP tools are named for the model and in permission rules: mcp__<server>__<tool>, as in
// Claude Code, so a user's rules carry over. The API allows [A-Za-z0-9_-]{1,64} and rejects a
// request that names two tools alike, so the names are made unique here: cleaning maps a.b, a_b
// and "a b" to one name, and servers my.srv and my_srv to one prefix. A name that needed no
// cleaning keeps it; the others that collide get a short hash of the real name, which depends on
// nothing else, so the names do not move when the order of the lists does.
import { createHash } from "node:crypto";
import { MCP_PREFIX } from "../permissions/index.ts";

const MAX_NAME = 64;

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");
const hash8 = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 8);

/** Within the API's length: too long keeps its start, readable, and a hash of the whole. */
function fit(full: string): string {
  return full.length <= MAX_NAME ? full : `${full.slice(0, MAX_NAME - 9)}_${hash8(full)}`;
}

/** The name when nothing collides with it. */
export function mcpToolName(server: string, tool: string): string {
  return fit(`${MCP_PREFIX}${clean(server)}__${clean(tool)}`);
}

/** Each raw name's cleaned form, with a hash where two raw names clean alike (the clean one keeps its own). */
function segments(raw: readonly string[]): Map<string, string> {
  const byClean = new Map<string, number>();
  for (const r of new Set(raw)) byClean.set(clean(r), (byClean.get(clean(r)) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const r of raw) {
    const c = clean(r);
    out.set(r, byClean.get(c)! > 1 && c !== r ? `${c}_${hash8(r)}` : c);
  }
  return out;
}

export type ServerTools = { server: string; tools: readonly string[] };

/**
 * The API name of every server's tools, by server and then by the tool's real name (the name a
 * call sends back to the server). Pass every configured server, connected or not, so a server's
 * prefix does not change when another one connects. A tool listed twice by its server is named once.
 */
export function assignToolNames(servers: readonly ServerTools[]): Map<string, Map<string, string>> {
  const serverSegs = segments(servers.map((s) => s.server));
  const entries: Array<{ server: string; tool: string; name: string }> = [];
  for (const s of servers) {
    const toolSegs = segments(s.tools);
    for (const [tool, seg] of toolSegs) entries.push({ server: s.server, tool, name: fit(`${MCP_PREFIX}${serverSegs.get(s.server)}__${seg}`) });
  }
  // What is still alike (server a__b with tool c and server a with tool b__c; a hash that meets a
  // real name) is told apart in an order of the raw names, so it too does not depend on list order.
  const taken = new Set<string>();
  const key = (e: { server: string; tool: string }) => `${e.server}\0${e.tool}`;
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
  for (const e of entries) if (counts.get(e.name) === 1) taken.add(e.name);
  for (const e of [...entries].filter((x) => counts.get(x.name)! > 1).sort((a, b) => (key(a) < key(b) ? -1 : 1))) {
    let name = e.name;
    for (let i = 0; taken.has(name); i++) name = fit(`${e.name.slice(0, MAX_NAME - 9)}_${hash8(`${key(e)}\0${i}`)}`);
    e.name = name;
    taken.add(name);
  }
  const out = new Map<string, Map<string, string>>(servers.map((s) => [s.server, new Map()]));
  for (const e of entries) out.get(e.server)!.set(e.tool, e.name);
  return out;
}
