// SBPF v0 linker: turns the relocatable eBPF objects rustc emits for sbpf.json into a Solana program
// ELF. See /work/shared/SBF-TOOLCHAIN.md for the output contract this implements.

import { readArchive } from "./archive";
import {
  ascii,
  readElfHeader,
  readElfRelocations,
  readElfSections,
  readElfSymbols,
  stringTable,
  viewOf,
  type ElfRelocation,
  type ElfSection,
  type ElfSymbol,
} from "./elf";
import * as elf from "./elf";
import { KNOWN_SYSCALLS, SYSCALL_ALIASES } from "./syscalls";

/** Where the v0 loader maps the ELF file: a link-time address A is the vm address MM_PROGRAM_START + A. */
export const MM_PROGRAM_START = 0x1_0000_0000n;
export const ENTRYPOINT = "entrypoint";

const INSN_SIZE = 8;
const OP_LDDW = 0x18;
const OP_CALL = 0x85;
const OP_CALLX = 0x8d;

/** Bytes each relocation type patches (lddw spans two instruction slots). */
const RELOCATION_WIDTH = new Map([
  [elf.R_BPF_64_64, 16],
  [elf.R_BPF_64_ABS64, 8],
  [elf.R_BPF_64_ABS32, 4],
  [elf.R_BPF_64_32, 8],
]);

/** Section types the linker reads (symbols, relocations) or can ignore (groups, address-significance). */
const STRUCTURAL_SECTION_TYPES = [
  elf.SHT_NULL,
  elf.SHT_SYMTAB,
  elf.SHT_STRTAB,
  elf.SHT_REL,
  elf.SHT_GROUP,
  elf.SHT_LLVM_ADDRSIG,
];

/** Non-allocated sections that carry nothing the program needs at run time. */
const DROPPED_SECTION_PREFIXES = [".debug", ".BTF", ".comment", ".note", ".llvm_addrsig", ".llvm."];

// ---------------------------------------------------------------------------------------------------
// Input model

type SectionKind = "text" | "rodata" | "writable";

interface InputSection {
  object: InputObject;
  header: ElfSection;
  kind: SectionKind;
  relocations: ElfRelocation[];
}

interface InputObject {
  name: string;
  symbols: ElfSymbol[];
  sections: Map<number, InputSection>;
}

type Target = { section: InputSection; offset: number } | { external: string };

function loadObjects(inputs: readonly Uint8Array[]): InputObject[] {
  return inputs.flatMap((bytes, i) => {
    if (ascii(bytes, 0, 8) !== "!<arch>\n") return [parseObject(`input #${i}`, bytes)];
    return readArchive(bytes).flatMap((member) => {
      const name = `input #${i}(${member.name})`;
      if (ascii(member.data, 0, 4) !== "BC\xc0\xde") return [parseObject(name, member.data)];
      // The compiler_builtins stub is empty LLVM bitcode; any other bitcode would be code we cannot see.
      if (/^(lib)?compiler_builtins\./.test(member.name)) return [];
      throw new Error(`${name} is LLVM bitcode, not an object; build the crate with -Clto=fat`);
    });
  });
}

function parseObject(name: string, bytes: Uint8Array): InputObject {
  const header = readElfHeader(bytes);
  if (header.type !== elf.ET_REL || header.machine !== elf.EM_BPF) {
    throw new Error(`${name}: expected a relocatable eBPF object (ET_REL, e_machine 247)`);
  }
  const headers = readElfSections(bytes);
  const object: InputObject = { name, symbols: [], sections: new Map() };
  for (const section of headers) {
    const kind = classifySection(name, section);
    if (kind !== undefined) {
      object.sections.set(section.index, { object, header: section, kind, relocations: [] });
    }
  }
  const symtabs = headers.filter((s) => s.type === elf.SHT_SYMTAB);
  const symtab = symtabs[0];
  if (symtab !== undefined) {
    if (symtabs.length > 1) throw new Error(`${name}: more than one symbol table`);
    const strtab = headers[symtab.link];
    if (strtab === undefined) throw new Error(`${name}: symbol table has no string table`);
    object.symbols = readElfSymbols(symtab, strtab);
  }
  for (const rel of headers.filter((s) => s.type === elf.SHT_REL)) {
    const target = object.sections.get(rel.info);
    if (target !== undefined) target.relocations = readElfRelocations(rel);
  }
  return object;
}

/** Sorts an input section into text / rodata / writable, `undefined` for dropped ones, or refuses it. */
function classifySection(object: string, section: ElfSection): SectionKind | undefined {
  const { name, type, flags } = section;
  const unsupported = (why: string) => new Error(`${object}: section ${name}: ${why}`);
  if (type === elf.SHT_RELA)
    throw unsupported("RELA relocations are not supported (the BPF backend emits REL)");
  if (flags & elf.SHF_TLS) throw unsupported("thread-local storage is not supported");
  if (!(flags & elf.SHF_ALLOC)) {
    if (STRUCTURAL_SECTION_TYPES.includes(type)) return undefined;
    if (DROPPED_SECTION_PREFIXES.some((prefix) => name.startsWith(prefix))) return undefined;
    throw unsupported(`unknown non-allocated section (type ${type})`);
  }
  if (flags & elf.SHF_EXECINSTR) {
    if (type === elf.SHT_PROGBITS && (name === ".text" || name.startsWith(".text."))) return "text";
    throw unsupported("executable section that is not .text*");
  }
  if (name === ".data.rel.ro" || name.startsWith(".data.rel.ro.")) return "rodata";
  if (flags & elf.SHF_WRITE) return "writable";
  if (type === elf.SHT_PROGBITS && (name === ".rodata" || name.startsWith(".rodata."))) return "rodata";
  throw unsupported(`unknown allocated section (type ${type}, flags 0x${flags.toString(16)})`);
}

function indexGlobalSymbols(objects: readonly InputObject[]): Map<string, Target & { weak: boolean }> {
  const globals = new Map<string, Target & { weak: boolean }>();
  for (const object of objects) {
    for (const symbol of object.symbols) {
      if (symbol.bind === elf.STB_LOCAL || symbol.shndx === elf.SHN_UNDEF) continue;
      if (symbol.bind !== elf.STB_GLOBAL && symbol.bind !== elf.STB_WEAK) continue;
      const section = object.sections.get(symbol.shndx);
      if (section === undefined) continue; // absolute/common or in a dropped section: an error only if used
      const weak = symbol.bind === elf.STB_WEAK;
      const existing = globals.get(symbol.name);
      if (existing !== undefined && !existing.weak && !weak) {
        throw new Error(`duplicate symbol ${symbol.name} (defined again in ${object.name})`);
      }
      if (existing === undefined || (existing.weak && !weak)) {
        globals.set(symbol.name, { section, offset: symbol.value, weak });
      }
    }
  }
  return globals;
}

function definingSection(object: InputObject, symbol: ElfSymbol): InputSection {
  const section = object.sections.get(symbol.shndx);
  if (section !== undefined) return section;
  const where =
    symbol.shndx >= elf.SHN_LORESERVE
      ? `special section index 0x${symbol.shndx.toString(16)}`
      : "a dropped section";
  throw new Error(`${object.name}: symbol "${symbol.name}" is defined in ${where}`);
}

function resolveTarget(object: InputObject, index: number, globals: Map<string, Target>): Target {
  const symbol = object.symbols[index];
  if (symbol === undefined) throw new Error(`${object.name}: relocation names missing symbol #${index}`);
  if (symbol.shndx !== elf.SHN_UNDEF) {
    return { section: definingSection(object, symbol), offset: symbol.value };
  }
  return globals.get(symbol.name) ?? { external: symbol.name };
}

// ---------------------------------------------------------------------------------------------------
// Garbage collection and layout

/** Sections reachable from the entrypoint's section through relocations, in input order. */
function liveSections(objects: readonly InputObject[], root: InputSection, globals: Map<string, Target>) {
  const live = new Set([root]);
  const pending = [root];
  for (let section = pending.pop(); section !== undefined; section = pending.pop()) {
    for (const relocation of section.relocations) {
      const target = resolveTarget(section.object, relocation.symbol, globals);
      if ("section" in target && !live.has(target.section)) {
        live.add(target.section);
        pending.push(target.section);
      }
    }
  }
  return objects.flatMap((object) => [...object.sections.values()].filter((s) => live.has(s)));
}

function rejectWritableSections(sections: readonly InputSection[]): void {
  for (const section of sections) {
    if (section.kind !== "writable" || section.header.size === 0) continue;
    const { object, header } = section;
    const symbols = object.symbols
      .filter((s) => s.shndx === header.index && s.type !== elf.STT_SECTION && s.name !== "")
      .map((s) => s.name);
    const named = symbols.length > 0 ? ` (symbols: ${symbols.join(", ")})` : "";
    throw new Error(
      `${object.name}: writable section ${header.name}${named} is reachable from ${ENTRYPOINT}; ` +
        "the SBPF loader rejects .data/.bss — keep mutable state in accounts or on the stack",
    );
  }
}

function placeSections(
  sections: readonly InputSection[],
  start: number,
  addresses: Map<InputSection, number>,
) {
  let cursor = start;
  for (const section of sections) {
    if (section.kind === "text" && section.header.size % INSN_SIZE !== 0) {
      throw new Error(`${section.object.name}: ${section.header.name} is not a whole number of instructions`);
    }
    cursor = alignTo(cursor, Math.max(1, section.header.align));
    addresses.set(section, cursor);
    cursor += section.header.size;
  }
  return cursor;
}

// ---------------------------------------------------------------------------------------------------
// Relocation

interface SyscallSite {
  name: string;
  address: number;
}

function applyRelocations(
  image: Uint8Array,
  sections: readonly InputSection[],
  addresses: Map<InputSection, number>,
  globals: Map<string, Target>,
): SyscallSite[] {
  const view = viewOf(image);
  const syscalls: SyscallSite[] = [];
  for (const section of sections) {
    const base = addresses.get(section) ?? 0;
    for (const relocation of section.relocations) {
      const at = base + relocation.offset;
      const where = `${section.object.name}: ${section.header.name}+0x${relocation.offset.toString(16)}`;
      const fail = (why: string) => new Error(`${where}: ${why}`);
      if (relocation.offset + (RELOCATION_WIDTH.get(relocation.type) ?? 0) > section.header.size) {
        throw fail("relocation lies outside its section");
      }
      const target = resolveTarget(section.object, relocation.symbol, globals);
      const vmAddress = (addend: bigint) => {
        if ("external" in target) throw fail(`data reference to undefined symbol "${target.external}"`);
        const address = BigInt((addresses.get(target.section) ?? 0) + target.offset);
        return BigInt.asUintN(64, MM_PROGRAM_START + address + addend);
      };
      switch (relocation.type) {
        case elf.R_BPF_NONE:
          break;
        case elf.R_BPF_64_64: {
          if (section.kind !== "text" || image[at] !== OP_LDDW) {
            throw fail("R_BPF_64_64 not on an lddw instruction");
          }
          writeLddwImmediate(view, at, vmAddress(readLddwImmediate(view, at)));
          break;
        }
        case elf.R_BPF_64_ABS64:
          if (section.kind === "text") throw fail("R_BPF_64_ABS64 inside code");
          view.setBigUint64(at, vmAddress(view.getBigUint64(at, true)), true);
          break;
        case elf.R_BPF_64_ABS32: {
          if (section.kind === "text") throw fail("R_BPF_64_ABS32 inside code");
          const value = vmAddress(BigInt(view.getUint32(at, true)));
          if (value > 0xffffffffn) {
            throw fail(`R_BPF_64_ABS32 cannot hold vm address 0x${value.toString(16)}`);
          }
          view.setUint32(at, Number(value), true);
          break;
        }
        case elf.R_BPF_64_32: {
          if (section.kind !== "text" || image[at] !== OP_CALL) {
            throw fail("R_BPF_64_32 not on a call instruction");
          }
          const imm = view.getInt32(at + 4, true);
          if ("external" in target) {
            const name = SYSCALL_ALIASES.get(target.external) ?? target.external;
            if (!KNOWN_SYSCALLS.has(name)) {
              throw fail(`call to undefined symbol "${target.external}" (not a syscall)`);
            }
            if (imm !== -1) throw fail(`syscall call to ${name} carries an addend`);
            syscalls.push({ name, address: at });
          } else if (target.section.kind !== "text") {
            throw fail(`call into non-code section ${target.section.header.name}`);
          } else {
            // LLVM's implicit addend: the callee is the instruction (imm + 1) slots after the symbol.
            const callee = (addresses.get(target.section) ?? 0) + target.offset + (imm + 1) * INSN_SIZE;
            view.setInt32(at + 4, pcRelativeCallImmediate(at, callee), true);
          }
          break;
        }
        default:
          throw fail(`unsupported relocation type ${relocation.type}`);
      }
    }
  }
  return syscalls;
}

/** The v0 `call imm` immediate that jumps from the instruction at `from` to the one at `to`. */
export function pcRelativeCallImmediate(from: number, to: number): number {
  if (from % INSN_SIZE !== 0 || to % INSN_SIZE !== 0) {
    throw new Error(`misaligned call from ${from} to ${to}`);
  }
  return (to - from) / INSN_SIZE - 1;
}

/** lddw keeps its 64-bit immediate in the imm fields of two consecutive instruction slots. */
export function readLddwImmediate(view: DataView, at: number): bigint {
  return (BigInt(view.getUint32(at + 12, true)) << 32n) | BigInt(view.getUint32(at + 4, true));
}

export function writeLddwImmediate(view: DataView, at: number, value: bigint): void {
  view.setUint32(at + 4, Number(value & 0xffffffffn), true);
  view.setUint32(at + 12, Number((value >> 32n) & 0xffffffffn), true);
}

/** LLVM encodes `callx rN` with N in dst; SBPF v0 reads the register from imm. */
function moveCallxRegisters(image: Uint8Array, start: number, end: number): void {
  const view = viewOf(image);
  for (let at = start; at < end; at += INSN_SIZE) {
    const opcode = image[at];
    if (opcode === OP_LDDW) at += INSN_SIZE;
    if (opcode !== OP_CALLX) continue;
    const registers = view.getUint8(at + 1);
    view.setInt32(at + 4, registers & 0x0f, true);
    view.setUint8(at + 1, registers & 0xf0);
  }
}

// ---------------------------------------------------------------------------------------------------
// Output

interface OutputSection {
  name: string;
  type: number;
  flags: number;
  offset: number;
  data: Uint8Array;
  align: number;
  entsize?: number;
  link?: string;
  info?: number;
}

/** Links relocatable eBPF objects and/or `ar` archives of them into an SBPF v0 program ELF. */
export function linkSbf(inputs: readonly Uint8Array[]): Uint8Array {
  const objects = loadObjects(inputs);
  const globals = indexGlobalSymbols(objects);
  const entry = globals.get(ENTRYPOINT);
  if (entry === undefined) throw new Error(`no ${ENTRYPOINT} symbol is defined`);
  if (!("section" in entry) || entry.section.kind !== "text") throw new Error(`${ENTRYPOINT} is not code`);

  const live = liveSections(objects, entry.section, globals);
  rejectWritableSections(live);
  const layout = layOut(live);
  moveCallxRegisters(layout.image, layout.text.offset, layout.text.offset + layout.text.data.length);
  const syscalls = applyRelocations(layout.image, live, layout.addresses, globals);
  const entryAddress = (layout.addresses.get(entry.section) ?? 0) + entry.offset;
  return writeProgram(layout, dynamicTables(syscalls, layout.image.length), entryAddress);
}

interface Layout {
  /** The output file from offset 0 to the end of .rodata, sections copied in, not yet relocated. */
  image: Uint8Array;
  addresses: Map<InputSection, number>;
  text: OutputSection;
  rodata?: OutputSection;
  phnum: number;
}

/** Places live code in .text, then live read-only data in .rodata, each at address == file offset. */
function layOut(live: readonly InputSection[]): Layout {
  const text = live.filter((s) => s.kind === "text");
  const rodata = live.filter((s) => s.kind !== "text");
  const hasRodata = rodata.some((s) => s.header.size > 0);
  const phnum = hasRodata ? 5 : 4; // text, rodata, dynamic tables, .dynamic, PT_DYNAMIC

  const addresses = new Map<InputSection, number>();
  const textStart = alignTo(elf.EHDR_SIZE + phnum * elf.PHDR_SIZE, INSN_SIZE);
  const textEnd = placeSections(text, textStart, addresses);
  const rodataAlign = Math.max(8, ...rodata.map((s) => s.header.align));
  const rodataStart = alignTo(textEnd, rodataAlign);
  const rodataEnd = placeSections(rodata, rodataStart, addresses); // == rodataStart without rodata
  const image = new Uint8Array(hasRodata ? rodataEnd : textEnd);
  for (const section of live) {
    if (section.header.data.length > 0) image.set(section.header.data, addresses.get(section) ?? 0);
  }
  const region = (name: string, flags: number, start: number, end: number, align: number): OutputSection => {
    return { name, type: elf.SHT_PROGBITS, flags, offset: start, data: image.subarray(start, end), align };
  };
  return {
    image,
    addresses,
    text: region(".text", elf.SHF_ALLOC | elf.SHF_EXECINSTR, textStart, textEnd, INSN_SIZE),
    rodata: hasRodata ? region(".rodata", elf.SHF_ALLOC, rodataStart, rodataEnd, rodataAlign) : undefined,
    phnum,
  };
}

/** Assembles the ELF: header, program headers, .text, .rodata, dynamic tables, section headers. */
function writeProgram(layout: Layout, tables: DynamicTables, entry: number): Uint8Array {
  const { text, rodata } = layout;
  const sections = [text, ...(rodata ? [rodata] : []), ...tables.sections];
  const names = stringTable(["", ...sections.map((s) => s.name), ".shstrtab"]);
  sections.push({
    name: ".shstrtab",
    type: elf.SHT_STRTAB,
    flags: 0,
    offset: tables.end,
    data: names.bytes,
    align: 1,
  });
  const shoff = alignTo(tables.end + names.bytes.length, 8);
  const shnum = sections.length + 1;
  const segments = [
    segment(elf.PT_LOAD, elf.PF_R | elf.PF_X, text),
    ...(rodata ? [segment(elf.PT_LOAD, elf.PF_R, rodata)] : []),
    segment(elf.PT_LOAD, elf.PF_R, tables.dynsym, tables.lastTable),
    segment(elf.PT_LOAD, elf.PF_R | elf.PF_W, tables.dynamic),
    segment(elf.PT_DYNAMIC, elf.PF_R | elf.PF_W, tables.dynamic),
  ];
  if (segments.length !== layout.phnum) throw new Error("internal: program header count changed");

  const file = new Uint8Array(shoff + shnum * elf.SHDR_SIZE);
  const view = viewOf(file);
  elf.writeElfHeader(view, {
    type: elf.ET_DYN,
    entry,
    phnum: segments.length,
    shoff,
    shnum,
    shstrndx: shnum - 1,
  });
  segments.forEach((p, i) => elf.writeProgramHeader(view, elf.EHDR_SIZE + i * elf.PHDR_SIZE, p));
  const indexOf = (name?: string) =>
    name === undefined ? 0 : sections.findIndex((s) => s.name === name) + 1;
  sections.forEach((section, i) => {
    file.set(section.data, section.offset);
    const header = sectionHeader(section, names.offsets[i + 1] ?? 0, indexOf(section.link));
    elf.writeSectionHeader(view, shoff + (i + 1) * elf.SHDR_SIZE, header);
  });
  return file;
}

interface DynamicTables {
  sections: OutputSection[];
  dynsym: OutputSection;
  dynamic: OutputSection;
  /** The last of .dynsym/.dynstr/.rel.dyn, which share one read-only segment. */
  lastTable: OutputSection;
  end: number;
}

/** .dynsym, .dynstr, .rel.dyn and .dynamic, laid out from `start`; one R_BPF_64_32 per syscall call site. */
function dynamicTables(syscalls: readonly SyscallSite[], start: number): DynamicTables {
  const names = [...new Set(syscalls.map((s) => s.name))].sort();
  const strings = stringTable(["", ...names]);
  const symbols = new Uint8Array((names.length + 1) * elf.SYM_SIZE);
  const symbolView = viewOf(symbols);
  names.forEach((_, i) => {
    symbolView.setUint32((i + 1) * elf.SYM_SIZE, strings.offsets[i + 1] ?? 0, true);
    symbolView.setUint8((i + 1) * elf.SYM_SIZE + 4, (elf.STB_GLOBAL << 4) | elf.STT_NOTYPE);
  });
  const relocations = new Uint8Array(syscalls.length * elf.REL_SIZE);
  const relocationView = viewOf(relocations);
  [...syscalls]
    .sort((a, b) => a.address - b.address)
    .forEach((site, i) => {
      const symbol = BigInt(names.indexOf(site.name) + 1);
      relocationView.setBigUint64(i * elf.REL_SIZE, BigInt(site.address), true);
      relocationView.setBigUint64(i * elf.REL_SIZE + 8, (symbol << 32n) | BigInt(elf.R_BPF_64_32), true);
    });

  const dynsymAt = alignTo(start, 8);
  const dynstrAt = dynsymAt + symbols.length;
  const relAt = alignTo(dynstrAt + strings.bytes.length, 8);
  const dynamicAt = alignTo(relAt + relocations.length, 8);
  const entries: [number, number][] = [
    [elf.DT_SYMTAB, dynsymAt],
    [elf.DT_STRTAB, dynstrAt],
    [elf.DT_STRSZ, strings.bytes.length],
    [elf.DT_SYMENT, elf.SYM_SIZE],
  ];
  if (relocations.length > 0) {
    // The loader refuses DT_REL with DT_RELSZ 0, so a program without syscalls has no relocation table.
    entries.push(
      [elf.DT_REL, relAt],
      [elf.DT_RELSZ, relocations.length],
      [elf.DT_RELENT, elf.REL_SIZE],
      [elf.DT_TEXTREL, 0],
    );
  }
  entries.push([elf.DT_NULL, 0]);
  const dynamicData = new Uint8Array(entries.length * elf.DYN_SIZE);
  const dynamicView = viewOf(dynamicData);
  entries.forEach(([tag, value], i) => {
    dynamicView.setBigUint64(i * elf.DYN_SIZE, BigInt(tag), true);
    dynamicView.setBigUint64(i * elf.DYN_SIZE + 8, BigInt(value), true);
  });

  const table = (
    name: string,
    type: number,
    offset: number,
    data: Uint8Array,
    more: Partial<OutputSection>,
  ) => ({ name, type, flags: elf.SHF_ALLOC, offset, data, align: 8, ...more }) satisfies OutputSection;
  // sh_info of a symbol table is the index of its first non-local symbol.
  const dynsym = table(".dynsym", elf.SHT_DYNSYM, dynsymAt, symbols, {
    entsize: elf.SYM_SIZE,
    link: ".dynstr",
    info: 1,
  });
  const dynstr = table(".dynstr", elf.SHT_STRTAB, dynstrAt, strings.bytes, { align: 1 });
  const rel = table(".rel.dyn", elf.SHT_REL, relAt, relocations, { entsize: elf.REL_SIZE, link: ".dynsym" });
  const dynamic = table(".dynamic", elf.SHT_DYNAMIC, dynamicAt, dynamicData, {
    flags: elf.SHF_ALLOC | elf.SHF_WRITE,
    entsize: elf.DYN_SIZE,
    link: ".dynstr",
  });
  return {
    dynsym,
    dynamic,
    sections: relocations.length > 0 ? [dynsym, dynstr, rel, dynamic] : [dynsym, dynstr, dynamic],
    lastTable: relocations.length > 0 ? rel : dynstr,
    end: dynamicAt + dynamicData.length,
  };
}

function sectionHeader(s: OutputSection, nameOffset: number, link: number): elf.SectionHeader {
  return {
    nameOffset,
    type: s.type,
    flags: s.flags,
    address: s.flags & elf.SHF_ALLOC ? s.offset : 0,
    offset: s.offset,
    size: s.data.length,
    link,
    info: s.info ?? 0,
    align: s.align,
    entsize: s.entsize ?? 0,
  };
}

/** A program header covering `first` through `last`; address == offset throughout. */
function segment(type: number, flags: number, first: OutputSection, last = first): elf.ProgramHeader {
  const size = last.offset + last.data.length - first.offset;
  return { type, flags, offset: first.offset, address: first.offset, size, align: 8 };
}

function alignTo(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}
