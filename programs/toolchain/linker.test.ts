import { readFileSync } from "node:fs";
import { Keypair, PublicKey } from "@solana/web3.js";
import { beforeAll, describe, expect, it } from "vitest";
import { readArchive } from "./archive";
import {
  DT_REL,
  DT_RELENT,
  DT_RELSZ,
  DT_STRSZ,
  DT_STRTAB,
  DT_SYMENT,
  DT_SYMTAB,
  DT_TEXTREL,
  EM_BPF,
  ET_DYN,
  R_BPF_64_32,
  R_BPF_64_64,
  R_BPF_64_ABS32,
  R_BPF_64_ABS64,
  readElfHeader,
  readElfRelocations,
  readElfSections,
  readElfSymbols,
  SHF_ALLOC,
  type ElfSection,
} from "./elf";
import { linkSbf, MM_PROGRAM_START, pcRelativeCallImmediate, readLddwImmediate } from "./linker";
import { asm, assembleObject, concat, insn, type SectionSpec } from "./testing/bpf-object";
import {
  createTestValidator,
  customErrorCode,
  deployUpgradeable,
  invoke,
  isFailure,
  kitAddress,
  logsOf,
} from "./testing/litesvm";

const FIXTURE = new URL("./fixtures/libfixture.a", import.meta.url);
const CALL_SITE = 8; // a call after one mov in the functions below

// --- Small objects and a reader for the linked output ---------------------------------------------

/** `entrypoint` at the start of .text.entrypoint, with the given body. */
function entrypoint(body: Uint8Array, relocations: SectionSpec["relocations"] = []): SectionSpec {
  return { name: ".text.entrypoint", data: body, symbols: [{ name: "entrypoint" }], relocations };
}

/** A local function whose first instruction (`mov r0, marker`) identifies it in the output. */
function fn(name: string, marker: number, relocations: SectionSpec["relocations"] = []): SectionSpec {
  const body = concat(asm.movImm(0, marker), asm.call(), asm.exit());
  return { name: `.text.${name}`, data: body, symbols: [{ name, global: false }], relocations };
}

function link(...sections: SectionSpec[]): LinkedProgram {
  return new LinkedProgram(linkSbf([assembleObject(sections)]));
}

class LinkedProgram {
  readonly sections: ElfSection[];
  readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.sections = readElfSections(bytes);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  section(name: string): ElfSection {
    const section = this.sections.find((s) => s.name === name);
    if (section === undefined) throw new Error(`no ${name} in the output`);
    return section;
  }

  get entry(): number {
    return readElfHeader(this.bytes).entry;
  }

  /** Instructions of .text as [address, opcode, imm]. */
  instructions(): [number, number, number][] {
    const text = this.section(".text");
    const result: [number, number, number][] = [];
    for (let at = text.offset; at < text.offset + text.size; at += 8) {
      result.push([at, this.bytes[at] ?? 0, this.view.getInt32(at + 4, true)]);
    }
    return result;
  }

  /** Where a v0 `call imm` at `address` lands. */
  callTarget(address: number): number {
    return address + 8 + this.view.getInt32(address + 4, true) * 8;
  }

  /** The file offset a vm address points at. */
  offsetOf(vmAddress: bigint): number {
    return Number(vmAddress - MM_PROGRAM_START);
  }

  dynamic(): Map<number, number> {
    const entries = new Map<number, number>();
    const { data } = this.section(".dynamic");
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let at = 0; at < data.length; at += 16) {
      entries.set(Number(view.getBigUint64(at, true)), Number(view.getBigUint64(at + 8, true)));
    }
    return entries;
  }

  dynamicRelocations(): { offset: number; type: number; name: string }[] {
    const symbols = readElfSymbols(this.section(".dynsym"), this.section(".dynstr"));
    return this.sections.some((s) => s.name === ".rel.dyn")
      ? readElfRelocations(this.section(".rel.dyn")).map((r) => ({
          offset: r.offset,
          type: r.type,
          name: symbols[r.symbol]?.name ?? "?",
        }))
      : [];
  }
}

const ascii = (text: string) => new TextEncoder().encode(text);

// --- Unit tests on hand-assembled objects ---------------------------------------------------------

describe("linkSbf", () => {
  it("writes an SBPF v0 ET_DYN image: entry at entrypoint, .text then .rodata, address == offset", () => {
    const program = link(
      entrypoint(concat(asm.lddw(1, 0n), asm.call(), asm.exit()), [
        { offset: 0, type: R_BPF_64_64, symbol: ".rodata.str" },
        { offset: 16, type: R_BPF_64_32, symbol: "sol_log_" },
      ]),
      { name: ".rodata.str", data: ascii("hello"), align: 1 },
    );
    const header = readElfHeader(program.bytes);
    expect(header).toMatchObject({ type: ET_DYN, machine: EM_BPF, flags: 0 });
    expect(program.sections.map((s) => s.name)).toEqual([
      "",
      ".text",
      ".rodata",
      ".dynsym",
      ".dynstr",
      ".rel.dyn",
      ".dynamic",
      ".shstrtab",
    ]);
    expect(header.entry).toBe(program.section(".text").offset);
    for (const section of program.sections.filter((s) => s.flags & SHF_ALLOC)) {
      expect(section.addr, section.name).toBe(section.offset);
    }
    expect(program.section(".rodata").offset).toBeGreaterThanOrEqual(program.section(".text").offset);
  });

  it("resolves R_BPF_64_32 calls between functions to pc-relative immediates", () => {
    const program = link(
      entrypoint(concat(asm.movImm(1, 0), asm.call(), asm.exit()), [
        { offset: CALL_SITE, type: R_BPF_64_32, symbol: "helper" },
      ]),
      fn("unrelated", 7, [{ offset: CALL_SITE, type: R_BPF_64_32, symbol: "helper" }]),
      fn("helper", 42, [{ offset: CALL_SITE, type: R_BPF_64_32, symbol: "sol_log_" }]),
    );
    const call = program.entry + CALL_SITE;
    const target = program.callTarget(call);
    expect(program.view.getInt32(target + 4, true)).toBe(42); // helper's `mov r0, 42`
    expect(program.bytes[call + 1]).toBe(0x10); // src = 1, as LLVM emitted it
    expect(pcRelativeCallImmediate(0, 16)).toBe(1);
    expect(pcRelativeCallImmediate(16, 0)).toBe(-3);
  });

  it("resolves lddw (R_BPF_64_64) to 0x1_0000_0000 + address + addend, split across both slots", () => {
    const program = link(
      entrypoint(concat(asm.lddw(1, 0n), asm.lddw(2, 3n), asm.exit()), [
        { offset: 0, type: R_BPF_64_64, symbol: ".rodata.a" },
        { offset: 16, type: R_BPF_64_64, symbol: ".rodata.b" },
      ]),
      { name: ".rodata.a", data: ascii("first"), align: 1 },
      { name: ".rodata.b", data: ascii("...second"), align: 1 },
    );
    const first = readLddwImmediate(program.view, program.entry);
    const second = readLddwImmediate(program.view, program.entry + 16);
    expect(first >> 32n).toBe(1n); // the high half landed in the second slot
    expect(program.view.getUint32(program.entry + 12, true)).toBe(1);
    const at = (vm: bigint, n: number) =>
      program.bytes.subarray(program.offsetOf(vm), program.offsetOf(vm) + n);
    expect(new TextDecoder().decode(at(first, 5))).toBe("first");
    expect(new TextDecoder().decode(at(second, 6))).toBe("second");
  });

  it("resolves R_BPF_64_ABS64 in rodata and .data.rel.ro (pointer tables) to vm addresses", () => {
    const table = new Uint8Array(16);
    new DataView(table.buffer).setBigUint64(8, 2n, true); // implicit addend
    const program = link(
      entrypoint(concat(asm.lddw(1, 0n), asm.exit()), [
        { offset: 0, type: R_BPF_64_64, symbol: ".data.rel.ro.table" },
      ]),
      fn("handler", 99, [{ offset: CALL_SITE, type: R_BPF_64_32, symbol: "abort" }]),
      {
        name: ".data.rel.ro.table",
        data: table,
        relocations: [
          { offset: 0, type: R_BPF_64_ABS64, symbol: "handler" },
          { offset: 8, type: R_BPF_64_ABS64, symbol: ".rodata.str" },
        ],
      },
      { name: ".rodata.str", data: ascii("xxpointee"), align: 1 },
    );
    const tableAt = program.offsetOf(readLddwImmediate(program.view, program.entry));
    const handler = program.offsetOf(program.view.getBigUint64(tableAt, true));
    expect(program.view.getInt32(handler + 4, true)).toBe(99);
    const string = program.offsetOf(program.view.getBigUint64(tableAt + 8, true));
    expect(new TextDecoder().decode(program.bytes.subarray(string, string + 7))).toBe("pointee");
  });

  it("keeps syscall calls at imm -1 with one dynamic R_BPF_64_32 per call site against .dynsym", () => {
    const body = concat(asm.call(), asm.call(), asm.call(), asm.call(), asm.exit());
    const program = link(
      entrypoint(body, [
        { offset: 0, type: R_BPF_64_32, symbol: "sol_log_" },
        { offset: 8, type: R_BPF_64_32, symbol: "sol_log_64_" },
        { offset: 16, type: R_BPF_64_32, symbol: "sol_log_" },
        { offset: 24, type: R_BPF_64_32, symbol: "__bpf_trap" },
      ]),
    );
    const calls = program.instructions().filter(([, opcode]) => opcode === 0x85);
    expect(calls.map(([, , imm]) => imm)).toEqual([-1, -1, -1, -1]);
    expect(program.dynamicRelocations()).toEqual([
      { offset: program.entry, type: R_BPF_64_32, name: "sol_log_" },
      { offset: program.entry + 8, type: R_BPF_64_32, name: "sol_log_64_" },
      { offset: program.entry + 16, type: R_BPF_64_32, name: "sol_log_" },
      { offset: program.entry + 24, type: R_BPF_64_32, name: "abort" }, // LLVM's trap is SBPF's abort
    ]);
    const dynsym = readElfSymbols(program.section(".dynsym"), program.section(".dynstr"));
    expect(dynsym.map((s) => [s.name, s.shndx, s.value])).toEqual([
      ["", 0, 0],
      ["abort", 0, 0],
      ["sol_log_", 0, 0],
      ["sol_log_64_", 0, 0],
    ]);
    const dynamic = program.dynamic();
    expect(dynamic.get(DT_SYMTAB)).toBe(program.section(".dynsym").offset);
    expect(dynamic.get(DT_STRTAB)).toBe(program.section(".dynstr").offset);
    expect(dynamic.get(DT_STRSZ)).toBe(program.section(".dynstr").size);
    expect(dynamic.get(DT_SYMENT)).toBe(24);
    expect(dynamic.get(DT_REL)).toBe(program.section(".rel.dyn").offset);
    expect(dynamic.get(DT_RELSZ)).toBe(4 * 16);
    expect(dynamic.get(DT_RELENT)).toBe(16);
    expect(dynamic.has(DT_TEXTREL)).toBe(true);
  });

  it("omits the relocation table when nothing calls a syscall", () => {
    const program = link(entrypoint(concat(asm.movImm(0, 0), asm.exit())));
    expect(program.sections.map((s) => s.name)).not.toContain(".rel.dyn");
    expect(program.dynamic().has(DT_REL)).toBe(false);
  });

  it("refuses calls to undefined symbols that are not syscalls", () => {
    const object = entrypoint(concat(asm.call(), asm.exit()), [
      { offset: 0, type: R_BPF_64_32, symbol: "memcpy" },
    ]);
    expect(() => link(object)).toThrow(
      '.text.entrypoint+0x0: call to undefined symbol "memcpy" (not a syscall)',
    );
  });

  it("moves the callx register from dst (LLVM) to imm (SBPF v0)", () => {
    const program = link(entrypoint(concat(asm.callx(3), asm.exit())));
    expect([...program.bytes.subarray(program.entry, program.entry + 8)]).toEqual([
      0x8d, 0, 0, 0, 3, 0, 0, 0,
    ]);
  });

  it.each([
    [".data.counter", 8, "writable section .data.counter (symbols: COUNTER)"],
    [".bss.counter", 8, "writable section .bss.counter (symbols: COUNTER)"],
  ])("refuses a reachable writable section %s", (name, size, message) => {
    const data = name.startsWith(".bss") ? size : new Uint8Array(size);
    const program = () =>
      link(
        entrypoint(concat(asm.lddw(1, 0n), asm.exit()), [
          { offset: 0, type: R_BPF_64_64, symbol: "COUNTER" },
        ]),
        {
          name,
          data,
          symbols: [{ name: "COUNTER", global: false }],
        },
      );
    expect(program).toThrow(message);
  });

  it("accepts empty and unreachable writable sections", () => {
    expect(() =>
      link(
        entrypoint(concat(asm.lddw(1, 0n), asm.exit()), [
          { offset: 0, type: R_BPF_64_64, symbol: ".bss.empty" },
        ]),
        { name: ".bss.empty", data: 0 },
        { name: ".data.unused", data: new Uint8Array(8) },
      ),
    ).not.toThrow();
  });

  it("garbage-collects sections unreachable from entrypoint, dead relocations included", () => {
    const live = entrypoint(concat(asm.movImm(1, 0), asm.call(), asm.exit()), [
      { offset: CALL_SITE, type: R_BPF_64_32, symbol: "used" },
    ]);
    const program = link(
      live,
      fn("unused", 1, [{ offset: CALL_SITE, type: 77, symbol: "not_a_syscall" }]),
      fn("used", 2, [{ offset: CALL_SITE, type: R_BPF_64_32, symbol: "sol_log_" }]),
      { name: ".rodata.unused", data: ascii("never referenced") },
      { name: ".debug_info", data: new Uint8Array(4), relocations: [{ offset: 0, type: 3, symbol: "used" }] },
      { name: ".BTF", data: new Uint8Array(4) },
    );
    expect(program.section(".text").size).toBe(24 + 24);
    expect(program.sections.map((s) => s.name)).not.toContain(".rodata");
    expect(program.sections.map((s) => s.name).filter((n) => /debug|BTF/.test(n))).toEqual([]);
  });

  it("refuses relocation types it does not handle", () => {
    const object = entrypoint(concat(asm.call(), asm.exit()), [{ offset: 0, type: 7, symbol: "sol_log_" }]);
    expect(() => link(object)).toThrow(".text.entrypoint+0x0: unsupported relocation type 7");
  });

  it("refuses an R_BPF_64_ABS32 that cannot hold a vm address", () => {
    const object = [
      entrypoint(concat(asm.lddw(1, 0n), asm.exit()), [
        { offset: 0, type: R_BPF_64_64, symbol: ".rodata.p" },
      ]),
      {
        name: ".rodata.p",
        data: new Uint8Array(4),
        relocations: [{ offset: 0, type: R_BPF_64_ABS32, symbol: "x" }],
      },
      { name: ".rodata.x", data: new Uint8Array(4), symbols: [{ name: "x" }] },
    ];
    expect(() => link(...object)).toThrow("R_BPF_64_ABS32 cannot hold vm address 0x1");
  });

  it.each<[string, SectionSpec[], string]>([
    ["no entrypoint", [fn("main", 0)], "no entrypoint symbol is defined"],
    [
      "a data reference to an undefined symbol",
      [
        entrypoint(concat(asm.lddw(1, 0n), asm.exit()), [
          { offset: 0, type: R_BPF_64_64, symbol: "extern_table" },
        ]),
      ],
      'data reference to undefined symbol "extern_table"',
    ],
    [
      "R_BPF_64_32 on something other than a call",
      [
        entrypoint(concat(asm.movImm(0, 0), asm.exit()), [
          { offset: 0, type: R_BPF_64_32, symbol: "sol_log_" },
        ]),
      ],
      "R_BPF_64_32 not on a call instruction",
    ],
    [
      "thread-local data",
      [entrypoint(asm.exit()), { name: ".tbss.x", data: 8, flags: 0x403 }],
      "section .tbss.x: thread-local storage is not supported",
    ],
    [
      "an unknown allocated section",
      [entrypoint(asm.exit()), { name: ".init_array", data: new Uint8Array(8), flags: SHF_ALLOC }],
      "section .init_array: unknown allocated section",
    ],
  ])("refuses %s", (_, sections, message) => {
    expect(() => link(...sections)).toThrow(message);
  });

  it("links objects out of an ar archive with GNU long names, and refuses bitcode members", () => {
    const object = assembleObject([entrypoint(concat(asm.movImm(0, 0), asm.exit()))]);
    const bitcode = Uint8Array.of(0x42, 0x43, 0xc0, 0xde);
    const objectName = "libvault.vault.0123456789abcdef-cgu.0.rcgu.o";
    const builtinsName = "compiler_builtins.compiler_builtins.0123456789abcdef-cgu.0.rcgu.o";
    const names = `${objectName}/\n${builtinsName}/\n`;
    const archive = arArchive([
      ["//", ascii(names)],
      ["/0", object],
      [`/${objectName.length + 2}`, bitcode],
    ]);
    expect(readArchive(archive).map((m) => m.name)).toEqual([objectName, builtinsName]);
    expect(linkSbf([archive])).toEqual(linkSbf([object]));
    const unknownBitcode = arArchive([["vault.o/", bitcode]]);
    expect(() => linkSbf([unknownBitcode])).toThrow("input #0(vault.o) is LLVM bitcode");
  });

  it("is deterministic", () => {
    const sections = [
      entrypoint(concat(asm.lddw(1, 0n), asm.call(), asm.exit()), [
        { offset: 0, type: R_BPF_64_64, symbol: ".rodata.str" },
        { offset: 16, type: R_BPF_64_32, symbol: "sol_log_" },
      ]),
      { name: ".rodata.str", data: ascii("hello"), align: 1 },
    ];
    expect(linkSbf([assembleObject(sections)])).toEqual(linkSbf([assembleObject(sections)]));
  });
});

function arArchive(members: [string, Uint8Array][]): Uint8Array {
  const parts: Uint8Array[] = [ascii("!<arch>\n")];
  for (const [name, data] of members) {
    const header = `${name.padEnd(16)}${"0".padEnd(12)}${"0".padEnd(6)}${"0".padEnd(6)}${"644".padEnd(8)}`;
    parts.push(ascii(`${header}${String(data.length).padEnd(10)}\`\n`), data);
    if (data.length % 2 === 1) parts.push(ascii("\n"));
  }
  return concat(...parts);
}

// --- Hand-assembled programs in LiteSVM: the runtime agrees with the encodings above ---------------

describe("hand-assembled programs linked by linkSbf run in LiteSVM", () => {
  const { svm, payer } = createTestValidator();
  const runProgram = (sections: SectionSpec[]) => {
    const programId = Keypair.generate().publicKey;
    svm.addProgram(kitAddress(programId), linkSbf([assembleObject(sections)]));
    return invoke(svm, payer, programId, []);
  };

  it("loads a program without syscalls (no .rel.dyn) and returns r0 as the error code", () => {
    expect(customErrorCode(runProgram([entrypoint(concat(asm.movImm(0, 42), asm.exit()))]))).toBe(42);
  });

  it("calls through a function-pointer table with callx", () => {
    const loadSecondEntry = insn(0x79, 2, 1, 8, 0); // r2 = *(u64 *)(r1 + 8)
    const result = runProgram([
      entrypoint(concat(asm.lddw(1, 0n), loadSecondEntry, asm.callx(2), asm.exit()), [
        { offset: 0, type: R_BPF_64_64, symbol: ".data.rel.ro.table" },
      ]),
      {
        name: ".data.rel.ro.table",
        data: new Uint8Array(16),
        relocations: [
          { offset: 0, type: R_BPF_64_ABS64, symbol: "f0" },
          { offset: 8, type: R_BPF_64_ABS64, symbol: "f1" },
        ],
      },
      {
        name: ".text.f0",
        data: concat(asm.movImm(0, 6), asm.exit()),
        symbols: [{ name: "f0", global: false }],
      },
      {
        name: ".text.f1",
        data: concat(asm.movImm(0, 7), asm.exit()),
        symbols: [{ name: "f1", global: false }],
      },
    ]);
    expect(customErrorCode(result)).toBe(7);
  });
});

// --- End to end: the committed fixture (built by real rustc) running in LiteSVM ---------------------

describe("linkSbf on a rustc-built program (fixtures/fixture.rs) in LiteSVM", () => {
  const { svm, payer } = createTestValidator();
  const programId = Keypair.generate().publicKey;
  let program: Uint8Array = new Uint8Array(0);
  beforeAll(() => {
    program = linkSbf([readFileSync(FIXTURE)]);
    svm.addProgram(kitAddress(programId), program);
  });
  const run = (data: number[], id = programId) => invoke(svm, payer, id, data);

  it("uses a function-pointer table (callx), syscalls and rodata strings", () => {
    const opcodes = new LinkedProgram(program).instructions().map(([, opcode]) => opcode);
    expect(opcodes).toContain(0x8d); // callx

    const result = run([0]);
    expect(isFailure(result)).toBe(false);
    expect(logsOf(result)).toEqual([
      `Program ${programId.toBase58()} invoke [1]`,
      "Program log: fixture: start",
      "Program log: fixture: ok",
      expect.stringMatching(/consumed \d+ of \d+ compute units$/),
      `Program ${programId.toBase58()} success`,
    ]);
  });

  it("returns custom errors", () => {
    const requested = run([1]);
    expect(customErrorCode(requested)).toBe(6020);
    expect(logsOf(requested)).toContain("Program log: fixture: failing on request");
    expect(customErrorCode(run([9]))).toBe(6000);
    expect(customErrorCode(run([]))).toBe(6000);
  });

  it("derives the same PDA as web3.js through sol_try_find_program_address", () => {
    const seed = [1, 2, 3];
    const [address, bump] = PublicKey.findProgramAddressSync(
      [ascii("fixture"), Uint8Array.from(seed)],
      programId,
    );
    const logs = logsOf(run([2, ...seed]));
    expect(logs).toContain("Program log: fixture: derived");
    expect(logs).toContain(`Program log: ${address.toBase58()}`);
    expect(logs).toContain(`Program log: 0x${bump.toString(16)}, 0x0, 0x0, 0x0, 0x0`);
  });

  it("passes the deploy-time ELF checks of the upgradeable loader", () => {
    const deployed = deployUpgradeable(svm, payer, program);
    svm.warpToSlot(10n);
    const result = run([0], deployed);
    expect(isFailure(result)).toBe(false);
    expect(logsOf(result)).toContain("Program log: fixture: ok");
  });

  it("links the fixture to the same bytes every time", () => {
    expect(linkSbf([readFileSync(FIXTURE)])).toEqual(program);
  });
});
