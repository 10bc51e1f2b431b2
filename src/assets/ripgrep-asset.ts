// Which ripgrep this build of KHAELOR uses. From source: the one npm installed for this machine.
// A compiled build replaces this module (scripts/compile.ts) with one that embeds its target's rg
// and records the target and the rg's sha256, so the binary can check what it is about to unpack.
import { createRequire } from "node:module";
import { RELEASE_TARGETS, runningPlatform } from "../platform/target.ts";

export type RipgrepAsset = {
  /** A real path from source; a /$bunfs/ path (readable, not executable) in a compiled binary. */
  file: string;
  /** The platform this ripgrep is for, as in runningPlatform(). */
  platform: string;
  /** Where it came from, for messages: `@vscode/ripgrep-linux-x64@1.18.0`. */
  source: string;
  /** sha256 (hex) of the embedded executable; null from source, where npm checked the file. */
  sha256: string | null;
};

export function ripgrepAsset(): RipgrepAsset {
  const platform = runningPlatform();
  const pkg = `@vscode/ripgrep-${platform}`;
  let file: string;
  try {
    file = createRequire(import.meta.url).resolve(`${pkg}/bin/rg${process.platform === "win32" ? ".exe" : ""}`);
  } catch {
    throw new Error(`ripgrep for ${platform} is not installed (${pkg}): run npm ci. KHAELOR is built and tested for ${RELEASE_TARGETS.join(", ")}`);
  }
  return { file, platform, source: pkg, sha256: null };
}
