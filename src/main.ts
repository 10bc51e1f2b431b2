// Entry point: parse argv, pick a mode, hand over. Kept tiny so `--version` and `--help` start
// fast; every mode is imported only when it runs. (No top-level await: it breaks --bytecode.)
import { HELP, parseArgs, UsageError } from "./cli/args.ts";
import { EXIT } from "./modes/shared/exit-codes.ts";
import { runningPlatform } from "./platform/target.ts";
import { VERSION } from "./version.ts";
import { forTerminal } from "./text/terminal-out.ts";

async function main(): Promise<number> {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(forTerminal(process.stderr, `khaelor: ${e.message}\n`));
      return EXIT.usage;
    }
    throw e;
  }
  // Said once, before anything runs: a setting the user passed must not seem to have taken effect.
  for (const flag of opts.unhonoured) process.stderr.write(`khaelor: ${flag} is accepted for compatibility but not supported yet; ignored\n`);
  switch (opts.command) {
    case "version":
      process.stdout.write(`${VERSION} (khaelor, ${runningPlatform()})\n`);
      return EXIT.ok;
    case "help":
      process.stdout.write(HELP);
      return EXIT.ok;
    case "mcp":
      return (await import("./cli/mcp-command.ts")).mcpCommand(opts.mcpArgs);
    case "sessions":
      return (await import("./modes/print/session-list.ts")).printSessionList(opts, null);
    case "plugin":
      return (await import("./cli/plugin-command.ts")).pluginCommand(opts.commandArgs, opts.cwd ?? process.cwd());
    case "export":
      return (await import("./cli/export-command.ts")).exportCommand(opts.commandArgs);
    case "update": {
      const update = await import("./install/self-update.ts");
      return update.updateMain(opts.commandArgs, update.defaultUpdateIo(VERSION, runningPlatform()));
    }
    case "doctor":
      return (await import("./doctor/doctor.ts")).doctorMain(opts.commandArgs);
    case "sandbox":
      return (await import("./cli/sandbox-command.ts")).sandboxCommand(opts.commandArgs, opts.cwd ?? process.cwd());
    case "acp":
      return (await import("./modes/acp/run-acp.ts")).runAcp(opts);
    case "run": {
      if (opts.inputFormat === "stream-json") return (await import("./modes/stream-json/run-stream-json.ts")).runStreamJson(opts);
      const interactive = !opts.print && process.stdin.isTTY && process.stdout.isTTY && process.env.TERM !== "dumb";
      if (interactive) return (await import("./modes/app/run-interactive.ts")).runInteractive(opts);
      // The update check runs beside print mode, where a person reads stderr; its line comes after the output.
      const updates = process.stderr.isTTY ? await startUpdateCheck(opts) : null;
      const code = await (await import("./modes/print/run-print.ts")).runPrint(opts);
      const line = updates?.known();
      if (line) process.stderr.write(`${line}\n`);
      return code;
    }
  }
}

async function startUpdateCheck(opts: { cwd: string | null }) {
  const [{ startUpdateCheck }, { loadSettings }] = await Promise.all([import("./install/update-check.ts"), import("./agent/config.ts")]);
  return startUpdateCheck({ version: VERSION, autoUpdates: () => loadSettings(opts.cwd ?? process.cwd()).settings.autoUpdates });
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`khaelor: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(EXIT.error);
  },
);
