// The platforms a khaelor binary is built for, named as Node names the one it runs on
// (`${process.platform}-${process.arch}`), so a build target and a running machine compare directly.
export const RELEASE_TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"] as const;
export type ReleaseTarget = (typeof RELEASE_TARGETS)[number];

export function runningPlatform(): string {
  return `${process.platform}-${process.arch}`;
}

export function isReleaseTarget(name: string): name is ReleaseTarget {
  return (RELEASE_TARGETS as readonly string[]).includes(name);
}

/** A target by name, or an error naming the known ones. */
export function parseTarget(name: string): ReleaseTarget {
  if (isReleaseTarget(name)) return name;
  throw new Error(`unknown target ${JSON.stringify(name)}: the known targets are ${RELEASE_TARGETS.join(", ")}`);
}
