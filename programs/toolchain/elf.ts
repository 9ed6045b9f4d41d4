// Little-endian ELF64 reading and writing, shared by the linker and its tests.

export const EM_BPF = 247;
export const ET_REL = 1;
export const ET_DYN = 3;

export const SHT_NULL = 0;
export const SHT_PROGBITS = 1;
export const SHT_SYMTAB = 2;
export const SHT_STRTAB = 3;
export const SHT_RELA = 4;
export const SHT_DYNAMIC = 6;
export const SHT_NOBITS = 8;
export const SHT_REL = 9;
export const SHT_DYNSYM = 11;
export const SHT_GROUP = 17;
export const SHT_LLVM_ADDRSIG = 0x6fff4c03;

export const SHF_WRITE = 0x1;
export const SHF_ALLOC = 0x2;
export const SHF_EXECINSTR = 0x4;
export const SHF_TLS = 0x400;

export const SHN_UNDEF = 0;
export const SHN_LORESERVE = 0xff00;

export const STB_LOCAL = 0;
export const STB_GLOBAL = 1;
export const STB_WEAK = 2;
export const STT_NOTYPE = 0;
export const STT_FUNC = 2;
export const STT_SECTION = 3;

export const PT_LOAD = 1;
export const PT_DYNAMIC = 2;
export const PF_X = 1;
export const PF_W = 2;
export const PF_R = 4;

export const DT_NULL = 0;
export const DT_STRTAB = 5;
export const DT_SYMTAB = 6;
export const DT_STRSZ = 10;
export const DT_SYMENT = 11;
export const DT_REL = 17;
export const DT_RELSZ = 18;
export const DT_RELENT = 19;
export const DT_TEXTREL = 22;

export const R_BPF_NONE = 0;
export const R_BPF_64_64 = 1;
export const R_BPF_64_ABS64 = 2;
export const R_BPF_64_ABS32 = 3;
export const R_BPF_64_32 = 10;

export const EHDR_SIZE = 64;
export const PHDR_SIZE = 56;
export const SHDR_SIZE = 64;
export const SYM_SIZE = 24;
export const REL_SIZE = 16;
export const DYN_SIZE = 16;

export interface ElfSection {
  index: number;
  name: string;
  type: number;
  flags: number;
  addr: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  align: number;
  entsize: number;
  /** File contents; empty for SHT_NOBITS. */
  data: Uint8Array;
}

export interface ElfFileHeader {
  type: number;
  machine: number;
  flags: number;
  entry: number;
}

export function readElfHeader(bytes: Uint8Array): ElfFileHeader {
  if (bytes.length < EHDR_SIZE || ascii(bytes, 0, 4) !== "\x7fELF") throw new Error("not an ELF file");
  if (bytes[4] !== 2 || bytes[5] !== 1) throw new Error("not a little-endian ELF64 file");
  const view = viewOf(bytes);
  return {
    type: view.getUint16(16, true),
    machine: view.getUint16(18, true),
    entry: readU64(view, 24),
    flags: view.getUint32(48, true),
  };
}

export function readElfSections(bytes: Uint8Array): ElfSection[] {
  readElfHeader(bytes);
  const view = viewOf(bytes);
  const shoff = readU64(view, 40);
  const shentsize = view.getUint16(58, true);
  const shnum = view.getUint16(60, true);
  const shstrndx = view.getUint16(62, true);
  if (shnum > 0 && shentsize !== SHDR_SIZE) throw new Error(`unexpected e_shentsize ${shentsize}`);
  if (shoff + shnum * SHDR_SIZE > bytes.length) throw new Error("section header table out of bounds");

  const sections: ElfSection[] = [];
  const nameOffsets: number[] = [];
  for (let index = 0; index < shnum; index++) {
    const at = shoff + index * SHDR_SIZE;
    const type = view.getUint32(at + 4, true);
    const offset = readU64(view, at + 24);
    const size = readU64(view, at + 32);
    if (type !== SHT_NOBITS && offset + size > bytes.length) {
      throw new Error(`section #${index} [${offset}, +${size}) lies outside the file`);
    }
    nameOffsets.push(view.getUint32(at, true));
    sections.push({
      index,
      name: "",
      type,
      flags: readU64(view, at + 8),
      addr: readU64(view, at + 16),
      offset,
      size,
      link: view.getUint32(at + 40, true),
      info: view.getUint32(at + 44, true),
      align: readU64(view, at + 48),
      entsize: readU64(view, at + 56),
      data: type === SHT_NOBITS ? new Uint8Array(0) : bytes.subarray(offset, offset + size),
    });
  }
  const names = sections[shstrndx];
  if (names !== undefined) sections.forEach((s, i) => (s.name = cString(names.data, nameOffsets[i] ?? 0)));
  return sections;
}

export interface ElfSymbol {
  name: string;
  value: number;
  size: number;
  bind: number;
  type: number;
  shndx: number;
}

export function readElfSymbols(symtab: ElfSection, strtab: ElfSection): ElfSymbol[] {
  const view = viewOf(symtab.data);
  const symbols: ElfSymbol[] = [];
  for (let at = 0; at + SYM_SIZE <= symtab.data.length; at += SYM_SIZE) {
    const info = view.getUint8(at + 4);
    symbols.push({
      name: cString(strtab.data, view.getUint32(at, true)),
      bind: info >> 4,
      type: info & 0xf,
      shndx: view.getUint16(at + 6, true),
      value: readU64(view, at + 8),
      size: readU64(view, at + 16),
    });
  }
  return symbols;
}

export interface ElfRelocation {
  offset: number;
  type: number;
  symbol: number;
}

export function readElfRelocations(rel: ElfSection): ElfRelocation[] {
  const view = viewOf(rel.data);
  const relocations: ElfRelocation[] = [];
  for (let at = 0; at + REL_SIZE <= rel.data.length; at += REL_SIZE) {
    const info = view.getBigUint64(at + 8, true);
    relocations.push({
      offset: readU64(view, at),
      type: Number(info & 0xffffffffn),
      symbol: Number(info >> 32n),
    });
  }
  return relocations;
}

// --- Writing ------------------------------------------------------------------------------------

/** A little-endian ELF64 eBPF file header (e_flags 0: SBPF v0); program headers, if any, follow it. */
export function writeElfHeader(
  view: DataView,
  h: { type: number; entry: number; phnum: number; shoff: number; shnum: number; shstrndx: number },
): void {
  [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1].forEach((byte, i) => view.setUint8(i, byte));
  view.setUint16(16, h.type, true);
  view.setUint16(18, EM_BPF, true);
  view.setUint32(20, 1, true);
  view.setBigUint64(24, BigInt(h.entry), true);
  view.setBigUint64(32, BigInt(h.phnum > 0 ? EHDR_SIZE : 0), true);
  view.setBigUint64(40, BigInt(h.shoff), true);
  view.setUint32(48, 0, true);
  view.setUint16(52, EHDR_SIZE, true);
  view.setUint16(54, PHDR_SIZE, true);
  view.setUint16(56, h.phnum, true);
  view.setUint16(58, SHDR_SIZE, true);
  view.setUint16(60, h.shnum, true);
  view.setUint16(62, h.shstrndx, true);
}

export interface ProgramHeader {
  type: number;
  flags: number;
  offset: number;
  address: number;
  size: number;
  align: number;
}

export function writeProgramHeader(view: DataView, at: number, p: ProgramHeader): void {
  view.setUint32(at, p.type, true);
  view.setUint32(at + 4, p.flags, true);
  view.setBigUint64(at + 8, BigInt(p.offset), true);
  view.setBigUint64(at + 16, BigInt(p.address), true); // p_vaddr
  view.setBigUint64(at + 24, BigInt(p.address), true); // p_paddr
  view.setBigUint64(at + 32, BigInt(p.size), true); // p_filesz
  view.setBigUint64(at + 40, BigInt(p.size), true); // p_memsz
  view.setBigUint64(at + 48, BigInt(p.align), true);
}

export interface SectionHeader {
  /** Offset of the name in the section-name string table. */
  nameOffset: number;
  type: number;
  flags: number;
  address: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  align: number;
  entsize: number;
}

export function writeSectionHeader(view: DataView, at: number, s: SectionHeader): void {
  view.setUint32(at, s.nameOffset, true);
  view.setUint32(at + 4, s.type, true);
  view.setBigUint64(at + 8, BigInt(s.flags), true);
  view.setBigUint64(at + 16, BigInt(s.address), true);
  view.setBigUint64(at + 24, BigInt(s.offset), true);
  view.setBigUint64(at + 32, BigInt(s.size), true);
  view.setUint32(at + 40, s.link, true);
  view.setUint32(at + 44, s.info, true);
  view.setBigUint64(at + 48, BigInt(s.align), true);
  view.setBigUint64(at + 56, BigInt(s.entsize), true);
}

/** A string table ("\\0"-separated, starting with the empty string) and each string's offset in it. */
export function stringTable(strings: readonly string[]): { bytes: Uint8Array; offsets: number[] } {
  const encoder = new TextEncoder();
  const offsets: number[] = [];
  const parts: Uint8Array[] = [];
  let length = 0;
  for (const string of strings) {
    if (string === "" && offsets.length > 0) {
      offsets.push(0);
      continue;
    }
    offsets.push(length);
    const encoded = encoder.encode(`${string}\0`);
    parts.push(encoded);
    length += encoded.length;
  }
  const bytes = new Uint8Array(length);
  parts.reduce((at, part) => (bytes.set(part, at), at + part.length), 0);
  return { bytes, offsets };
}

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function readU64(view: DataView, at: number): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`64-bit field at ${at} is too large`);
  return Number(value);
}

export function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

export function cString(bytes: Uint8Array, start: number): string {
  const end = bytes.indexOf(0, start);
  return new TextDecoder().decode(bytes.subarray(start, end < 0 ? bytes.length : end));
}
