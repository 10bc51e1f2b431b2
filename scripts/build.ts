// Builds dist/khaelor: one self-contained executable. Bytecode on for start-up time; bunfig and
// .env autoloading off inside the binary, so a project's .env never leaks into the agent.
import { $ } from "bun";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const out = join(root, "dist", "khaelor");
mkdirSync(join(root, "dist"), { recursive: true });

const started = performance.now();
await $`bun build --compile --bytecode --minify --sourcemap=none --no-compile-autoload-dotenv --no-compile-autoload-bunfig --target=bun-linux-x64 ${join(root, "src/main.ts")} --outfile ${out}`.cwd(root);
const size = statSync(out).size;
console.log(`built ${out} (${(size / 1024 / 1024).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
