// The only way out of the sandbox's network: an HTTP proxy KHAELOR runs, on a unix socket (Linux:
// bridged into the sandbox's empty network namespace) or a loopback port (macOS, where Seatbelt
// lets the sandbox reach only that port). It speaks HTTP (absolute-form requests) and HTTPS CONNECT,
// and nothing else; a host that is not allowed is answered 403 and remembered, so the command's
// result can say which host the sandbox blocked.
import { connect, createServer, type Server, type Socket } from "node:net";
import { rmSync } from "node:fs";

export type ProxyOptions = {
  /** Whether this host may be reached (the domain lists, plus what the user allowed this session). */
  allowed(host: string): boolean;
  /** Where to listen: a unix socket path, or a loopback port (0: any free one). */
  listen: { path: string } | { port: number };
};

export type RunningProxy = {
  /** The port it listens on (0 for a unix socket). */
  port: number;
  /** Hosts refused since `since` (a value of `mark()`), each once. */
  deniedSince(since: number): string[];
  mark(): number;
  close(): Promise<void>;
};

const MAX_HEAD = 64 * 1024;

export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  const denied: string[] = [];
  const server: Server = createServer((client) => handle(client, opts.allowed, (h) => denied.push(h)));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if ("path" in opts.listen) {
      rmSync(opts.listen.path, { force: true });
      server.listen(opts.listen.path, resolve);
    } else server.listen(opts.listen.port, "127.0.0.1", resolve);
  });
  const addr = server.address();
  return {
    port: typeof addr === "object" && addr ? addr.port : 0,
    mark: () => denied.length,
    deniedSince: (since) => [...new Set(denied.slice(since))],
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function handle(client: Socket, allowed: (host: string) => boolean, onDenied: (host: string) => void): void {
  let head = Buffer.alloc(0);
  client.on("error", () => client.destroy());
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end === -1) {
      if (head.length > MAX_HEAD) refuse(client, 431, "request head too large");
      return;
    }
    client.off("data", onData);
    client.pause();
    const text = head.subarray(0, end).toString("latin1");
    const rest = head.subarray(end + 4);
    const line = text.split("\r\n", 1)[0]!;
    const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(line);
    if (!m) return refuse(client, 400, "not an HTTP request");
    const target = m[1] === "CONNECT" ? parseAuthority(m[2]!, 443) : parseAbsolute(m[2]!);
    if (!target) return refuse(client, 400, "the proxy takes CONNECT host:port or an absolute http:// URL");
    if (!allowed(target.host)) {
      onDenied(target.host);
      return refuse(client, 403, `blocked by the sandbox: ${target.host} is not in sandbox.network.allowedDomains`);
    }
    const upstream = connect(target.port, target.host);
    upstream.on("error", () => (client.writable ? refuse(client, 502, `cannot reach ${target.host}:${target.port}`) : client.destroy()));
    upstream.once("connect", () => {
      upstream.removeAllListeners("error");
      upstream.on("error", () => client.destroy());
      if (m[1] === "CONNECT") {
        client.write("HTTP/1.1 200 Connection established\r\n\r\n");
        if (rest.length) upstream.write(rest);
      } else {
        // Origin-form for the server; the rest of the head and any body as they came.
        const firstLine = `${m[1]} ${target.path} HTTP/1.1`;
        upstream.write(Buffer.concat([Buffer.from(firstLine + text.slice(line.length) + "\r\n\r\n", "latin1"), rest]));
      }
      client.pipe(upstream).pipe(client);
      client.resume();
    });
  };
  client.on("data", onData);
}

function refuse(client: Socket, status: number, why: string): void {
  const body = `${why}\n`;
  client.end(`HTTP/1.1 ${status} ${status === 403 ? "Forbidden" : "Bad Request"}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function parseAuthority(s: string, defaultPort: number): { host: string; port: number; path: string } | null {
  const m = /^(\[[^\]]+\]|[^:/]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return null;
  const port = m[2] ? Number(m[2]) : defaultPort;
  if (port < 1 || port > 65535) return null;
  return { host: m[1]!.replace(/^\[|\]$/g, ""), port, path: "/" };
}

function parseAbsolute(s: string): { host: string; port: number; path: string } | null {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" || u.username || u.password) return null;
  return { host: u.hostname.replace(/^\[|\]$/g, ""), port: u.port ? Number(u.port) : 80, path: `${u.pathname}${u.search}` };
}
