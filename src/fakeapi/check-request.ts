// A scenario turn's expectations about the request that asks for it (did the agent send the tool
// result, the error, the text we scripted it to react to?).
import type { Check } from "./scenario.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function contentBlocks(content: unknown): Obj[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObj) : [];
}

/** All text in a message: text blocks and the text inside tool results. */
function textsOf(message: Obj): string[] {
  const out: string[] = [];
  for (const b of contentBlocks(message.content)) {
    if (b.type === "text" && typeof b.text === "string") out.push(b.text);
    if (b.type === "tool_result") out.push(...contentBlocks(b.content).flatMap((c) => (typeof c.text === "string" ? [c.text] : [])));
  }
  return out;
}

/** Returns what is wrong with the request, or null when every check holds. */
export function checkRequest(body: Obj, check: Check): string | null {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObj) : [];
  const last = messages[messages.length - 1];
  if (check.messageCount !== undefined && messages.length !== check.messageCount)
    return `expected ${check.messageCount} messages, got ${messages.length}`;
  if (check.lastHasToolResult) {
    const want = check.lastHasToolResult;
    const results = last && last.role === "user" ? contentBlocks(last.content).filter((b) => b.type === "tool_result") : [];
    const match = results.find((r) => {
      if (want.isError !== undefined && (r.is_error === true) !== want.isError) return false;
      if (want.contentMatches !== undefined) {
        const text = contentBlocks(r.content).map((c) => (typeof c.text === "string" ? c.text : "")).join("\n");
        if (!new RegExp(want.contentMatches).test(text)) return false;
      }
      return true;
    });
    if (!match)
      return `expected the last message to hold a tool_result${want.isError !== undefined ? ` with is_error=${want.isError}` : ""}${want.contentMatches ? ` matching /${want.contentMatches}/` : ""}; got ${JSON.stringify(last?.content ?? null).slice(0, 300)}`;
  }
  if (check.lastTextMatches !== undefined) {
    const re = new RegExp(check.lastTextMatches);
    const texts = last ? textsOf(last) : [];
    if (!texts.some((t) => re.test(t))) return `no text in the last message matches /${check.lastTextMatches}/`;
  }
  if (check.systemMatches !== undefined) {
    const system =
      typeof body.system === "string"
        ? body.system
        : Array.isArray(body.system)
          ? body.system.map((b) => (isObj(b) && typeof b.text === "string" ? b.text : "")).join("\n")
          : "";
    if (!new RegExp(check.systemMatches).test(system)) return `the system prompt does not match /${check.systemMatches}/`;
  }
  const names = new Set(Array.isArray(body.tools) ? body.tools.filter(isObj).map((t) => t.name) : []);
  if (check.toolsInclude) {
    const missing = check.toolsInclude.filter((n) => !names.has(n));
    if (missing.length > 0) return `tools not offered: ${missing.join(", ")}`;
  }
  if (check.toolsExclude) {
    const offered = check.toolsExclude.filter((n) => names.has(n));
    if (offered.length > 0) return `tools offered that should not be: ${offered.join(", ")}`;
  }
  return null;
}
