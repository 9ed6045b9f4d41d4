// jsonParsed for the System program's instructions, as a validator writes them (agave's
// transaction-status parse_system): `{ type, info }` with the instruction's accounts by role and its
// arguments, u64 values as bigint (written as bare JSON numbers). Data the program's bincode layout
// does not decode, or too few accounts, is null: the caller writes the instruction partially decoded.
import bs58 from "bs58";

export const SYSTEM_PROGRAM_ID = "11111111111111111111111111111111";

export interface ParsedSystemInstruction {
  type: string;
  info: Record<string, string | bigint>;
}

/** A little-endian reader over bincode data; every read throws past the end. */
class BincodeReader {
  private offset = 0;

  constructor(private readonly data: Uint8Array) {}

  private take(length: number): Uint8Array {
    if (this.offset + length > this.data.length) {
      throw new RangeError("instruction data too short");
    }
    const bytes = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return bytes;
  }

  u32(): number {
    return Buffer.from(this.take(4)).readUInt32LE(0);
  }

  u64(): bigint {
    return Buffer.from(this.take(8)).readBigUInt64LE(0);
  }

  pubkey(): string {
    return bs58.encode(this.take(32));
  }

  /** bincode's String: a u64 length, then UTF-8 bytes (invalid UTF-8 does not decode). */
  string(): string {
    const length = this.u64();
    if (length > BigInt(this.data.length)) {
      throw new RangeError("string longer than the instruction data");
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(this.take(Number(length)));
  }
}

/** What one instruction needs: its accounts' count and a reader of its arguments. */
interface SystemInstructionLayout {
  type: string;
  accounts: number;
  info(reader: BincodeReader, account: (index: number) => string): Record<string, string | bigint>;
}

/** By the SystemInstruction enum's bincode tag (its variant index). */
const LAYOUTS: readonly SystemInstructionLayout[] = [
  {
    type: "createAccount",
    accounts: 2,
    info: (reader, account) => ({
      source: account(0),
      newAccount: account(1),
      lamports: reader.u64(),
      space: reader.u64(),
      owner: reader.pubkey(),
    }),
  },
  {
    type: "assign",
    accounts: 1,
    info: (reader, account) => ({ account: account(0), owner: reader.pubkey() }),
  },
  {
    type: "transfer",
    accounts: 2,
    info: (reader, account) => ({ source: account(0), destination: account(1), lamports: reader.u64() }),
  },
  {
    type: "createAccountWithSeed",
    accounts: 2,
    info: (reader, account) => ({
      source: account(0),
      newAccount: account(1),
      base: reader.pubkey(),
      seed: reader.string(),
      lamports: reader.u64(),
      space: reader.u64(),
      owner: reader.pubkey(),
    }),
  },
  {
    type: "advanceNonce",
    accounts: 3,
    info: (_reader, account) => ({
      nonceAccount: account(0),
      recentBlockhashesSysvar: account(1),
      nonceAuthority: account(2),
    }),
  },
  {
    type: "withdrawFromNonce",
    accounts: 5,
    info: (reader, account) => ({
      nonceAccount: account(0),
      destination: account(1),
      recentBlockhashesSysvar: account(2),
      rentSysvar: account(3),
      nonceAuthority: account(4),
      lamports: reader.u64(),
    }),
  },
  {
    type: "initializeNonce",
    accounts: 3,
    info: (reader, account) => ({
      nonceAccount: account(0),
      recentBlockhashesSysvar: account(1),
      rentSysvar: account(2),
      nonceAuthority: reader.pubkey(),
    }),
  },
  {
    type: "authorizeNonce",
    accounts: 2,
    info: (reader, account) => ({
      nonceAccount: account(0),
      nonceAuthority: account(1),
      newAuthorized: reader.pubkey(),
    }),
  },
  {
    type: "allocate",
    accounts: 1,
    info: (reader, account) => ({ account: account(0), space: reader.u64() }),
  },
  {
    type: "allocateWithSeed",
    accounts: 2,
    info: (reader, account) => ({
      account: account(0),
      base: reader.pubkey(),
      seed: reader.string(),
      space: reader.u64(),
      owner: reader.pubkey(),
    }),
  },
  {
    type: "assignWithSeed",
    accounts: 2,
    info: (reader, account) => ({
      account: account(0),
      base: reader.pubkey(),
      seed: reader.string(),
      owner: reader.pubkey(),
    }),
  },
  {
    type: "transferWithSeed",
    accounts: 3,
    info: (reader, account) => ({
      source: account(0),
      sourceBase: account(1),
      destination: account(2),
      lamports: reader.u64(),
      sourceSeed: reader.string(),
      sourceOwner: reader.pubkey(),
    }),
  },
  {
    type: "upgradeNonce",
    accounts: 1,
    info: (_reader, account) => ({ nonceAccount: account(0) }),
  },
];

/** The parsed form of a System instruction given its data and its accounts' addresses, or null. */
export function parseSystemInstruction(
  data: Uint8Array,
  accounts: readonly string[],
): ParsedSystemInstruction | null {
  try {
    const reader = new BincodeReader(data);
    const layout = LAYOUTS[reader.u32()];
    if (layout === undefined || accounts.length < layout.accounts) {
      return null;
    }
    return { type: layout.type, info: layout.info(reader, (index) => accounts[index] ?? "") };
  } catch {
    return null;
  }
}
