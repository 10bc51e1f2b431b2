// A release host on loopback: serves a `bun run release` directory over real HTTP, with faults a
// path can be given (a flipped byte, a cut-off body, other bytes, an error status), and a log of
// the paths asked for. node:http, so a body can end early under a Content-Length it promised.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export type Fault = { corrupt: true } | { truncate: true } | { body: string | Uint8Array } | { status: number };

export type ReleaseServer = {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Resolves at the first request for `path`. */
  requested(path: string): Promise<void>;
  faults: Map<string, Fault>;
  close(): Promise<void>;
};

export async function startReleaseServer(dir: string, faults: Record<string, Fault> = {}): Promise<ReleaseServer> {
  const requests: string[] = [];
  const waiting = new Map<string, Array<() => void>>();
  const faultMap = new Map(Object.entries(faults));
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(path);
    for (const w of waiting.get(path) ?? []) w();
    waiting.delete(path);
    const fault = faultMap.get(path);
    if (fault && "status" in fault) return void res.writeHead(fault.status).end();
    let body: Uint8Array;
    if (fault && "body" in fault) body = typeof fault.body === "string" ? Buffer.from(fault.body) : fault.body;
    else {
      try {
        body = readFileSync(join(dir, path.replace(/^\/+/, "").replace(/\.\.+/g, "")));
      } catch {
        return void res.writeHead(404).end("not found");
      }
    }
    if (fault && "corrupt" in fault) {
      body = Buffer.from(body);
      const at = Math.floor(body.length / 2);
      body[at] = body[at]! ^ 0xff;
    }
    res.writeHead(200, { "content-length": String(body.length), "content-type": "application/octet-stream" });
    if (fault && "truncate" in fault) {
      res.write(body.subarray(0, Math.floor(body.length / 3)), () => res.destroy());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    faults: faultMap,
    requested: (path) => (requests.includes(path) ? Promise.resolve() : new Promise((r) => waiting.set(path, [...(waiting.get(path) ?? []), r]))),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
