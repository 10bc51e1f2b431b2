// How this khaelor was installed decides how it is updated: a compiled binary replaces itself; one
// npm installed (it sits in a node_modules folder) is npm's to replace; one run from a clone of the
// repository (bun run src/main.ts) is updated with git.
export type InstallKind = { kind: "binary"; path: string } | { kind: "npm"; path: string } | { kind: "source" };

/** `main`: Bun.main (a compiled binary's entry lives under /$bunfs/); `execPath`: the binary, symlinks resolved. */
export function installKind(main: string = Bun.main, execPath: string = process.execPath): InstallKind {
  if (!main.startsWith("/$bunfs/") && !/^[A-Z]:[\\/]~BUN[\\/]/i.test(main)) return { kind: "source" };
  if (/[\\/]node_modules[\\/]/.test(execPath)) return { kind: "npm", path: execPath };
  return { kind: "binary", path: execPath };
}

/** The command that updates an install of this kind. */
export function updateCommand(kind: InstallKind): string {
  if (kind.kind === "npm") return "npm install -g khaelor@latest";
  if (kind.kind === "source") return "git pull && npm ci";
  return "khaelor update";
}
