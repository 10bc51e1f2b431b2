// Where KHAELOR keeps the user's files. The XDG base directories on every platform, macOS included:
// a terminal tool's users there expect ~/.config and ~/.local/share (as gh, git, OpenCode and most
// CLIs use them) rather than ~/Library, and one layout means one set of instructions. An XDG
// variable counts only when it is absolute, as the spec says; a relative one is ignored.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

type Env = Record<string, string | undefined>;

export type UserDirs = { config: string; data: string; cache: string };

export function userDirs(env: Env = process.env, home: string = homedir()): UserDirs {
  const xdg = (name: string, fallback: string[]) => {
    const v = env[name];
    return v && isAbsolute(v) ? v : join(home, ...fallback);
  };
  return {
    config: xdg("XDG_CONFIG_HOME", [".config"]),
    data: xdg("XDG_DATA_HOME", [".local", "share"]),
    cache: xdg("XDG_CACHE_HOME", [".cache"]),
  };
}
