// What an executable's header says it is: ELF (Linux) or Mach-O (macOS), for which CPU. Enough to
// check a cross-compiled binary, and the ripgrep inside it, without running either.
export type ExecutableFormat = { os: string; arch: string };

const ELF_MACHINES: Record<number, string> = { 0x3e: "x64", 0xb7: "arm64" };
const MACHO_CPUS: Record<number, string> = { 0x01000007: "x64", 0x0100000c: "arm64" };

/** The platform of a 64-bit little-endian executable, or why it is not one. */
export function executableFormat(bytes: Uint8Array): ExecutableFormat | { problem: string } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20) return { problem: "too short for an executable header" };
  if (v.getUint32(0, false) === 0x7f454c46) {
    if (bytes[4] !== 2 || bytes[5] !== 1) return { problem: "ELF, but not 64-bit little-endian" };
    const type = v.getUint16(16, true);
    if (type !== 2 && type !== 3) return { problem: `ELF of type ${type}, not an executable` };
    const machine = v.getUint16(18, true);
    return { os: "linux", arch: ELF_MACHINES[machine] ?? `e_machine 0x${machine.toString(16)}` };
  }
  if (v.getUint32(0, true) === 0xfeedfacf) {
    if (v.getUint32(12, true) !== 2) return { problem: "Mach-O, but not MH_EXECUTE" };
    const cpu = v.getUint32(4, true);
    return { os: "darwin", arch: MACHO_CPUS[cpu] ?? `cputype 0x${cpu.toString(16)}` };
  }
  if (v.getUint32(0, false) === 0xcafebabe) return { problem: "a universal (fat) Mach-O; expected one architecture" };
  return { problem: `unknown magic 0x${v.getUint32(0, false).toString(16)}` };
}
