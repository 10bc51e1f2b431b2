// Writes that never leave a half-written file behind: a crash or a full disk leaves either the old
// file or the new one. The temporary file sits in the same directory so rename() stays atomic (it
// cannot cross file systems). A rename makes a new file, so what the old one was is carried over:
// a symlink is written through to its target (CLAUDE.md -> AGENTS.md stays one file), the owner,
// group and mode stay (a container running as root must not take a bind-mounted file from uid
// 1000), and a file with other hard links is written in place, since a rename would leave them
// holding the old text.
import { closeSync, fchmodSync, fchownSync, fstatSync, fsyncSync, ftruncateSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** What the write did beyond writing, for the tool to tell the model (and so the user). */
export type WriteReport = {
  /** The file written: the link's target when `path` is a symlink. */
  target: string;
  /** `path` is a symlink (possibly a chain) and the write went to `target`. */
  throughLink: boolean;
  /** Other hard links share the file: it was written in place (not atomically) so they see it too. */
  hardLinks: number;
  /** The file had no write permission for its owner; it was written anyway and keeps its mode. */
  wasReadOnly: boolean;
  /** The owner or group could not be kept (not root and not the owner): the file is now ours. */
  ownerChanged: boolean;
};

const MAX_LINKS = 40;

/** Where a write to `path` lands: the end of its symlink chain (the chain's last name, when dangling). */
export function linkTarget(path: string): { target: string; throughLink: boolean } {
  let p = resolve(path);
  let throughLink = false;
  for (let i = 0; i < MAX_LINKS; i++) {
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch {
      return { target: p, throughLink };
    }
    if (!st.isSymbolicLink()) return { target: p, throughLink };
    p = resolve(dirname(p), readlinkSync(p));
    throughLink = true;
  }
  throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: "ELOOP" });
}

function writeAll(fd: number, data: Uint8Array) {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off, off);
}

export function writeFileAtomic(path: string, data: Uint8Array, opts: { mode?: number } = {}): WriteReport {
  const { target, throughLink } = linkTarget(path);
  const dir = dirname(target);
  mkdirSync(dir, { recursive: true });
  let old: Stats | null = null;
  try {
    old = statSync(target);
  } catch {
    old = null;
  }
  const mode = opts.mode ?? (old ? old.mode & 0o7777 : 0o644);
  const report: WriteReport = { target, throughLink, hardLinks: old && old.nlink > 1 ? old.nlink - 1 : 0, wasReadOnly: !!old && (old.mode & 0o200) === 0, ownerChanged: false };

  if (old && old.nlink > 1) {
    // In place: truncating first would lose the file on a full disk, so write over it, then cut.
    const fd = openSync(target, "r+");
    try {
      writeAll(fd, data);
      ftruncateSync(fd, data.length);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return report;
  }

  const tmp = join(dir, `.${basename(target)}.khaelor-${process.pid}-${Date.now().toString(36)}.tmp`);
  const fd = openSync(tmp, "w", mode);
  try {
    if (old && (old.uid !== fstatSync(fd).uid || old.gid !== fstatSync(fd).gid)) {
      try {
        fchownSync(fd, old.uid, old.gid);
      } catch {
        report.ownerChanged = true;
      }
    }
    // open() applies the umask, and chown clears set-id bits: the file must end with exactly the old mode.
    fchmodSync(fd, mode);
    writeAll(fd, data);
    fsyncSync(fd);
    closeSync(fd);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {}
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
  try {
    renameSync(tmp, target);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
  // The rename is durable only once the directory entry is; best effort (not every FS allows it).
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {}
  return report;
}

/** The report as a sentence for a tool result ("" when there is nothing to say). */
export function describeWrite(report: WriteReport, shown: (abs: string) => string): string {
  const notes: string[] = [];
  if (report.throughLink) notes.push(`written through the symlink to ${shown(report.target)}`);
  if (report.hardLinks > 0) notes.push(`written in place: ${report.hardLinks} other hard link${report.hardLinks === 1 ? "" : "s"} share${report.hardLinks === 1 ? "s" : ""} this file and see${report.hardLinks === 1 ? "s" : ""} the change`);
  if (report.wasReadOnly) notes.push("the file was read-only (no write permission); it was changed anyway and is still read-only");
  if (report.ownerChanged) notes.push("its owner could not be kept, so it now belongs to this user");
  return notes.length > 0 ? ` Note: ${notes.join("; ")}.` : "";
}
