import {
  ComputeBudgetProgram,
  Keypair,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";

import { serializeUnsignedV0 } from "./transaction";

const key = () => Keypair.generate().publicKey;

describe("serializeUnsignedV0", () => {
  it("matches web3.js's compileToV0Message and serialize byte for byte", () => {
    const payer = key();
    const [a, b, c, program] = [key(), key(), key(), key()];
    const cosigner = key();
    const instructions = [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 40_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 7 }),
      new TransactionInstruction({
        programId: program,
        keys: [
          { pubkey: payer, isSigner: true, isWritable: true },
          { pubkey: a, isSigner: false, isWritable: true },
          { pubkey: b, isSigner: false, isWritable: false },
          { pubkey: cosigner, isSigner: true, isWritable: false },
          { pubkey: a, isSigner: false, isWritable: false },
        ],
        data: Buffer.alloc(300, 7),
      }),
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: c, lamports: 5 }),
      new TransactionInstruction({
        programId: program,
        keys: [{ pubkey: b, isSigner: false, isWritable: true }],
        data: Buffer.alloc(0),
      }),
    ];
    const recentBlockhash = bs58.encode(Keypair.generate().publicKey.toBytes());
    const expected = new VersionedTransaction(
      new TransactionMessage({ payerKey: payer, recentBlockhash, instructions }).compileToV0Message(),
    ).serialize();
    const ours = serializeUnsignedV0(payer, instructions, recentBlockhash);
    expect(Buffer.from(ours).toString("hex")).toBe(Buffer.from(expected).toString("hex"));
    const decoded = VersionedTransaction.deserialize(ours);
    expect(decoded.message.staticAccountKeys[0]?.equals(payer)).toBe(true);
    expect(decoded.signatures).toHaveLength(2);
  });
});
