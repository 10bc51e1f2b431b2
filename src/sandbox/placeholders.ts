// bubblewrap's mount points over protected paths that do not exist yet (.khaelor, .claude,
// .mcp.json, …): bwrap makes them, empty, in the project itself. They stay while commands follow one
// another (or a process runs) and go a while after the last: removing one at once costs ~10 ms or
// more (the kernel detaches the dying namespace's mount on it and waits for RCU), and the next
// command would make it again.
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { lexists, type FsPlan } from "./fs-plan.ts";

export type Placeholders = {
  /** The plan as if our mount points were not there (see withPlaceholders). */
  plan(plan: FsPlan): FsPlan;
  /** A command starts with this plan: what bwrap will make is ours to remove. */
  start(plan: FsPlan): void;
  /** A command ended. */
  end(): void;
  /** Now, whatever runs (the session ends). */
  removeAll(): void;
};

export function placeholders(lingerMs: number): Placeholders {
  const ours = new Set<string>();
  let active = 0;
  let removal: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (removal) clearTimeout(removal);
    removal = null;
  };
  return {
    plan: (plan) => withPlaceholders(plan, ours),
    start(plan) {
      cancel();
      active++;
      for (const b of plan.blockCreate) if (!lexists(b)) ours.add(b);
    },
    end() {
      if (--active > 0) return;
      // Later, once no command runs: the next one reuses them meanwhile.
      removal = setTimeout(() => {
        removal = null;
        if (active === 0) removePlaceholders(ours);
      }, lingerMs);
      removal.unref?.();
    },
    removeAll() {
      cancel();
      removePlaceholders(ours);
    },
  };
}

/**
 * The plan as if our mount points were not there: a protected path under one of them stays blocked
 * at it (it is empty and read-only inside), and KHAELOR itself can still create the real file
 * beside it (an "allow always" saving .khaelor/settings.local.json while they linger).
 */
function withPlaceholders(plan: FsPlan, placeholders: ReadonlySet<string>): FsPlan {
  if (placeholders.size === 0) return plan;
  const ours = [...placeholders];
  const under = (p: string) => ours.find((h) => p === h || p.startsWith(`${h}/`));
  const blockCreate = new Set<string>();
  for (const b of plan.blockCreate) blockCreate.add(under(b) ?? b);
  const readOnly = plan.readOnly.filter((r) => {
    const h = under(r);
    if (h) blockCreate.add(h);
    return !h;
  });
  return { ...plan, readOnly, blockCreate: [...blockCreate] };
}

/** bubblewrap leaves an empty file (or directory) where it mounted over a missing path: removed once no sandbox uses it. */
function removePlaceholders(placeholders: Set<string>): void {
  // Deepest first: a directory of ours empties before it is looked at.
  for (const p of [...placeholders].sort((a, b) => b.length - a.length)) {
    try {
      const st = lstatSync(p);
      if (st.isFile() && st.size === 0) rmSync(p);
      else if (st.isDirectory() && readdirSync(p).length === 0) rmSync(p, { recursive: true });
    } catch {
      // already gone
    }
    placeholders.delete(p);
  }
}

