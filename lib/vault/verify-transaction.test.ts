// The check of a built transaction on transactions the API's own builders make (honest ones pass) and
// on each way one can differ from the request, with numbers. The hostile gateway over HTTP, through the
// client and the pages' flow, is tests/api/hostile-gateway.test.ts.
import {
  Keypair,
  MessageV0,
  PublicKey,
  VersionedTransaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import { describe, expect, it } from "vitest";

import {
  TOKEN_ACCOUNT_SIZE,
  buildCreateAssociatedTokenAccountIdempotentInstruction,
  findAssociatedTokenAddress,
} from "../chain/spl-token";
import {
  findEscrow,
  findQueueHoles,
  findReceipt,
  findReserve,
  findShareMint,
  findVaultAuthority,
} from "./addresses";
import { QUEUE_HOLES_ACCOUNT_SIZE, WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "./idl";
import {
  buildCancelWithdrawalInstruction,
  buildClaimWithdrawalInstruction,
  buildDepositInstruction,
  buildRequestWithdrawalInstruction,
  buildUpdateNavInstruction,
} from "./instructions";
import { buildUnsignedTransaction, type TransactionAction } from "./transaction";
import { rentExemptMinimum } from "./vault-state";
import {
  DEFAULT_MAX_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS,
  TransactionCheckError,
  checkBalanceChanges,
  verifyVaultTransaction,
  type ExpectedVaultTransaction,
  type VaultTokens,
} from "./verify-transaction";

const wallet = Keypair.generate().publicKey;
const stranger = Keypair.generate().publicKey;
const vault = Keypair.generate().publicKey;
const assetMint = Keypair.generate().publicKey;
const tokens: VaultTokens = {
  vault,
  assetMint,
  assetDecimals: 6,
  shareMint: findShareMint(vault),
  shareDecimals: 9,
  feeBps: 10,
};
const blockhash = {
  blockhash: Keypair.generate().publicKey.toBase58(),
  lastValidBlockHeight: 1_000,
  expiresAtMs: 0,
  fetchedAtMs: 0,
};

function transactionOf(
  action: TransactionAction,
  instructions: TransactionInstruction[],
  price = 1_000,
  payer = wallet,
): VersionedTransaction {
  const built = buildUnsignedTransaction(payer, action, instructions, blockhash, price);
  return VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
}

function depositInstructions(amount: bigint, owner = wallet, target = vault): TransactionInstruction[] {
  const shareMint = findShareMint(target);
  return [
    buildCreateAssociatedTokenAccountIdempotentInstruction(owner, owner, shareMint),
    buildDepositInstruction(
      {
        depositor: owner,
        vault: target,
        authority: findVaultAuthority(target),
        shareMint,
        reserve: findReserve(target),
        depositorAsset: findAssociatedTokenAddress(owner, assetMint),
        depositorShares: findAssociatedTokenAddress(owner, shareMint),
      },
      { amount, minSharesOut: 1n },
    ),
  ];
}

function requestInstruction(shares: bigint, receiptOwner = wallet, maxFeeBps = 10): TransactionInstruction {
  return buildRequestWithdrawalInstruction(
    {
      owner: wallet,
      vault,
      receipt: findReceipt(vault, receiptOwner),
      ownerShares: findAssociatedTokenAddress(wallet, tokens.shareMint),
      escrow: findEscrow(vault),
    },
    { shares, maxFeeBps },
  );
}

function claimInstructions(): TransactionInstruction[] {
  return [
    buildCreateAssociatedTokenAccountIdempotentInstruction(wallet, wallet, assetMint),
    buildClaimWithdrawalInstruction({
      owner: wallet,
      vault,
      authority: findVaultAuthority(vault),
      receipt: findReceipt(vault, wallet),
      shareMint: tokens.shareMint,
      escrow: findEscrow(vault),
      reserve: findReserve(vault),
      ownerAsset: findAssociatedTokenAddress(wallet, assetMint),
    }),
  ];
}

/** cancel_withdrawal as the API builds it; `sharesOwner` and `receiptOwner` let a test point them elsewhere. */
function cancelInstruction(
  options: {
    sharesOwner?: PublicKey;
    receiptOwner?: PublicKey;
    target?: PublicKey;
    queueHoles?: PublicKey;
  } = {},
): TransactionInstruction {
  const target = options.target ?? vault;
  return buildCancelWithdrawalInstruction({
    owner: wallet,
    vault: target,
    receipt: findReceipt(target, options.receiptOwner ?? wallet),
    ownerShares: findAssociatedTokenAddress(options.sharesOwner ?? wallet, tokens.shareMint),
    escrow: findEscrow(target),
    authority: findVaultAuthority(target),
    queueHoles: options.queueHoles ?? findQueueHoles(target),
  });
}

function cancelInstructions(): TransactionInstruction[] {
  return [
    buildCreateAssociatedTokenAccountIdempotentInstruction(wallet, wallet, tokens.shareMint),
    cancelInstruction(),
  ];
}

const cancel: ExpectedVaultTransaction = { operation: "cancel", vault, wallet };

const deposit250: ExpectedVaultTransaction = {
  operation: "deposit",
  vault,
  wallet,
  amount: { raw: 250_000_000n },
};

function refusal(run: () => unknown): TransactionCheckError {
  try {
    run();
  } catch (error) {
    if (error instanceof TransactionCheckError) {
      return error;
    }
    throw error;
  }
  throw new Error("the check passed");
}

describe("verifyVaultTransaction", () => {
  it("passes the builders' deposit, request and claim, and says what each costs at most", () => {
    const deposit = verifyVaultTransaction(
      transactionOf("deposit", depositInstructions(250_000_000n)),
      deposit250,
      tokens,
    );
    expect(deposit).toMatchObject({
      operation: "deposit",
      args: { amount: "250000000", min_shares_out: "1" },
      computeUnitPriceMicroLamports: 1_000,
    });
    // 5,000 per signature plus limit × price, rounded up; plus the share account's rent.
    const priority = (BigInt(deposit.computeUnitLimit) * 1_000n + 999_999n) / 1_000_000n;
    expect(deposit.maxFeeLamports).toBe(5_000n + priority);
    expect(deposit.maxLamportsSpent).toBe(5_000n + priority + rentExemptMinimum(TOKEN_ACCOUNT_SIZE));

    const request = verifyVaultTransaction(
      transactionOf("initiate", [requestInstruction(7_000n)]),
      { operation: "initiate", vault, wallet, shares: 7_000n },
      tokens,
    );
    expect(request.args).toMatchObject({ shares: "7000" });
    expect(request.maxLamportsSpent - request.maxFeeLamports).toBe(
      rentExemptMinimum(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE),
    );

    const claim = verifyVaultTransaction(
      transactionOf("claim", claimInstructions()),
      { operation: "claim", vault, wallet },
      tokens,
    );
    expect(claim.args).toEqual({});
  });

  it("reads a human deposit amount with the asset's decimals from the chain", () => {
    const transaction = transactionOf("deposit", depositInstructions(250_500_000n));
    const expected = { ...deposit250, amount: { ui: 250.5 } };
    expect(verifyVaultTransaction(transaction, expected, tokens).args.amount).toBe("250500000");
    expect(
      refusal(() => verifyVaultTransaction(transaction, { ...deposit250, amount: { ui: 250.4 } }, tokens)),
    ).toMatchObject({ code: "WRONG_AMOUNT", context: { expected: "250400000", found: "250500000" } });
    expect(
      refusal(() =>
        verifyVaultTransaction(transaction, { ...deposit250, amount: { ui: 1.0000001 } }, tokens),
      ),
    ).toMatchObject({ code: "INVALID_AMOUNT" });
  });

  it("refuses another operation, another vault's accounts, a stranger's receipt and a second vault instruction", () => {
    const request = transactionOf("initiate", [requestInstruction(7_000n)]);
    expect(refusal(() => verifyVaultTransaction(request, deposit250, tokens))).toMatchObject({
      code: "WRONG_VAULT_INSTRUCTION",
      context: { expected: "deposit", found: "request_withdrawal" },
    });
    const other = Keypair.generate().publicKey;
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("deposit", [
            depositInstructions(250_000_000n, wallet, other)[1] ?? requestInstruction(1n),
          ]),
          deposit250,
          tokens,
        ),
      ),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "vault", found: other.toBase58() } });
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("initiate", [requestInstruction(7_000n, stranger)]),
          { operation: "initiate", vault, wallet, shares: 7_000n },
          tokens,
        ),
      ),
    ).toMatchObject({
      code: "WRONG_ACCOUNT",
      context: { account: "receipt", expected: findReceipt(vault, wallet).toBase58() },
    });
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("initiate", [requestInstruction(7_000n), requestInstruction(7_000n)]),
          { operation: "initiate", vault, wallet, shares: 7_000n },
          tokens,
        ),
      ),
    ).toMatchObject({ code: "UNEXPECTED_INSTRUCTION" });
    const nav = buildUpdateNavInstruction(
      { manager: wallet, vault, protocol: stranger },
      { gain: 1n, loss: 0n },
    );
    expect(
      refusal(() => verifyVaultTransaction(transactionOf("deposit", [nav]), deposit250, tokens)),
    ).toMatchObject({ code: "WRONG_VAULT_INSTRUCTION", context: { found: "update_nav" } });
  });

  // A gateway that lets the request accept 10% where the vault charges 0.10% lets a fee raised just
  // before the request apply to it (issue 21's attack, here from the gateway's side).
  it("refuses a request that accepts a higher fee than the vault charges", () => {
    const expected = { operation: "initiate" as const, vault, wallet, shares: 7_000n };
    expect(
      verifyVaultTransaction(transactionOf("initiate", [requestInstruction(7_000n)]), expected, tokens).args
        .max_fee_bps,
    ).toBe("10");
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("initiate", [requestInstruction(7_000n, wallet, 1_000)]),
          expected,
          tokens,
        ),
      ),
    ).toMatchObject({ code: "FEE_ABOVE_VAULT", context: { expected: 10, found: "1000" } });
  });

  it("refuses a token account created for another owner or mint, and one a request does not need", () => {
    const [, depositInstruction] = depositInstructions(250_000_000n);
    if (depositInstruction === undefined) {
      throw new Error("no deposit instruction");
    }
    const forStranger = buildCreateAssociatedTokenAccountIdempotentInstruction(
      wallet,
      stranger,
      tokens.shareMint,
    );
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("deposit", [forStranger, depositInstruction]),
          deposit250,
          tokens,
        ),
      ),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "account" } });
    const assetAccount = buildCreateAssociatedTokenAccountIdempotentInstruction(wallet, wallet, assetMint);
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("initiate", [assetAccount, requestInstruction(7_000n)]),
          { operation: "initiate", vault, wallet, shares: 7_000n },
          tokens,
        ),
      ),
    ).toMatchObject({ code: "UNEXPECTED_INSTRUCTION" });
  });

  it("refuses another fee payer, a second signer, a price over the cap and lookup tables", () => {
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("deposit", depositInstructions(250_000_000n), 1_000, stranger),
          deposit250,
          tokens,
        ),
      ),
    ).toMatchObject({ code: "FEE_PAYER", context: { found: stranger.toBase58() } });
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("deposit", depositInstructions(250_000_000n, stranger)),
          deposit250,
          tokens,
        ),
      ),
    ).toMatchObject({ code: "EXTRA_SIGNER", context: { signatures: 2 } });

    const atCap = transactionOf(
      "deposit",
      depositInstructions(250_000_000n),
      DEFAULT_MAX_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS,
    );
    expect(verifyVaultTransaction(atCap, deposit250, tokens).computeUnitPriceMicroLamports).toBe(100_000);
    const over = transactionOf("deposit", depositInstructions(250_000_000n), 100_001);
    expect(refusal(() => verifyVaultTransaction(over, deposit250, tokens))).toMatchObject({
      code: "COMPUTE_PRICE_TOO_HIGH",
      context: { expected: 100_000, found: 100_001 },
    });
    expect(
      verifyVaultTransaction(over, deposit250, tokens, { maxComputeUnitPriceMicroLamports: 100_001 })
        .computeUnitPriceMicroLamports,
    ).toBe(100_001);

    const { message } = transactionOf("deposit", depositInstructions(250_000_000n));
    if (!(message instanceof MessageV0)) {
      throw new Error("not a v0 message");
    }
    const withLookup = new MessageV0({
      header: message.header,
      staticAccountKeys: message.staticAccountKeys,
      recentBlockhash: message.recentBlockhash,
      compiledInstructions: message.compiledInstructions,
      addressTableLookups: [
        { accountKey: new PublicKey(stranger), writableIndexes: [0], readonlyIndexes: [] },
      ],
    });
    expect(
      refusal(() => verifyVaultTransaction(new VersionedTransaction(withLookup), deposit250, tokens)),
    ).toMatchObject({ code: "LOOKUP_TABLES", context: { lookupTables: 1 } });
  });
});

describe("verifyVaultTransaction of a cancel", () => {
  it("passes the builder's cancel, with or without re-opening the wallet's share account", () => {
    const withAccount = verifyVaultTransaction(transactionOf("cancel", cancelInstructions()), cancel, tokens);
    expect(withAccount).toMatchObject({ operation: "cancel", args: {} });
    // The only SOL a cancel may cost beyond its fee: the share account it re-opens, and the vault's
    // queue-hole list when it is the first cancel to leave a hole.
    const holeList = rentExemptMinimum(QUEUE_HOLES_ACCOUNT_SIZE);
    expect(withAccount.maxLamportsSpent - withAccount.maxFeeLamports).toBe(
      rentExemptMinimum(TOKEN_ACCOUNT_SIZE) + holeList,
    );
    const bare = verifyVaultTransaction(transactionOf("cancel", [cancelInstruction()]), cancel, tokens);
    expect(bare.maxLamportsSpent - bare.maxFeeLamports).toBe(holeList);
  });

  it("refuses a claim for a cancel and a cancel for a claim or a request", () => {
    expect(
      refusal(() =>
        verifyVaultTransaction(transactionOf("claim", claimInstructions().slice(1)), cancel, tokens),
      ),
    ).toMatchObject({
      code: "WRONG_VAULT_INSTRUCTION",
      context: { expected: "cancel_withdrawal", found: "claim_withdrawal" },
    });
    const cancelled = transactionOf("cancel", [cancelInstruction()]);
    expect(
      refusal(() => verifyVaultTransaction(cancelled, { operation: "claim", vault, wallet }, tokens)),
    ).toMatchObject({
      code: "WRONG_VAULT_INSTRUCTION",
      context: { expected: "claim_withdrawal", found: "cancel_withdrawal" },
    });
    expect(
      refusal(() =>
        verifyVaultTransaction(cancelled, { operation: "initiate", vault, wallet, shares: 7_000n }, tokens),
      ),
    ).toMatchObject({ code: "WRONG_VAULT_INSTRUCTION", context: { found: "cancel_withdrawal" } });
  });

  it("refuses the shares sent to a stranger's account, a stranger's receipt and another vault", () => {
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("cancel", [cancelInstruction({ sharesOwner: stranger })]),
          cancel,
          tokens,
        ),
      ),
    ).toMatchObject({
      code: "WRONG_ACCOUNT",
      context: {
        account: "owner_shares",
        expected: findAssociatedTokenAddress(wallet, tokens.shareMint).toBase58(),
        found: findAssociatedTokenAddress(stranger, tokens.shareMint).toBase58(),
      },
    });
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("cancel", [cancelInstruction({ receiptOwner: stranger })]),
          cancel,
          tokens,
        ),
      ),
    ).toMatchObject({
      code: "WRONG_ACCOUNT",
      context: { account: "receipt", found: findReceipt(vault, stranger).toBase58() },
    });
    const other = Keypair.generate().publicKey;
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("cancel", [cancelInstruction({ target: other })]),
          cancel,
          tokens,
        ),
      ),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "vault", found: other.toBase58() } });
    // Another vault's hole list: the wallet would pay to create an account that is not this vault's.
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("cancel", [cancelInstruction({ queueHoles: findQueueHoles(other) })]),
          cancel,
          tokens,
        ),
      ),
    ).toMatchObject({
      code: "WRONG_ACCOUNT",
      context: { account: "queue_holes", expected: findQueueHoles(vault).toBase58() },
    });
  });

  it("refuses a cancel that opens an asset account or carries a second vault instruction", () => {
    const assetAccount = buildCreateAssociatedTokenAccountIdempotentInstruction(wallet, wallet, assetMint);
    expect(
      refusal(() =>
        verifyVaultTransaction(transactionOf("cancel", [assetAccount, cancelInstruction()]), cancel, tokens),
      ),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "account" } });
    expect(
      refusal(() =>
        verifyVaultTransaction(
          transactionOf("cancel", [cancelInstruction(), requestInstruction(7_000n)]),
          cancel,
          tokens,
        ),
      ),
    ).toMatchObject({ code: "UNEXPECTED_INSTRUCTION" });
  });

  it("takes shares coming back and refuses one share or one asset unit leaving the wallet", () => {
    const verified = verifyVaultTransaction(transactionOf("cancel", cancelInstructions()), cancel, tokens);
    const lamports = -verified.maxLamportsSpent;
    expect(() =>
      checkBalanceChanges(verified, { asset: 0n, shares: 100_000_000_000n, lamports }),
    ).not.toThrow();
    expect(refusal(() => checkBalanceChanges(verified, { asset: 0n, shares: -1n, lamports }))).toMatchObject({
      code: "SIMULATED_OUTFLOW",
      context: { balance: "shares", expected: "0", found: "-1" },
    });
    expect(
      refusal(() => checkBalanceChanges(verified, { asset: -1n, shares: 100_000_000_000n, lamports })),
    ).toMatchObject({ code: "SIMULATED_OUTFLOW", context: { balance: "asset", found: "-1" } });
    expect(
      refusal(() =>
        checkBalanceChanges(verified, { asset: 0n, shares: 100_000_000_000n, lamports: lamports - 1n }),
      ),
    ).toMatchObject({ code: "SIMULATED_OUTFLOW", context: { balance: "lamports" } });
  });
});

describe("checkBalanceChanges", () => {
  const verified = verifyVaultTransaction(
    transactionOf("deposit", depositInstructions(250_000_000n)),
    deposit250,
    tokens,
  );

  it("takes what a deposit does and refuses one more unit of the asset, of shares or of SOL", () => {
    const lamports = -verified.maxLamportsSpent;
    expect(() =>
      checkBalanceChanges(verified, { asset: -250_000_000n, shares: 249_000_000_000n, lamports }),
    ).not.toThrow();
    expect(
      refusal(() =>
        checkBalanceChanges(verified, { asset: -250_000_001n, shares: 249_000_000_000n, lamports }),
      ),
    ).toMatchObject({ code: "SIMULATED_OUTFLOW", context: { balance: "asset", found: "-250000001" } });
    expect(
      refusal(() => checkBalanceChanges(verified, { asset: -250_000_000n, shares: -1n, lamports })),
    ).toMatchObject({ code: "SIMULATED_OUTFLOW", context: { balance: "shares" } });
    expect(
      refusal(() =>
        checkBalanceChanges(verified, { asset: -250_000_000n, shares: 1n, lamports: lamports - 1n }),
      ),
    ).toMatchObject({ code: "SIMULATED_OUTFLOW", context: { balance: "lamports" } });
  });
});
