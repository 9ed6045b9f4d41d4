import { address, type Address } from "@solana/kit";
import { Keypair, type PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import {
  findAuthorityPda,
  findEscrowPda,
  findProtocolPda,
  findQueueHolesPda,
  findReceiptPda,
  findReservePda,
  findShareMintPda,
  findVaultPda,
} from "../generated";
import {
  deriveVaultAddresses,
  findProtocolAddress,
  findQueueHolesAndBump,
  findReceiptAndBump,
} from "./addresses";

const kit = (key: PublicKey): Address => address(key.toBase58());

describe("program-derived addresses from the IDL's seeds", () => {
  // Codama's finders are generated from the same IDL by another route (async, Kit): both must agree.
  it("match Codama's generated finders for every account the program derives", async () => {
    for (let round = 0; round < 4; round += 1) {
      const creator = Keypair.generate().publicKey;
      const owner = Keypair.generate().publicKey;
      const index = BigInt(round * 7);
      const protocol = findProtocolAddress(creator);
      expect(protocol.toBase58()).toBe((await findProtocolPda({ creator: kit(creator) }))[0]);

      const vault = deriveVaultAddresses(protocol, index);
      expect(vault.vault.toBase58()).toBe((await findVaultPda({ protocol: kit(protocol), index }))[0]);
      const seeds = { vault: kit(vault.vault) };
      expect(vault.authority.toBase58()).toBe((await findAuthorityPda(seeds))[0]);
      expect(vault.shareMint.toBase58()).toBe((await findShareMintPda(seeds))[0]);
      expect(vault.reserve.toBase58()).toBe((await findReservePda(seeds))[0]);
      expect(vault.escrow.toBase58()).toBe((await findEscrowPda(seeds))[0]);

      const [holes, holesBump] = await findQueueHolesPda(seeds);
      const foundHoles = findQueueHolesAndBump(vault.vault);
      expect([foundHoles.address.toBase58(), foundHoles.bump]).toEqual([holes, holesBump]);

      const [receipt, receiptBump] = await findReceiptPda({ vault: kit(vault.vault), owner: kit(owner) });
      const found = findReceiptAndBump(vault.vault, owner);
      expect([found.address.toBase58(), found.bump]).toEqual([receipt, receiptBump]);
    }
  });

  it("differ by vault index and by owner", () => {
    const protocol = findProtocolAddress(Keypair.generate().publicKey);
    const first = deriveVaultAddresses(protocol, 0n);
    const second = deriveVaultAddresses(protocol, 1n);
    expect(first.vault.equals(second.vault)).toBe(false);
    const a = findReceiptAndBump(first.vault, Keypair.generate().publicKey).address;
    const b = findReceiptAndBump(first.vault, Keypair.generate().publicKey).address;
    expect(a.equals(b)).toBe(false);
  });
});
