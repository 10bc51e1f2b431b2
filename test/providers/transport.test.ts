// HTTPS_PROXY, NO_PROXY and NODE_EXTRA_CA_CERTS: Bun's fetch reads all three itself (checked here
// through the real CLI, so a Bun that stopped would fail this): a gateway behind a corporate proxy
// with its own certificate authority works, and one the proxy must not see is reached directly.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();
const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

/** A CA and a certificate for localhost it signed, made with openssl. */
function certificates(): { ca: string; cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-ca-"));
  const run = (args: string[]) => {
    const r = Bun.spawnSync(["openssl", ...args], { cwd: dir, stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`openssl ${args[0]}: ${r.stderr.toString()}`);
  };
  run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=KHAELOR test CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"]);
  run(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=localhost"]);
  writeFileSync(join(dir, "ext.cnf"), "subjectAltName=DNS:localhost\n");
  run(["x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "srv.pem", "-days", "2", "-extfile", "ext.cnf"]);
  return { ca: join(dir, "ca.pem"), cert: readFileSync(join(dir, "srv.pem"), "utf8"), key: readFileSync(join(dir, "srv.key"), "utf8") };
}

/** The gateway: TLS on localhost, in front of the fake API. */
function tlsGateway(upstream: string, tls: { cert: string; key: string }): string {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: tls.cert, key: tls.key },
    fetch: async (req) => {
      const url = new URL(req.url);
      return fetch(`${upstream}${url.pathname}`, { method: req.method, headers: req.headers, body: await req.arrayBuffer() });
    },
  });
  closers.push(() => void server.stop(true));
  return `https://localhost:${server.port}`;
}

/** A CONNECT proxy that writes down where each tunnel went. */
async function connectProxy(): Promise<{ url: string; tunnels: string[] }> {
  const tunnels: string[] = [];
  const server = net.createServer((sock) => {
    sock.once("data", (buf) => {
      const m = /^CONNECT ([^:\s]+):(\d+) /.exec(buf.toString("latin1"));
      if (!m) return sock.end("HTTP/1.1 405 Method Not Allowed\r\n\r\n");
      tunnels.push(`${m[1]}:${m[2]}`);
      const up = net.connect(Number(m[2]), m[1] === "localhost" ? "127.0.0.1" : m[1], () => {
        sock.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        up.pipe(sock);
        sock.pipe(up);
      });
      up.on("error", () => sock.destroy());
      sock.on("error", () => up.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  closers.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, tunnels };
}

describe("the transport", () => {
  test("through HTTPS_PROXY to a gateway whose certificate only NODE_EXTRA_CA_CERTS vouches for; NO_PROXY goes direct; without the CA, one line", async () => {
    const certs = certificates();
    const api = await serve({ turns: [{ content: [{ type: "text", text: "via proxy" }] }, { content: [{ type: "text", text: "direct" }] }] });
    const gateway = tlsGateway(api.url, certs);
    const proxy = await connectProxy();
    const base = { NODE_EXTRA_CA_CERTS: certs.ca, HTTPS_PROXY: proxy.url };

    const proxied = await runCli(["-p", "hi"], { cwd: tempProject(), env: isolatedEnv(gateway, base) });
    expect(proxied.stdout).toBe("via proxy\n");
    expect(proxy.tunnels).toEqual([`localhost:${new URL(gateway).port}`]);

    const direct = await runCli(["-p", "hi"], { cwd: tempProject(), env: isolatedEnv(gateway, { ...base, NO_PROXY: "localhost" }) });
    expect(direct.stdout).toBe("direct\n");
    expect(proxy.tunnels).toHaveLength(1);

    const untrusted = await runCli(["-p", "hi"], { cwd: tempProject(), env: isolatedEnv(gateway, { HTTPS_PROXY: proxy.url }) });
    expect(untrusted.code).toBe(1);
    // Not retried: waiting does not make a certificate trusted.
    expect(untrusted.stderr).toContain("set NODE_EXTRA_CA_CERTS to its certificate file");
    expect(proxy.tunnels).toHaveLength(2);
    expect(untrusted.stderr).not.toMatch(/\n\s+at /);
  });
});
