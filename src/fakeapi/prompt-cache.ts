// A small model of the API's prompt cache, so usage numbers behave like the real thing: a request
// reads the longest prefix an earlier request wrote at one of its cache_control breakpoints
// (looking back up to 20 blocks from each breakpoint, as the API does) and writes the prefixes up
// to its own breakpoints. Tokens are estimated at 4 bytes each; no minimum cacheable length.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const LOOKBACK = 20;

export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, "utf8") / 4);
}

type Segment = { text: string; breakpoint: boolean };

/** The request in cache order (tools, system, messages), one segment per block, cache_control stripped. */
function segments(body: Obj): Segment[] {
  const out: Segment[] = [];
  const push = (prefix: string, b: unknown) => {
    const breakpoint = isObj(b) && b.cache_control != null;
    const plain = isObj(b) ? { ...b, cache_control: undefined } : b;
    out.push({ text: prefix + JSON.stringify(plain), breakpoint });
  };
  if (Array.isArray(body.tools)) for (const t of body.tools) push("tool:", t);
  if (typeof body.system === "string") push("system:", { type: "text", text: body.system });
  else if (Array.isArray(body.system)) for (const b of body.system) push("system:", b);
  if (Array.isArray(body.messages))
    for (const m of body.messages) {
      if (!isObj(m)) continue;
      const role = String(m.role);
      if (typeof m.content === "string") push(`${role}:`, { type: "text", text: m.content });
      else if (Array.isArray(m.content)) for (const b of m.content) push(`${role}:`, b);
    }
  return out;
}

export type CacheUsage = { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };

export class PromptCache {
  private readonly written = new Map<string, true>();

  /** Usage for this request, and record what it writes. Pass `write: false` to only look (count_tokens). */
  account(body: Obj, write = true): CacheUsage {
    const segs = segments(body);
    const keys: string[] = [];
    const cumulative: number[] = [];
    let key = "";
    let tokens = 0;
    for (const s of segs) {
      key = String(Bun.hash(key + "\u0000" + s.text));
      tokens += estimateTokens(s.text);
      keys.push(key);
      cumulative.push(tokens);
    }
    const total = tokens;
    const breakpoints = segs.flatMap((s, i) => (s.breakpoint ? [i] : []));
    let hit = -1;
    for (const b of breakpoints)
      for (let i = b; i >= Math.max(0, b - LOOKBACK); i--)
        if (i > hit && this.written.has(keys[i]!)) {
          hit = i;
          break;
        }
    const read = hit >= 0 ? cumulative[hit]! : 0;
    const last = breakpoints.length > 0 ? breakpoints[breakpoints.length - 1]! : -1;
    const created = last > hit ? cumulative[last]! - read : 0;
    if (write) for (const b of breakpoints) this.written.set(keys[b]!, true);
    return { input_tokens: total - read - created, cache_read_input_tokens: read, cache_creation_input_tokens: created };
  }
}
