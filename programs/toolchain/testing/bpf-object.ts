// Test helper: assembles small relocatable eBPF ELF objects (what rustc puts in a staticlib) in memory,
// so the linker's tests need no Rust toolchain.
import {
  EHDR_SIZE,
  ET_REL,
  REL_SIZE,
  SHDR_SIZE,
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHF_WRITE,
  SHT_NOBITS,
  SHT_PROGBITS,
  SHT_REL,
  SHT_STRTAB,
  SHT_SYMTAB,
  STB_GLOBAL,
  STB_LOCAL,
  STT_FUNC,
  STT_NOTYPE,
  STT_SECTION,
  stringTable,
  SYM_SIZE,
  viewOf,
  writeElfHeader,
  writeSectionHeader,
} from "../elf";

export interface SectionSpec {
  name: string;
  /** Contents, or the size of a .bss-style section. */
  data: Uint8Array | number;
  align?: number;
  /** Defaults follow the name: .text code, .rodata read-only, .data and .bss writable, others non-alloc. */
  flags?: number;
  type?: number;
  /** Symbols defined in this section; `global` ones can be referenced from other objects. */
  symbols?: { name: string; offset?: number; global?: boolean }[];
  /** `symbol` names a symbol defined in this object, a section of this object, or an undefined global. */
  relocations?: { offset: number; type: number; symbol: string }[];
}

/** A relocatable ELF64 eBPF object with the given sections, a symbol table and .rel.* sections. */
export function assembleObject(sections: readonly SectionSpec[]): Uint8Array {
  const symbols = symbolTable(sections);
  const strtab = stringTable(symbols.map((s) => s.name));
  const symtab = new Uint8Array(symbols.length * SYM_SIZE);
  const symView = viewOf(symtab);
  symbols.forEach((symbol, i) => {
    symView.setUint32(i * SYM_SIZE, symbol.name === "" ? 0 : (strtab.offsets[i] ?? 0), true);
    symView.setUint8(i * SYM_SIZE + 4, (symbol.bind << 4) | symbol.type);
    symView.setUint16(i * SYM_SIZE + 6, symbol.shndx, true);
    symView.setBigUint64(i * SYM_SIZE + 8, BigInt(symbol.value), true);
  });
  const firstGlobal = symbols.findIndex((s) => s.bind !== STB_LOCAL);

  interface Header {
    name: string;
    type: number;
    flags: number;
    data: Uint8Array;
    size: number;
    align: number;
    link?: number;
    info?: number;
    entsize?: number;
  }
  const headers: Header[] = sections.map((spec) => {
    const data = typeof spec.data === "number" ? new Uint8Array(0) : spec.data;
    const size = typeof spec.data === "number" ? spec.data : spec.data.length;
    const type = spec.type ?? (typeof spec.data === "number" ? SHT_NOBITS : SHT_PROGBITS);
    return {
      name: spec.name,
      type,
      flags: spec.flags ?? defaultFlags(spec.name),
      data,
      size,
      align: spec.align ?? 8,
    };
  });
  // Section order: the given sections (indices 1..n), .symtab, .strtab, the .rel.* sections, .shstrtab.
  const symtabIndex = sections.length + 1;
  headers.push({
    name: ".symtab",
    type: SHT_SYMTAB,
    flags: 0,
    data: symtab,
    size: symtab.length,
    align: 8,
    link: symtabIndex + 1,
    info: firstGlobal < 0 ? symbols.length : firstGlobal,
    entsize: SYM_SIZE,
  });
  headers.push(strtabHeader(".strtab", strtab.bytes));
  sections.forEach((spec, i) => {
    if (spec.relocations === undefined) return;
    const rel = new Uint8Array(spec.relocations.length * REL_SIZE);
    const relView = viewOf(rel);
    spec.relocations.forEach((r, j) => {
      const symbol = symbols.findIndex((s) => s.name === r.symbol || s.section === r.symbol);
      relView.setBigUint64(j * REL_SIZE, BigInt(r.offset), true);
      relView.setBigUint64(j * REL_SIZE + 8, (BigInt(symbol) << 32n) | BigInt(r.type), true);
    });
    headers.push({
      name: `.rel${spec.name}`,
      type: SHT_REL,
      flags: 0,
      data: rel,
      size: rel.length,
      align: 8,
      link: symtabIndex,
      info: i + 1,
      entsize: REL_SIZE,
    });
  });
  const names = stringTable(["", ...headers.map((h) => h.name), ".shstrtab"]);
  headers.push(strtabHeader(".shstrtab", names.bytes));

  let cursor = EHDR_SIZE;
  const offsets = headers.map((h) => {
    cursor = Math.ceil(cursor / 8) * 8;
    const offset = cursor;
    cursor += h.data.length;
    return offset;
  });
  const shoff = Math.ceil(cursor / 8) * 8;
  const file = new Uint8Array(shoff + (headers.length + 1) * SHDR_SIZE);
  const view = viewOf(file);
  const shnum = headers.length + 1;
  writeElfHeader(view, { type: ET_REL, entry: 0, phnum: 0, shoff, shnum, shstrndx: shnum - 1 });
  headers.forEach((h, i) => {
    const offset = offsets[i] ?? 0;
    file.set(h.data, offset);
    writeSectionHeader(view, shoff + (i + 1) * SHDR_SIZE, {
      nameOffset: names.offsets[i + 1] ?? 0,
      type: h.type,
      flags: h.flags,
      address: 0,
      offset,
      size: h.size,
      link: h.link ?? 0,
      info: h.info ?? 0,
      align: h.align,
      entsize: h.entsize ?? 0,
    });
  });
  return file;
}

interface SymbolEntry {
  name: string;
  section?: string;
  bind: number;
  type: number;
  shndx: number;
  value: number;
}

/** Null symbol, section symbols and locals first (ELF requires locals before globals), then globals. */
function symbolTable(sections: readonly SectionSpec[]): SymbolEntry[] {
  const locals: SymbolEntry[] = [{ name: "", bind: STB_LOCAL, type: STT_NOTYPE, shndx: 0, value: 0 }];
  const globals: SymbolEntry[] = [];
  const defined = new Set<string>();
  sections.forEach((spec, i) => {
    locals.push({ name: "", section: spec.name, bind: STB_LOCAL, type: STT_SECTION, shndx: i + 1, value: 0 });
    for (const symbol of spec.symbols ?? []) {
      const type = spec.name.startsWith(".text") ? STT_FUNC : STT_NOTYPE;
      const entry = { name: symbol.name, type, shndx: i + 1, value: symbol.offset ?? 0 };
      if (symbol.global === false) locals.push({ ...entry, bind: STB_LOCAL });
      else globals.push({ ...entry, bind: STB_GLOBAL });
      defined.add(symbol.name);
    }
  });
  const sectionNames = new Set(sections.map((s) => s.name));
  for (const spec of sections) {
    for (const { symbol } of spec.relocations ?? []) {
      if (defined.has(symbol) || sectionNames.has(symbol)) continue;
      defined.add(symbol);
      globals.push({ name: symbol, bind: STB_GLOBAL, type: STT_NOTYPE, shndx: 0, value: 0 });
    }
  }
  return [...locals, ...globals];
}

function defaultFlags(name: string): number {
  if (name.startsWith(".text")) return SHF_ALLOC | SHF_EXECINSTR;
  if (name.startsWith(".rodata")) return SHF_ALLOC;
  if (name.startsWith(".data") || name.startsWith(".bss")) return SHF_ALLOC | SHF_WRITE;
  return 0;
}

function strtabHeader(name: string, data: Uint8Array) {
  return { name, type: SHT_STRTAB, flags: 0, data, size: data.length, align: 1 };
}

// --- eBPF instructions, encoded the way LLVM emits them -------------------------------------------

export function insn(opcode: number, dst: number, src: number, offset: number, imm: number): Uint8Array {
  const bytes = new Uint8Array(8);
  const view = viewOf(bytes);
  view.setUint8(0, opcode);
  view.setUint8(1, (src << 4) | dst);
  view.setInt16(2, offset, true);
  view.setInt32(4, imm, true);
  return bytes;
}

export const asm = {
  movImm: (dst: number, imm: number) => insn(0xb7, dst, 0, 0, imm),
  /** lddw: the 64-bit immediate's low half in the first slot, high half in the second. */
  lddw: (dst: number, value: bigint) =>
    concat(
      insn(0x18, dst, 0, 0, Number(BigInt.asIntN(32, value))),
      insn(0, 0, 0, 0, Number(BigInt.asIntN(32, value >> 32n))),
    ),
  /** `call` as LLVM leaves it for the linker: imm -1, src 1 (BPF_PSEUDO_CALL). */
  call: () => insn(0x85, 0, 1, 0, -1),
  /** LLVM's `callx rN`: the register in dst. */
  callx: (register: number) => insn(0x8d, register, 0, 0, 0),
  exit: () => insn(0x95, 0, 0, 0, 0),
};

export function concat(...parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, part) => (bytes.set(part, at), at + part.length), 0);
  return bytes;
}
