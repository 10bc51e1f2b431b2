// `khaelor doctor`: one line per thing it looked at, then each problem with its fix. Exit 0 when
// healthy (no terminal needed), 1 when anything needs fixing.
import { resolve } from "node:path";
import { forTerminal } from "../text/terminal-out.ts";
import { grammarFinding, placesFindings, providerFinding, ripgrepFinding, sandboxFinding, terminalFinding, updatesFinding, versionFinding, type Finding } from "./checks.ts";

export async function doctorFindings(cwd: string, env: Record<string, string | undefined>, stdout: { isTTY?: boolean; columns?: number; rows?: number }): Promise<Finding[]> {
  return [versionFinding(), ...placesFindings(cwd, env), providerFinding(cwd, env), ripgrepFinding(), await grammarFinding(), terminalFinding(env, stdout), sandboxFinding(cwd), updatesFinding(cwd, env)];
}

export function doctorReport(findings: Finding[]): string {
  const width = Math.max(...findings.map((f) => f.name.length));
  const lines = findings.map((f) => `${f.problem ? "✗" : " "} ${f.name.padEnd(width)}  ${f.value}`);
  const problems = findings.filter((f) => f.problem);
  if (problems.length === 0) return `${lines.join("\n")}\n\nNo problems found.\n`;
  const fixes = problems.map((f) => `✗ ${f.name}: ${f.problem}\n  fix: ${f.fix ?? "see above"}`);
  return `${lines.join("\n")}\n\n${problems.length} problem${problems.length === 1 ? "" : "s"}:\n${fixes.join("\n")}\n`;
}

export async function doctorMain(args: string[]): Promise<number> {
  if (args.length > 0) {
    process.stderr.write(forTerminal(process.stderr, `khaelor: doctor takes no arguments (got ${args[0]})\n`));
    return 2;
  }
  const findings = await doctorFindings(resolve(process.cwd()), process.env, process.stdout);
  process.stdout.write(forTerminal(process.stdout, doctorReport(findings)));
  return findings.some((f) => f.problem) ? 1 : 0;
}
