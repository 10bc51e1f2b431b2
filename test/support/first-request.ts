// The first request a fresh session sends, captured from the real CLI in print mode against the
// fake Messages API, and its size by part: what every session pays before the user's first word.
import { startFakeApi } from "../../src/fakeapi/index.ts";
import { isolatedEnv, runCli } from "./cli.ts";

export type SystemBlockBody = { type: "text"; text: string; cache_control?: unknown };
export type ToolBody = { name: string; type?: string; description?: string; input_schema?: unknown };
export type FirstRequest = { system: SystemBlockBody[]; tools: ToolBody[]; messages: unknown[] };

export async function firstRequest(cwd: string, prompt = "hi"): Promise<FirstRequest> {
  const api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "ok" }] }] } });
  try {
    const r = await runCli(["-p", prompt], { cwd, env: isolatedEnv(api.url) });
    if (r.code !== 0) throw new Error(`khaelor -p exited ${r.code}: ${r.stderr}`);
    const body = api.requests.find((q) => q.outcome === "served")?.body as FirstRequest | undefined;
    if (!body) throw new Error("no request reached the fake API");
    return body;
  } finally {
    await api.close();
  }
}

const bytes = (v: unknown) => Buffer.byteLength(typeof v === "string" ? v : JSON.stringify(v));

export type RequestSize = {
  /** JSON bytes of `system` and `tools` as sent: the prefix every request carries. */
  total: number;
  systemStatic: number;
  systemDynamic: number;
  tools: Array<{ name: string; total: number; description: number; schema: number }>;
};

/** Texts are counted as UTF-8; each tool as its whole JSON object. */
export function requestSize(req: FirstRequest): RequestSize {
  return {
    total: bytes(req.system) + bytes(req.tools),
    systemStatic: bytes(req.system[0]?.text ?? ""),
    systemDynamic: req.system.slice(1).reduce((n, b) => n + bytes(b.text), 0),
    tools: req.tools.map((t) => ({
      name: t.name,
      total: bytes(t),
      description: t.description ? bytes(t.description) : 0,
      schema: t.input_schema ? bytes(t.input_schema) : 0,
    })),
  };
}
