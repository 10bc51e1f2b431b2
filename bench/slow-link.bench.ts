// A real slow SSH link: sshd (Debian's openssh-server) on 127.0.0.1:2222 in a network namespace
// of its own, its output shaped by tc htb to 4 KB/s (and 20 KB/s), lo at a 1500-byte MTU so TCP
// segments are Ethernet-sized. sshd and TCP buffer hundreds of kilobytes, so a program only feels
// the link once seconds of output are queued. The stream bench's answer is streamed to the real
// CLI (the compiled binary) through `ssh -tt`; the figure is how long the end of the answer takes
// to reach the screen after the fake API's last byte, and the bytes that crossed the link. Each run
// also says when the answer's last text showed (before the turn's end: spinner gone, composer
// back) and how many bytes reached the terminal after the model's last byte (what was still queued
// then, plus the final frames).
// Needs root, ip, tc and sshd; otherwise the row says why it was skipped. The namespace keeps the
// shaping away from everything else on the machine. The module re-runs itself inside it.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeApi } from "../src/fakeapi/index.ts";
import { ANSWER_BYTES, COLS, END_MARK, median, PACING, ROWS, streamAnswer } from "./stream-fixture.ts";

type Result = { name: string; [k: string]: unknown };
const NS = "khaelor-bench-link";
const RATES = (process.env.BENCH_LINK_RATES ?? "4,20").split(",").map(Number); // KB/s
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const sh = (cmd: string[]) => {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString().trim()}`);
  return r.stdout.toString();
};

function shape(kbPerSec: number): void {
  const inNs = ["ip", "netns", "exec", NS];
  Bun.spawnSync([...inNs, "tc", "qdisc", "del", "dev", "lo", "root"]);
  sh([...inNs, "tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:", "htb", "default", "10"]);
  sh([...inNs, "tc", "class", "add", "dev", "lo", "parent", "1:", "classid", "1:10", "htb", "rate", "1gbit"]);
  sh([...inNs, "tc", "class", "add", "dev", "lo", "parent", "1:", "classid", "1:20", "htb", "rate", `${kbPerSec * 8}kbit`, "ceil", `${kbPerSec * 8}kbit`]);
  sh([...inNs, "tc", "filter", "add", "dev", "lo", "parent", "1:", "protocol", "ip", "u32", "match", "ip", "sport", "2222", "0xffff", "flowid", "1:20"]);
}

async function outside(): Promise<Result[]> {
  const missing = ["/usr/sbin/sshd", "/usr/bin/ssh", "/usr/sbin/tc", "/usr/sbin/ip"].filter((p) => !existsSync(p));
  const bin = process.env.KHAELOR_BIN ?? join(import.meta.dir, "..", "dist", "khaelor");
  if (process.getuid?.() !== 0 || missing.length > 0 || !existsSync(bin)) {
    return [{ name: "slow link: skipped", reason: process.getuid?.() !== 0 ? "needs root" : missing.length ? `missing ${missing.join(", ")}` : `no binary at ${bin} (bun run build)` }];
  }
  Bun.spawnSync(["ip", "netns", "del", NS]);
  sh(["ip", "netns", "add", NS]);
  try {
    sh(["ip", "netns", "exec", NS, "ip", "link", "set", "lo", "up"]);
    sh(["ip", "netns", "exec", NS, "ip", "link", "set", "lo", "mtu", "1500"]);
    const proc = Bun.spawn(["ip", "netns", "exec", NS, process.execPath, join(import.meta.dir, "run.ts"), "--module", "slow-link.bench.ts", "--json"], {
      env: { ...process.env, KHAELOR_LINK_INSIDE: "1", KHAELOR_BIN: bin },
      stdout: "pipe",
      stderr: "inherit",
    });
    const text = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0) throw new Error("the slow-link bench failed inside its namespace");
    return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Result);
  } finally {
    Bun.spawnSync(["ip", "netns", "del", NS]);
  }
}

async function inside(): Promise<Result[]> {
  const { startPty, idle } = await import("../test/e2e/pty/harness.ts");
  const { isolatedEnv, tempProject } = await import("../test/support/cli.ts");
  const dir = mkdtempSync(join(tmpdir(), "khaelor-link-"));
  sh(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", join(dir, "host")]);
  sh(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", join(dir, "user")]);
  writeFileSync(join(dir, "authorized_keys"), await Bun.file(join(dir, "user.pub")).text());
  writeFileSync(
    join(dir, "sshd_config"),
    [`Port 2222`, `ListenAddress 127.0.0.1`, `HostKey ${join(dir, "host")}`, `AuthorizedKeysFile ${join(dir, "authorized_keys")}`, `PermitRootLogin yes`, `StrictModes no`, `UsePAM no`, `PidFile ${join(dir, "sshd.pid")}`, `AcceptEnv *`, `PrintMotd no`, `PrintLastLog no`].join("\n") + "\n",
  );
  mkdirSync("/run/sshd", { recursive: true, mode: 0o755 }); // sshd's privilege separation directory
  const sshd = Bun.spawn(["/usr/sbin/sshd", "-D", "-e", "-f", join(dir, "sshd_config")], { stdout: "ignore", stderr: "pipe" });
  const bin = process.env.KHAELOR_BIN!;
  // sshd listening: the first connection must not race its start.
  for (let i = 0; i < 100 && !(await Bun.connect({ hostname: "127.0.0.1", port: 2222, socket: { data() {} } }).then((c) => (c.end(), true), () => false)); i++) await Bun.sleep(50);
  const out: Result[] = [];
  try {
    for (const rate of RATES) {
      shape(rate);
      const runs: Array<{ endMs: number; textMs: number; bytes: number; bytesAfterLastByte: number }> = [];
      for (let i = 0; i < RUNS; i++) {
        let lastByteAt = 0;
        let bytesAtLastByte = 0;
        let session: { bytes(): number } | null = null;
        const api = await startFakeApi({
          scenario: { pacing: PACING, turns: [{ content: [{ type: "text", text: streamAnswer() }] }] },
          onStreamEnd: () => {
            lastByteAt = performance.now();
            bytesAtLastByte = session?.bytes() ?? 0;
          },
        });
        const env = isolatedEnv(api.url);
        const cwd = tempProject();
        // The CLI runs on the far side of ssh, with the test's environment passed in its command.
        const remote = `cd ${cwd} && exec env ${Object.entries(env).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ")} TERM=xterm-256color ${bin}`;
        const wrapper = join(dir, "ssh-khaelor");
        writeFileSync(wrapper, `#!/bin/sh\nexec ssh -tt -q -p 2222 -i ${join(dir, "user")} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes root@127.0.0.1 '${remote}'\n`);
        chmodSync(wrapper, 0o755);
        const saved = process.env.KHAELOR_BIN;
        process.env.KHAELOR_BIN = wrapper;
        const s = startPty([], { cwd, env: { ...env, TERM: "xterm-256color" }, cols: COLS, rows: ROWS });
        process.env.KHAELOR_BIN = saved;
        session = s;
        try {
          await s.waitForText("ask anything", 60_000);
          const b0 = s.bytes();
          s.type("go\r");
          let textAt = 0; // may come before the model's last byte: the last delta precedes message_stop
          await s.waitFor((sc) => {
            if (textAt === 0 && sc.includes(END_MARK)) textAt = performance.now();
            return sc.includes(END_MARK) && idle(sc);
          }, "the end of the answer", 240_000);
          runs.push({ endMs: Math.round(performance.now() - lastByteAt), textMs: Math.round(textAt - lastByteAt), bytes: s.bytes() - b0, bytesAfterLastByte: s.bytes() - bytesAtLastByte });
          s.send("\x04");
          await Promise.race([s.exited, Bun.sleep(10_000)]);
        } finally {
          s.kill();
          await api.close();
        }
      }
      out.push({
        name: `slow link: the real CLI over ssh at ${rate} KB/s (tc htb, 127.0.0.1:2222, ${COLS}x${ROWS}), end of the answer after the model's last byte (median of ${RUNS})`,
        endAfterLastByteMs: median(runs.map((r) => r.endMs)),
        textAfterLastByteMs: median(runs.map((r) => r.textMs)),
        bytesAfterLastByte: median(runs.map((r) => r.bytesAfterLastByte)),
        bytesPerAnswerByte: +(median(runs.map((r) => r.bytes)) / ANSWER_BYTES).toFixed(3),
        runs,
      });
    }
  } finally {
    sshd.kill();
  }
  return out;
}

export async function run(_opts: { json: boolean }): Promise<Result[]> {
  return process.env.KHAELOR_LINK_INSIDE ? inside() : outside();
}
