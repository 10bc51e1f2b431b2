// One session's sandbox: whether it can run here (said at start, never silent), the proxy it owns,
// and each command wrapped for bubblewrap (Linux) or sandbox-exec (macOS). A command whose sandbox
// blocked something gets the words for the model ("blocked by the sandbox: write to ~/x"); what
// the user allows for the session (a path, a domain) holds from the next command on.
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { bwrapArgs, innerCommand, proxyEnv, PROXY_PORT_INSIDE } from "./bwrap.ts";
import { planFilesystem, type FsPlan } from "./fs-plan.ts";
import { startProxy, type RunningProxy } from "./proxy.ts";
import { openSessionNet, type SessionNet } from "./netns.ts";
import { placeholders } from "./placeholders.ts";
import { seatbeltProfile } from "./seatbelt.ts";
import { domainAllowed, type SandboxSettings } from "./settings.ts";
import { explainBlocked } from "./blocked.ts";
import { probeSandbox, type Availability } from "./availability.ts";
import type { CommandConfinement, ConfinedCommand } from "../workspace/types.ts";

export type SandboxState =
  /** Commands run confined. */
  | { kind: "on"; enforcer: "bubblewrap" | "seatbelt"; warnings: string[]; /** One network for the session's commands: localhost is theirs. */ sharedNetwork: boolean }
  /** The user did not turn it on. */
  | { kind: "off" }
  /** Turned on, but it cannot run here: commands ask as without it, or are refused (failIfUnavailable). */
  | { kind: "unavailable"; why: string; install: string; refuse: boolean };

export type Sandbox = CommandConfinement & {
  readonly settings: SandboxSettings;
  state(): SandboxState;
  /** The status line's word: "sandbox on", "sandbox off", "sandbox unavailable (asking)", … */
  label(): string;
  /** Turn it on or off for this session (/sandbox); says why when it cannot go on. */
  toggle(on: boolean): Promise<SandboxState>;
  /** A command that would run confined now (not excluded, sandbox on). */
  confines(command: string): boolean;
  /** The user allowed this for the session: `write:/abs/path` or `domain:example.com`. */
  grant(what: { write: string } | { domain: string }): void;
  /** What the last command's sandbox blocked, for the one-key offer: `line` is that command, `shown` the path or host as the user reads it. */
  lastBlocked(): Offer | null;
  /** The plan for the next command (for /sandbox and `khaelor sandbox`). */
  plan(): FsPlan;
  close(): Promise<void>;
};

export type Offer = { write?: string; domain?: string; line: string; shown: string };

export type SandboxOptions = {
  root: string;
  settings: SandboxSettings;
  /** The specifiers of the user's Read(...) deny rules. */
  readDenyRules?: () => string[];
  home?: string;
  /** Tests: where to look for the programs (default: PATH). */
  probe?: () => Availability;
  /**
   * How long bubblewrap's mount points over missing protected paths stay after the last command
   * (default 1500 ms). Removing one right away costs ~10 ms or more (the kernel detaches the dying
   * namespace's mount on it and waits for RCU), and the next command would make it again.
   */
  placeholderLingerMs?: number;
};

export async function openSandbox(o: SandboxOptions): Promise<Sandbox> {
  const home = o.home ?? homedir();
  const extraWrite: string[] = [];
  const extraDomains: string[] = [];
  let enabled = o.settings.enabled;
  let availability: Availability | null = null;
  let proxy: RunningProxy | null = null;
  /** The session's private directory (0700): the proxy's socket, the network holder's pid, per-command marks. */
  let stateDir: string | null = null;
  let emptyDir: string | null = null;
  let net: SessionNet | null = null;
  let netError: string | null = null;
  let seq = 0;
  let last: Offer | null = null;
  const mounts = placeholders(o.placeholderLingerMs ?? 1500);

  const settingsNow = () => ({ ...o.settings, allowWrite: [...o.settings.allowWrite, ...extraWrite], allowedDomains: [...o.settings.allowedDomains, ...extraDomains] });
  const planNow = () => mounts.plan(planFilesystem({ root: o.root, home, settings: settingsNow(), readDenyRules: o.readDenyRules?.() ?? [] }));
  const probe = () => (availability ??= (o.probe ?? probeSandbox)());
  // Under bubblewrap the proxy always runs (it names the hosts it refused); Seatbelt opens the
  // network to it only when a domain is allowed.
  const needsProxy = () => settingsNow().allowedDomains.length > 0 || (availability?.ok === true && availability.enforcer === "bubblewrap");
  const sockPath = () => join(stateDir!, "proxy.sock");

  /** The proxy, and under bubblewrap the session's network with its relay: once, while the sandbox is on. */
  const ensureNetwork = async () => {
    if (state().kind !== "on") return;
    stateDir ??= mkdtempSync(join(tmpdir(), "khaelor-sandbox-"));
    const a = probe();
    const relay = a.ok && (a.enforcer === "seatbelt" || a.socat);
    if (!proxy && relay && needsProxy()) {
      const listen = process.platform === "darwin" ? { port: 0 } : { path: sockPath() };
      proxy = await startProxy({ listen, allowed: (host) => domainAllowed(settingsNow(), host) });
    }
    if (a.ok && a.enforcer === "bubblewrap" && a.nsenter && !net && !netError) {
      const bwrap = Bun.which("bwrap");
      const nsenter = Bun.which("nsenter");
      const r = bwrap && nsenter ? openSessionNet({ bwrap, nsenter, proxySocket: proxy ? sockPath() : null, stateDir }) : { error: "bwrap or nsenter left PATH" };
      if ("error" in r) netError = r.error;
      else net = r;
    }
  };

  const state = (): SandboxState => {
    if (!enabled) return { kind: "off" };
    const a = probe();
    if (!a.ok) return { kind: "unavailable", why: a.why, install: a.install, refuse: o.settings.failIfUnavailable };
    const warnings = [...a.warnings];
    if (a.enforcer === "bubblewrap" && !a.socat) warnings.push("socat is not on PATH: the network stays closed, allowed domains too (install socat)");
    if (a.enforcer === "bubblewrap" && !a.nsenter) warnings.push("nsenter (util-linux) is not on PATH: each command gets a network of its own, so a server started with the process tool cannot be reached by later commands");
    if (netError) warnings.push(`${netError}: each command gets a network of its own, so a server started with the process tool cannot be reached by later commands`);
    return { kind: "on", enforcer: a.enforcer, warnings, sharedNetwork: net !== null };
  };
  await ensureNetwork();

  const wrap = (command: string[], opts: { cwd: string; pty: boolean; line: string }): ConfinedCommand | null => {
    const s = state();
    if (s.kind !== "on" || isExcluded(opts.line)) return null;
    const plan = planNow();
    const mark = proxy?.mark() ?? 0;
    const a = probe();
    const useProxy = proxy !== null && (s.enforcer === "seatbelt" || (a.ok && a.socat));
    const shared = s.enforcer === "bubblewrap" && net !== null;
    const env = { ...packageCaches(stateDir!), ...(useProxy ? proxyEnv(s.enforcer === "seatbelt" ? proxy!.port : PROXY_PORT_INSIDE, shared) : {}) };
    const script = command[0] === "bash" && command[1] === "-c" ? command[2]! : command.map(shellQuote).join(" ");
    let argv: string[];
    let fds: number[] = [];
    const leftFile = s.enforcer === "bubblewrap" && !opts.pty ? join(stateDir!, `left-${++seq}`) : null;
    if (s.enforcer === "bubblewrap") {
      const own = shared ? null : { proxySocket: useProxy ? sockPath() : null };
      mounts.start(plan);
      emptyDir ??= mkdtempSync(join(tmpdir(), "khaelor-empty-"));
      chmodSync(emptyDir, 0o555);
      const entered = net?.enter() ?? { prefix: [], fds: [] };
      fds = entered.fds;
      const inner = innerCommand(script, { relaySocket: own?.proxySocket ?? null, leftFile, closeFds: fds.map((_, i) => 3 + i) });
      argv = [...entered.prefix, "bwrap", ...bwrapArgs(plan, { ownNetwork: own, pty: opts.pty, cwd: opts.cwd, emptyDir }), ...inner];
    } else {
      argv = ["/usr/bin/sandbox-exec", "-p", seatbeltProfile(plan, { proxyPort: useProxy ? proxy!.port : null }), "bash", "-c", script];
    }
    let finished = false;
    let left = false;
    return {
      argv,
      env,
      fds,
      leftBehind: () => left,
      finish(output: string): string[] {
        if (!finished) {
          finished = true;
          if (leftFile && existsSync(leftFile)) {
            left = true;
            rmSync(leftFile, { force: true });
          }
          if (s.enforcer === "bubblewrap") mounts.end();
        }
        const found = explainBlocked(output, { plan, home, root: o.root, cwd: opts.cwd, deniedHosts: proxy?.deniedSince(mark) ?? [], networkOpen: useProxy });
        const b = found.offer;
        last = b ? { ...b, line: opts.line, shown: b.write !== undefined ? (b.write.startsWith(`${home}/`) ? `~/${b.write.slice(home.length + 1)}` : b.write) : b.domain! } : null;
        return found.notes;
      },
    };
  };

  const isExcluded = (line: string) => o.settings.excludedCommands.some((x) => excludedMatch(x, line));

  return {
    settings: o.settings,
    state,
    label() {
      const s = state();
      if (s.kind === "on") return "sandbox on";
      if (s.kind === "off") return "sandbox off";
      return s.refuse ? "sandbox unavailable: commands refused" : "sandbox unavailable: asking";
    },
    async toggle(on) {
      enabled = on;
      availability = null;
      await ensureNetwork();
      return state();
    },
    confines(command) {
      return state().kind === "on" && !isExcluded(command);
    },
    wrap,
    grant(what) {
      if ("write" in what) extraWrite.push(what.write);
      else extraDomains.push(what.domain);
      void ensureNetwork();
    },
    lastBlocked: () => last,
    plan: planNow,
    async close() {
      net?.close();
      net = null;
      await proxy?.close();
      proxy = null;
      if (stateDir) rmSync(stateDir, { recursive: true, force: true });
      if (emptyDir) rmSync(emptyDir, { recursive: true, force: true });
      mounts.removeAll();
    },
  };
}

/**
 * Package managers' caches live in the home directory, which is read-only inside (npm fails with
 * EROFS on ~/.npm): each session gets caches of its own in its private directory. Not the user's:
 * a command could plant a package there that a later unconfined install would trust.
 */
function packageCaches(stateDir: string): Record<string, string> {
  const dir = join(stateDir, "caches");
  // npm's update check would reach registry.npmjs.org on every run: a blocked host the user is offered each time.
  return { npm_config_update_notifier: "false", npm_config_cache: join(dir, "npm"), YARN_CACHE_FOLDER: join(dir, "yarn"), BUN_INSTALL_CACHE_DIR: join(dir, "bun"), PIP_CACHE_DIR: join(dir, "pip") };
}

/** Claude Code's excludedCommands: `docker` or `docker *` covers `docker ps`; matched on the command's start. */
export function excludedMatch(pattern: string, command: string): boolean {
  const p = pattern.replace(/(:\*| \*)$/, "").trim();
  const c = command.trim();
  return c === p || c.startsWith(`${p} `);
}

const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
