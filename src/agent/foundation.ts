// What a session stands on, opened in order: the settings and what the project's files may widen,
// the key and the model client, the log (resuming decides the model), the MCP servers (started
// now, waited for by the first request only), then the rules engine, the /undo snapshots and the
// orphan sweep side by side, and last the log's writer. Anything the user can act on is a
// SessionOpenError; what they should read before the first prompt goes to `notices`.
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { newSessionId } from "../events/id.ts";
import type { PermissionMode } from "../events/types.ts";
import { leftoverServers } from "../mcp/manager.ts";
import { openSessionMcp } from "../mcp/session-mcp.ts";
import { openSessionPlugins, type SessionPlugins } from "../plugins/session-plugins.ts";
import { DEFAULT_MODEL } from "../model/models.ts";
import { envModel } from "../model/providers/model-ids.ts";
import { openProvider, type OpenedProvider } from "../model/providers/open.ts";
import { ProviderConfigError } from "../model/providers/types.ts";
import type { ModelClient } from "../model/types.ts";
import { createPermissionEngine, splitRuleList, userConfigDir, wideningSettings, type PermissionEngine, type Problem } from "../permissions/index.ts";
import { homedir } from "node:os";
import { SessionWriteError, type SessionWriter } from "../session/log.ts";
import { planPath, projectSessionsDir } from "../session/paths.ts";
import { createSession } from "../session/store.ts";
import { openSettingsTrust, type ProjectSetting, type SettingsTrust } from "../trust/settings-trust.ts";
import { VERSION } from "../version.ts";
import { explainFsError, isUserFsError } from "../workspace/fs-errors.ts";
import { createGitProtection, type GitProtection } from "../workspace/git/index.ts";
import { sessionMark, settleMarked, settleOrphans } from "../workspace/orphans.ts";
import { loadSettings, type ProjectModel, type ProjectStatusLine, type Settings } from "./config.ts";
import { applyEnv, type ProjectEnvVar } from "./settings-env.ts";
import { openLog, SessionOpenError } from "./open-log.ts";
import type { SessionOptions } from "./types.ts";

export type Foundation = {
  cwd: string;
  settings: Settings;
  projectModel: ProjectModel | undefined;
  projectStatusLine: ProjectStatusLine | undefined;
  /** The project's `env`, each variable in force only once trusted (applied here, or when the app's question is answered). */
  projectEnv: ProjectEnvVar[];
  settingsTrust: SettingsTrust;
  /** --trust-project: what the project's files define runs, and widens, this once. */
  trustProject: boolean;
  /** This mode asks the trust question itself (the app). */
  trustQuestion: boolean;
  client: ModelClient;
  /** Anthropic's API or a cloud (src/model/providers): prices, the server tools it lacks. */
  provider: OpenedProvider;
  opened: ReturnType<typeof openLog>;
  /** The model at open: the flags', the resumed session's, a trusted project's, the user's, or the default. */
  model: string;
  sessionId: string;
  mcp: ReturnType<typeof openSessionMcp>;
  /** --plugin-dir's and the settings' enabled plugins (a project's behind the trust question). */
  plugins: SessionPlugins;
  engine: PermissionEngine;
  git: GitProtection;
  writer: SessionWriter;
  shadowDir: string;
  /** The session's plan file: the one file plan mode writes. */
  planFile: string;
  notices: string[];
};

function formatProblem(p: Problem): string {
  return `${p.file}${p.position ? ` ${p.position}` : ""}: ${p.message}`;
}

/** `onWriteError` hears a log write that failed (a full disk), from the first write on. */
export async function openFoundation(opts: SessionOptions, onWriteError: (e: SessionWriteError) => void): Promise<Foundation> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new SessionOpenError(`--cwd ${cwd} is not a directory`);
  const { settings, problems, projectModel, projectStatusLine, userEnv, projectEnv } = loadSettings(cwd);
  // The user's env, as Claude Code applies it: before the provider is picked, so it may name the
  // key, a gateway or the model for KHAELOR itself.
  applyEnv(userEnv);
  // What the project's own files widen (allow rules, a mode that asks less, a model) holds only
  // where the user trusted it; --trust-project trusts it for this run.
  const trustProject = opts.mcp?.trustProject ?? false;
  const trustQuestion = opts.trustQuestion === true;
  const settingsTrust = openSettingsTrust({
    cwd,
    trustProject,
    current: () => [
      ...wideningSettings(cwd, userConfigDir(homedir())),
      ...(projectModel ? [{ key: "model" as const, model: projectModel.model, file: projectModel.file }] : []),
      ...(projectStatusLine ? [{ key: "statusLine" as const, command: projectStatusLine.statusLine.command, file: projectStatusLine.file }] : []),
      ...projectEnv.map(envSetting),
    ],
  });
  // Variables no project may set were left out already; the trusted rest reach what starts from now on.
  applyEnv(Object.fromEntries(projectEnv.filter((v) => settingsTrust.widens(envSetting(v))).map((v) => [v.name, v.value])));
  const trustedProjectModel = projectModel && settingsTrust.widens({ key: "model", model: projectModel.model, file: projectModel.file }) ? projectModel.model : undefined;
  const notices: string[] = [...problems];

  // Checked before anything is written, so a missing key or cloud setting leaves no empty session
  // behind; a cloud's missing setting is one to fix before running again (exit 2 in print mode).
  const provider = await openProvider({ env: process.env, settings, cwd, override: opts.api ?? {} }).catch((e: unknown) => {
    throw e instanceof ProviderConfigError ? new SessionOpenError(e.message, true) : e;
  });
  if (provider.plan.kind === "anthropic" && provider.plan.auth.type === "none")
    throw new SessionOpenError(
      ["ANTHROPIC_API_KEY is not set: export it (or ANTHROPIC_AUTH_TOKEN, or set apiKey in ~/.config/khaelor/settings.json), or try `khaelor --demo`", ...problems.filter((p) => /apiKey(Helper)? is ignored/.test(p))].join("\n"),
    );
  const client = provider.client;

  // Open the log first: resuming decides the model and the permission mode.
  const opened = openLog(opts, cwd, notices, onWriteError);
  const replayed = opened.replayed;
  const model = opts.model ?? replayed?.model ?? envModel(process.env) ?? trustedProjectModel ?? settings.model ?? DEFAULT_MODEL;
  notices.push(...provider.notices(model));
  const sessionId = opened.writer?.sessionId ?? opts.sessionId ?? newSessionId();
  const shadowDir = join(projectSessionsDir(cwd), "shadow");
  const planFile = planPath(cwd, sessionId);
  // MCP servers start now, in parallel with everything below; only the first request waits for
  // them, and no longer than the startup timeout.
  const logDir = opened.writer ? dirname(opened.writer.path) : projectSessionsDir(cwd);
  const mcpPidFile = join(logDir, `${sessionId}.mcp-pids.json`);
  const leftover = opened.writer ? leftoverServers(mcpPidFile) : [];
  const plugins = openSessionPlugins({ cwd, configDir: userConfigDir(homedir()), pluginDirs: opts.pluginDirs ?? [], trustProject, interactive: trustQuestion });
  notices.push(...plugins.notices);
  const mcp = openSessionMcp({
    plugins: plugins.plugins.map((p) => ({ name: p.name, root: p.root, file: p.mcpFile, active: p.active })),
    projectRoot: cwd,
    cliConfigs: opts.mcp?.configs ?? [],
    strict: opts.mcp?.strict ?? false,
    trustProject,
    ...(opts.mcp?.hostServers ? { hostServers: opts.mcp.hostServers } : {}),
    interactive: trustQuestion,
    env: process.env,
    serverEnv: { ...(process.env as Record<string, string>), ...sessionMark(sessionId) },
    pidFile: mcpPidFile,
  });
  notices.push(...mcp.notices);
  // The rules engine (grammar load) and the first work-tree snapshot are independent: overlap them.
  // The mode comes from this run's flags or settings, never silently from the resumed session:
  // a session once run with bypassPermissions must not stay in it.
  const [engine, git, orphanNotices] = await Promise.all([
    createPermissionEngine({ projectRoot: cwd, mode: opts.permissionMode, cliAllow: opts.allowedTools ?? [], cliDeny: opts.disallowedTools ?? [], projectSettings: settingsTrust, planFile, ...(opts.addDirs ? { addDirs: opts.addDirs } : {}) }),
    createGitProtection({ projectRoot: cwd, dataDir: shadowDir, sessionId, resume: opened.writer !== null }),
    // On resume, then, whatever else still carries the mark: an interrupted bash command a kill -9
    // left running, a daemon it started (no KHAELOR holds this session, so none is managed).
    settleOrphans([...opened.lostProcesses, ...leftover], sessionId).then(async (lines) => (opened.writer ? [...lines, ...(await settleMarked(sessionId))] : lines)),
  ]).catch(async (e: unknown) => {
    opened.writer?.close();
    await mcp.manager.close();
    throw e;
  });
  const fail = async (e: SessionOpenError): Promise<never> => {
    opened.writer?.close();
    await mcp.manager.close();
    throw e;
  };
  // A rule typed on the command line that does not parse is a usage error: silently dropping a
  // --disallowedTools rule would let through what the user meant to forbid.
  const cliProblems = engine.problems().filter((p) => p.file.startsWith("--"));
  if (cliProblems.length > 0) await fail(new SessionOpenError(cliProblems.map(formatProblem).join("\n"), true));
  // Print mode has nobody to ask: a deny or ask rule that could not be read stops it before anything
  // runs (exit 2), as the README promises, instead of letting through what the rule may deny.
  const broken = engine.problems().filter((p) => p.failClosed);
  if (broken.length > 0 && opts.ask === undefined)
    await fail(new SessionOpenError(`${broken.map(formatProblem).join("\n")}\nstopped: a permission rule that cannot be read might deny what this run would do; fix it and run again`, true));
  notices.push(...orphanNotices, ...engine.problems().map(formatProblem));
  if (replayed && replayed.permissionMode !== engine.mode)
    notices.push(`this session last ran in ${replayed.permissionMode} mode; it now runs in ${engine.mode} mode (pass --permission-mode ${replayed.permissionMode} to keep it)`);
  for (const g of replayed?.grants ?? []) if (g.decision === "allow") for (const rule of splitRuleList([g.rule])) engine.grant(rule, "session");
  if (git.unavailable) notices.push(`/undo and /diff are off: ${git.unavailable}`);
  let writer: SessionWriter;
  try {
    writer = openWriter({ cwd, sessionId, model, mode: engine.mode, git, opened, onWriteError });
  } catch (e) {
    await mcp.manager.close();
    throw e;
  }
  return { cwd, settings, projectModel, projectStatusLine, projectEnv, settingsTrust, trustProject, trustQuestion, client, provider, opened, model, sessionId, mcp, plugins, engine, git, writer, shadowDir, planFile, notices };
}

export function envSetting(v: ProjectEnvVar): ProjectSetting {
  return { key: "env", name: v.name, value: v.value, file: v.file };
}

/** The resumed session's writer, or a new session's log, created now that the mode is known. */
function openWriter(o: { cwd: string; sessionId: string; model: string; mode: PermissionMode; git: GitProtection; opened: ReturnType<typeof openLog>; onWriteError: (e: SessionWriteError) => void }): SessionWriter {
  if (o.opened.writer) return o.opened.writer;
  try {
    return createSession({ sessionId: o.sessionId, cwd: o.cwd, model: o.model, permissionMode: o.mode, khaelorVersion: VERSION, git: o.git.baseline, forkedFrom: o.opened.forkedFrom, seed: o.opened.seedEvents, onError: o.onWriteError });
  } catch (e) {
    if (e instanceof SessionWriteError) throw new SessionOpenError(explainFsError(e.cause, e.path, "the session log"));
    if (!isUserFsError(e)) throw e;
    throw new SessionOpenError(explainFsError(e, projectSessionsDir(o.cwd), "the session directory"));
  }
}
