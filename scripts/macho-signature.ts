// Checks a Mach-O file's embedded code signature the way macOS checks pages as it maps them: each
// page's SHA-256 against the signature's code directory. An arm64 Mac kills an executable without a
// valid signature at once ("Killed: 9"); Bun signs cross-compiled darwin binaries ad hoc, and this
// is how CI, with no macOS at hand, sees that the signature covers the bytes we ship.
import { createHash } from "node:crypto";

const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_ADHOC = 0x2;

export type Signature = { adhoc: boolean; pages: number; identifier: string };

export function checkCodeSignature(bytes: Uint8Array): Signature | { problem: string } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0, true) !== 0xfeedfacf) return { problem: "not a 64-bit Mach-O" };
  let off = 32;
  let sig: { at: number; size: number } | null = null;
  for (let i = 0, n = v.getUint32(16, true); i < n; i++) {
    if (v.getUint32(off, true) === LC_CODE_SIGNATURE) sig = { at: v.getUint32(off + 8, true), size: v.getUint32(off + 12, true) };
    off += v.getUint32(off + 4, true);
  }
  if (!sig) return { problem: "unsigned (no LC_CODE_SIGNATURE)" };
  if (sig.at + sig.size > bytes.length || v.getUint32(sig.at) !== CSMAGIC_EMBEDDED_SIGNATURE) return { problem: "the code signature is not an embedded signature blob" };
  let cd = -1;
  for (let i = 0, n = v.getUint32(sig.at + 8); i < n; i++) {
    if (v.getUint32(sig.at + 12 + i * 8) === 0) cd = sig.at + v.getUint32(sig.at + 16 + i * 8); // slot 0: the code directory
  }
  if (cd < 0 || v.getUint32(cd) !== CSMAGIC_CODEDIRECTORY) return { problem: "the signature has no code directory" };
  const flags = v.getUint32(cd + 12);
  const hashOffset = v.getUint32(cd + 16);
  const identOffset = v.getUint32(cd + 20);
  const nCodeSlots = v.getUint32(cd + 28);
  const codeLimit = v.getUint32(cd + 32);
  const hashSize = v.getUint8(cd + 36);
  const hashType = v.getUint8(cd + 37);
  const pageSize = 2 ** v.getUint8(cd + 39);
  if (hashType !== 2 || hashSize !== 32) return { problem: `code directory hash type ${hashType} (expected SHA-256)` };
  if (codeLimit !== sig.at) return { problem: `the signature covers ${codeLimit} bytes, but the code runs to ${sig.at}` };
  if (nCodeSlots !== Math.ceil(codeLimit / pageSize)) return { problem: `${nCodeSlots} page hashes for ${Math.ceil(codeLimit / pageSize)} pages` };
  for (let i = 0; i < nCodeSlots; i++) {
    const page = bytes.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
    const want = bytes.subarray(cd + hashOffset + i * hashSize, cd + hashOffset + (i + 1) * hashSize);
    if (!createHash("sha256").update(page).digest().equals(want)) return { problem: `page ${i} (bytes ${i * pageSize}…) does not match its signed hash` };
  }
  const identEnd = bytes.indexOf(0, cd + identOffset);
  return { adhoc: (flags & CS_ADHOC) !== 0, pages: nCodeSlots, identifier: new TextDecoder().decode(bytes.subarray(cd + identOffset, identEnd)) };
}

/**
 * The same Mach-O without its code signature: the LC_CODE_SIGNATURE command and the blob it points
 * to (the last thing in __LINKEDIT and in the file) removed. For x86_64, where macOS runs unsigned
 * code (as Go's darwin/amd64 binaries and VS Code's x64 ripgrep are) but kills code whose signature
 * is present and wrong: Bun 1.4's cross-compiled darwin-x64 binaries keep the signature of Bun's own
 * runtime, which no longer covers the bytes after the module graph is added (oven-sh/bun#39837).
 */
export function withoutCodeSignature(bytes: Uint8Array): Uint8Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0, true) !== 0xfeedfacf) throw new Error("not a 64-bit Mach-O");
  const ncmds = v.getUint32(16, true);
  const sizeofcmds = v.getUint32(20, true);
  let off = 32;
  let sigCmd = -1;
  let linkedit = -1;
  for (let i = 0; i < ncmds; i++) {
    const cmd = v.getUint32(off, true);
    if (cmd === LC_CODE_SIGNATURE) sigCmd = off;
    if (cmd === 0x19 && new TextDecoder().decode(bytes.subarray(off + 8, off + 24)).replace(/\0+$/, "") === "__LINKEDIT") linkedit = off;
    off += v.getUint32(off + 4, true);
  }
  if (sigCmd < 0) return bytes;
  if (linkedit < 0) throw new Error("no __LINKEDIT segment");
  const at = v.getUint32(sigCmd + 8, true);
  const size = v.getUint32(sigCmd + 12, true);
  const cmdSize = v.getUint32(sigCmd + 4, true);
  const linkeditOff = Number(v.getBigUint64(linkedit + 40, true));
  const linkeditSize = Number(v.getBigUint64(linkedit + 48, true));
  if (at + size !== bytes.length || linkeditOff + linkeditSize !== bytes.length) throw new Error("the code signature is not at the end of the file and of __LINKEDIT");
  const out = new Uint8Array(bytes.subarray(0, at));
  const w = new DataView(out.buffer);
  const end = 32 + sizeofcmds;
  out.copyWithin(sigCmd, sigCmd + cmdSize, end);
  out.fill(0, end - cmdSize, end);
  w.setUint32(16, ncmds - 1, true);
  w.setUint32(20, sizeofcmds - cmdSize, true);
  // __LINKEDIT now ends where the signature began; its command sits before or after the removed one.
  const le = linkedit > sigCmd ? linkedit - cmdSize : linkedit;
  w.setBigUint64(le + 48, BigInt(at - linkeditOff), true);
  return out;
}
