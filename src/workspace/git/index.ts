/**
 * Git protection: a baseline at session start and snapshots at turn boundaries, in a shadow
 * repository under KHAELOR's data directory, so /diff and /undo cover every change, bash included.
 * The user's repository is only read: never a commit, and never its index, stash or refs.
 *
 *   const protection = await createGitProtection({ projectRoot, dataDir });
 *   protection.baseline                    // SessionHeader.git (null outside git)
 *   await protection.beginTurn();          // before the agent turn
 *   const snapshot = await protection.endTurn();   // TurnEndEvent.snapshot
 *   await protection.diff();               // { patch, files } since the session started
 *   await protection.undo();               // UndoEvent fields: { snapshot, restored, skipped } | null
 */
export { createGitProtection } from "./git-protection.ts";
export type { FileChange, GitProtection, GitProtectionOptions, UndoResult } from "./git-protection.ts";
export type { GitBaseline } from "./baseline.ts";
