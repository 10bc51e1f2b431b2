// Where the user's files go: the XDG directories when set (absolute only, as the spec says), else
// ~/.config, ~/.local/share and ~/.cache, on Linux and macOS alike; sessions live under the data one.
import { expect, test } from "bun:test";
import { userDirs } from "../../src/platform/dirs.ts";
import { dataRoot, sessionsRoot } from "../../src/session/paths.ts";

test("the XDG variables when set, else the home defaults", () => {
  expect(userDirs({}, "/home/ana")).toEqual({ config: "/home/ana/.config", data: "/home/ana/.local/share", cache: "/home/ana/.cache" });
  expect(userDirs({ XDG_CONFIG_HOME: "/x/conf", XDG_DATA_HOME: "/x/data", XDG_CACHE_HOME: "/x/cache" }, "/home/ana")).toEqual({ config: "/x/conf", data: "/x/data", cache: "/x/cache" });
});

test("a relative XDG variable is ignored, not resolved against wherever khaelor was started", () => {
  expect(userDirs({ XDG_DATA_HOME: "data", XDG_CACHE_HOME: "./cache", XDG_CONFIG_HOME: "" }, "/Users/ana")).toEqual({
    config: "/Users/ana/.config",
    data: "/Users/ana/.local/share",
    cache: "/Users/ana/.cache",
  });
});

test("sessions: KHAELOR_HOME, else the XDG data directory", () => {
  expect(sessionsRoot({ KHAELOR_HOME: "/srv/k" })).toBe("/srv/k/sessions");
  expect(dataRoot({ XDG_DATA_HOME: "/x/data" })).toBe("/x/data/khaelor");
});
