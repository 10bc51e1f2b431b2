// Facts about a path that permissions care about: where it really points (symlinks followed, `..`
// collapsed), whether it is inside the project, secret-bearing, protected from tool writes, or a
// block device.
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, normalize, resolve } from "node:path";

/** Resolve a tool-supplied path the way the tools do (trim, `~`, relative to cwd), then follow symlinks. */
export function resolveToolPath(path: string, cwd: string, home: string): string {
  let p = path.trim();
  if (p === "~" || p.startsWith("~/")) p = home + p.slice(1);
  return realPath(normalize(isAbsolute(p) ? p : resolve(cwd, p)));
}

/**
 * The path with every symlink resolved, for paths that do not exist yet too: the longest existing
 * prefix is resolved and the rest appended. A dangling symlink resolves to where it points, since
 * writing through it creates that file.
 */
export function realPath(abs: string, depth = 0): string {
  try {
    return realpathSync(abs);
  } catch {
    if (depth > 40) return abs;
    try {
      if (lstatSync(abs).isSymbolicLink()) return realPath(resolve(dirname(abs), readlinkSync(abs)), depth + 1);
    } catch {
      // does not exist: fall through to the parent
    }
    const parent = dirname(abs);
    if (parent === abs) return abs;
    return join(realPath(parent, depth + 1), basename(abs));
  }
}

/** The top folder of the git work tree holding `dir` (the nearest with a `.git`), or null. */
export function gitTopLevel(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    try {
      lstatSync(join(d, ".git"));
      return d;
    } catch {
      if (d === dirname(d)) return null;
    }
  }
}

export function isInside(path: string, dir: string): boolean {
  if (dir === "/") return path.startsWith("/");
  return path === dir || path.startsWith(dir + "/");
}

/** `dir` is `path` or one of its ancestors: deleting `dir` deletes `path`. */
export function isAncestorOrSelf(dir: string, path: string): boolean {
  return isInside(path, dir);
}

const HOME_SECRETS = [
  ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".config/gcloud", ".config/gh",
  ".password-store", ".netrc", ".git-credentials", ".pgpass", ".vault-token", ".bash_history",
  ".zsh_history", ".python_history", ".node_repl_history", ".local/share/keyrings",
];
const SYSTEM_SECRETS = ["/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssl/private"];
const SECRET_NAMES = new Set([
  ".npmrc", ".pypirc", ".netrc", ".git-credentials", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519",
  "credentials.json", "service-account.json", ".htpasswd",
]);
const HARMLESS_ENV = /^\.env\.(example|sample|template|dist|defaults)$/;
const KEY_EXTENSIONS = ["pem", "key", "p12", "pfx", "keystore", "jks"];
const KEY_FILE = new RegExp(`\\.(${KEY_EXTENSIONS.join("|")})$`, "i");

/**
 * The names sensitiveReason flags wherever they are, as globs: what a walk that cannot be listed
 * must leave out before it may read a tree that could hold them.
 */
export const SECRET_NAME_GLOBS: readonly string[] = [".env", ".env.*", ...KEY_EXTENSIONS.map((e) => `*.${e}`), ...SECRET_NAMES];

/** The secret places sensitiveReason knows at fixed paths (home credentials, /etc), as absolute paths. */
export function secretPlaces(home: string): string[] {
  return [...homeSecretDirs(home).map(([, abs]) => abs), ...SYSTEM_SECRETS];
}

let homeDirs: { home: string; dirs: Array<[string, string]> } | null = null;
function homeSecretDirs(home: string): Array<[string, string]> {
  if (homeDirs?.home !== home) homeDirs = { home, dirs: HOME_SECRETS.map((rel) => [rel, join(home, rel)]) };
  return homeDirs.dirs;
}

/** Why a path holds secrets, or null. Sensitive paths ask in every mode but bypass. */
export function sensitiveReason(abs: string, home: string): string | null {
  // Called for every file a search covers: the home checks are skipped outright outside home.
  if (isInside(abs, home)) {
    for (const [rel, dir] of homeSecretDirs(home)) if (isInside(abs, dir)) return `~/${rel} holds credentials`;
  }
  if (abs.startsWith("/etc/")) for (const p of SYSTEM_SECRETS) if (isInside(abs, p)) return `${p} holds credentials`;
  for (const segment of abs.split("/")) {
    const why = secretNameReason(segment);
    if (why) return why;
  }
  return null;
}

/**
 * Why a file or folder with this name holds secrets wherever it is (`.env`, `.env.local`,
 * `x.pem`, `id_rsa`; not `.env.example`), or null: the name part of sensitiveReason.
 */
export function secretNameReason(name: string): string | null {
  if ((name === ".env" || name.startsWith(".env.")) && !HARMLESS_ENV.test(name)) return `${name} files usually hold secrets`;
  if (SECRET_NAMES.has(name)) return `${name} usually holds credentials`;
  if (KEY_FILE.test(name)) return `${name} looks like a private key`;
  return null;
}

export type ProtectedDirs = { root: string; configDir: string };

/** Why tools may never write here (any mode, bypass included), or null. */
export function protectedWriteReason(abs: string, dirs: ProtectedDirs): string | null {
  if (abs.split("/").includes(".git")) {
    return "writing into .git/ internals is refused in every mode; use git commands instead";
  }
  if (isInside(abs, join(dirs.root, ".khaelor"))) {
    return "KHAELOR's own settings (.khaelor/) cannot be changed by the agent; edit them yourself or use /permissions";
  }
  if (isInside(abs, dirs.configDir)) {
    return "KHAELOR's user settings cannot be changed by the agent; edit them yourself or use /permissions";
  }
  return null;
}

const BLOCK_DEVICE =
  /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|mapper\/|dm-\d|md\d|loop\d|sr\d|fd\d|mtdblock|root$|block\/|disk\/)/;

export function isBlockDevice(abs: string): boolean {
  if (BLOCK_DEVICE.test(abs)) return true;
  if (!abs.startsWith("/dev/")) return false;
  try {
    return statSync(abs).isBlockDevice();
  } catch {
    return false;
  }
}

/** Targets that discard no data when written: the null device and the process's own streams. */
export function isHarmlessDevice(abs: string): boolean {
  return /^\/dev\/(?:null|zero|stdout|stderr|stdin|tty|fd\/\d+|full|random|urandom)$/.test(abs) || /^\/proc\/self\/fd\/\d+$/.test(abs);
}
