// Preloaded by bun test (bunfig.toml): hooks for the whole run, after every test file.
import { afterAll } from "bun:test";
import { removeScratch } from "./scratch.ts";

afterAll(removeScratch);
