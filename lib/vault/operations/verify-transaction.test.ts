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
  findAssociatedTokenAddressAndBump,
} from "../../chain/spl-token";
import {
  findEscrow,
  findQueueHoles,
  findReceipt,
  findReserve,
  findShareMint,
  findVaultAuthority,
} from "../program/addresses";
import { QUEUE_HOLES_ACCOUNT_SIZE, WITHDRAWAL_RECEIPT_ACCOUNT_SIZE } from "../program/idl";
import {
  buildCancelWithdrawalInstruction,
  buildClaimWithdrawalInstruction,
  buildDepositInstruction,
  buildDepositWithPartnerFeeInstruction,
  buildRequestWithdrawalInstruction,
  buildUpdateNavInstruction,
} from "../program/instructions";
import { lessBasisPointsRoundDown } from "../model/share-math";
import { buildUnsignedTransaction } from "./transaction";
import type { OperationAction } from "./operation";
import { operationOf } from "./operations";
import { rentExemptMinimum } from "../model/vault-state";
import {
  DEFAULT_MAX_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS,
  TransactionCheckError,
  DEFAULT_MAX_SLIPPAGE_BPS,
  checkBalanceChanges,
  verifyVaultTransaction,
  type BuildAnswer,
  type CheckOptions,
  type ExpectedVaultTransaction,
  type VaultTokens,
} from "./verify-transaction";

const wallet = Keypair.generate().publicKey;
const stranger = Keypair.generate().publicKey;
const vault = Keypair.generate().publicKey;
const assetMint = Keypair.generate().publicKey;
const protocol = Keypair.generate().publicKey;
const partner = Keypair.generate().publicKey;
const tokens: VaultTokens = {
  vault,
  assetMint,
  assetDecimals: 6,
  shareMint: findShareMint(vault),
  shareDecimals: 9,
  feeBps: 10,
  protocol,
};
const blockhash = {
  blockhash: Keypair.generate().publicKey.toBase58(),
  lastValidBlockHeight: 1_000,
  expiresAtMs: 0,
  fetchedAtMs: 0,
};

/** What the deposit builds below showed (details.estimatedSharesReceived), and their guard at 50 bps less. */
const ESTIMATED_SHARES = 250_000_000_000n;
const HONEST_MIN_SHARES_OUT = lessBasisPointsRoundDown(ESTIMATED_SHARES, DEFAULT_MAX_SLIPPAGE_BPS);
const shown = (estimate: bigint): BuildAnswer => ({
  details: { estimatedSharesReceived: { amount: estimate.toString(), decimals: 9 } },
});

/** The check with the build's answer beside the transaction (its preview: what a deposit's guard is held to). */
function verify(
  transaction: VersionedTransaction,
  expected: ExpectedVaultTransaction,
  vaultTokens: VaultTokens,
  options: CheckOptions = {},
  built: BuildAnswer = shown(ESTIMATED_SHARES),
) {
  return verifyVaultTransaction(transaction, expected, vaultTokens, options, built);
}

function transactionOf(
  action: OperationAction,
  instructions: TransactionInstruction[],
  price = 1_000,
  payer = wallet,
): VersionedTransaction {
  const built = buildUnsignedTransaction(payer, operationOf(action), instructions, blockhash, price);
  return VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
}

function depositInstructions(
  amount: bigint,
  owner = wallet,
  target = vault,
  minSharesOut = HONEST_MIN_SHARES_OUT,
): TransactionInstruction[] {
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
      { amount, minSharesOut },
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
    shareMint: tokens.shareMint,
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
    const deposit = verify(transactionOf("deposit", depositInstructions(250_000_000n)), deposit250, tokens);
    expect(deposit).toMatchObject({
      operation: "deposit",
      args: { amount: "250000000", min_shares_out: "248750000000" },
      computeUnitPriceMicroLamports: 1_000,
    });
    // 5,000 per signature plus limit × price, rounded up; plus the share account's rent.
    const priority = (BigInt(deposit.computeUnitLimit) * 1_000n + 999_999n) / 1_000_000n;
    expect(deposit.maxFeeLamports).toBe(5_000n + priority);
    expect(deposit.maxLamportsSpent).toBe(5_000n + priority + rentExemptMinimum(TOKEN_ACCOUNT_SIZE));

    const request = verify(
      transactionOf("initiate", [requestInstruction(7_000n)]),
      { operation: "initiate", vault, wallet, shares: 7_000n },
      tokens,
    );
    expect(request.args).toMatchObject({ shares: "7000" });
    expect(request.maxLamportsSpent - request.maxFeeLamports).toBe(
      rentExemptMinimum(WITHDRAWAL_RECEIPT_ACCOUNT_SIZE),
    );

    const claim = verify(
      transactionOf("claim", claimInstructions()),
      { operation: "claim", vault, wallet },
      tokens,
    );
    expect(claim.args).toEqual({});
  });

  it("reads a human deposit amount with the asset's decimals from the chain", () => {
    const transaction = transactionOf("deposit", depositInstructions(250_500_000n));
    const expected = { ...deposit250, amount: { ui: 250.5 } };
    expect(verify(transaction, expected, tokens).args.amount).toBe("250500000");
    expect(
      refusal(() => verify(transaction, { ...deposit250, amount: { ui: 250.4 } }, tokens)),
    ).toMatchObject({ code: "WRONG_AMOUNT", context: { expected: "250400000", found: "250500000" } });
    expect(
      refusal(() => verify(transaction, { ...deposit250, amount: { ui: 1.0000001 } }, tokens)),
    ).toMatchObject({ code: "INVALID_AMOUNT" });
  });

  it("refuses another operation, another vault's accounts, a stranger's receipt and a second vault instruction", () => {
    const request = transactionOf("initiate", [requestInstruction(7_000n)]);
    expect(refusal(() => verify(request, deposit250, tokens))).toMatchObject({
      code: "WRONG_VAULT_INSTRUCTION",
      context: { expected: "deposit", found: "request_withdrawal" },
    });
    const other = Keypair.generate().publicKey;
    expect(
      refusal(() =>
        verify(
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
        verify(
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
        verify(
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
    expect(refusal(() => verify(transactionOf("deposit", [nav]), deposit250, tokens))).toMatchObject({
      code: "WRONG_VAULT_INSTRUCTION",
      context: { found: "update_nav" },
    });
  });

  // A gateway that lets the request accept 10% where the vault charges 0.10% lets a fee raised just
  // before the request apply to it (issue 21's attack, here from the gateway's side).
  it("refuses a request that accepts a higher fee than the vault charges", () => {
    const expected = { operation: "initiate" as const, vault, wallet, shares: 7_000n };
    expect(
      verify(transactionOf("initiate", [requestInstruction(7_000n)]), expected, tokens).args.max_fee_bps,
    ).toBe("10");
    expect(
      refusal(() =>
        verify(transactionOf("initiate", [requestInstruction(7_000n, wallet, 1_000)]), expected, tokens),
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
      refusal(() => verify(transactionOf("deposit", [forStranger, depositInstruction]), deposit250, tokens)),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "account" } });
    const assetAccount = buildCreateAssociatedTokenAccountIdempotentInstruction(wallet, wallet, assetMint);
    expect(
      refusal(() =>
        verify(
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
        verify(
          transactionOf("deposit", depositInstructions(250_000_000n), 1_000, stranger),
          deposit250,
          tokens,
        ),
      ),
    ).toMatchObject({ code: "FEE_PAYER", context: { found: stranger.toBase58() } });
    expect(
      refusal(() =>
        verify(transactionOf("deposit", depositInstructions(250_000_000n, stranger)), deposit250, tokens),
      ),
    ).toMatchObject({ code: "EXTRA_SIGNER", context: { signatures: 2 } });

    const atCap = transactionOf(
      "deposit",
      depositInstructions(250_000_000n),
      DEFAULT_MAX_COMPUTE_UNIT_PRICE_MICRO_LAMPORTS,
    );
    expect(verify(atCap, deposit250, tokens).computeUnitPriceMicroLamports).toBe(100_000);
    const over = transactionOf("deposit", depositInstructions(250_000_000n), 100_001);
    expect(refusal(() => verify(over, deposit250, tokens))).toMatchObject({
      code: "COMPUTE_PRICE_TOO_HIGH",
      context: { expected: 100_000, found: 100_001 },
    });
    expect(
      verify(over, deposit250, tokens, { maxComputeUnitPriceMicroLamports: 100_001 })
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
    expect(refusal(() => verify(new VersionedTransaction(withLookup), deposit250, tokens))).toMatchObject({
      code: "LOOKUP_TABLES",
      context: { lookupTables: 1 },
    });
  });
});

describe("a deposit's guard, min_shares_out, against the build's preview", () => {
  const depositWithMin = (minSharesOut: bigint) =>
    transactionOf("deposit", depositInstructions(250_000_000n, wallet, vault, minSharesOut));

  it("passes the honest guard: the preview less the default 50 bps, exactly", () => {
    expect(HONEST_MIN_SHARES_OUT).toBe(248_750_000_000n);
    expect(verify(depositWithMin(HONEST_MIN_SHARES_OUT), deposit250, tokens)).toMatchObject({
      estimatedShares: ESTIMATED_SHARES,
      maxSlippageBps: 50,
    });
  });

  it("refuses a guard dropped to 0, or one share below the bound, naming the numbers", () => {
    expect(refusal(() => verify(depositWithMin(0n), deposit250, tokens))).toMatchObject({
      code: "MIN_SHARES_OUT_TOO_LOW",
      message:
        "The deposit accepts as few as 0 shares; the build showed 250000000000, so at least 248750000000 (50 bps less) is expected",
      context: { estimated: "250000000000", expected: "248750000000", found: "0", maxSlippageBps: 50 },
    });
    expect(
      refusal(() => verify(depositWithMin(HONEST_MIN_SHARES_OUT - 1n), deposit250, tokens)),
    ).toMatchObject({
      code: "MIN_SHARES_OUT_TOO_LOW",
      context: { expected: "248750000000", found: "248749999999" },
    });
  });

  it("holds the guard to the caller's slippage", () => {
    const looser = depositWithMin(HONEST_MIN_SHARES_OUT - 1n);
    expect(verify(looser, deposit250, tokens, { maxSlippageBps: 51 }).maxSlippageBps).toBe(51);
    expect(
      refusal(() => verify(depositWithMin(249_999_999_999n), deposit250, tokens, { maxSlippageBps: 0 })),
    ).toMatchObject({ code: "MIN_SHARES_OUT_TOO_LOW", context: { expected: "250000000000" } });
    for (const maxSlippageBps of [-1, 10_001, 0.5, Number.NaN]) {
      expect(() => verify(looser, deposit250, tokens, { maxSlippageBps })).toThrow(RangeError);
    }
  });

  it("refuses a deposit whose build shows no estimate to hold the guard to", () => {
    const honest = depositWithMin(HONEST_MIN_SHARES_OUT);
    for (const built of [{}, { details: {} }, { details: { estimatedSharesReceived: { amount: "-1" } } }]) {
      expect(refusal(() => verify(honest, deposit250, tokens, {}, built))).toMatchObject({
        code: "MISSING_SHARE_ESTIMATE",
      });
    }
  });

  it("refuses a preview the simulation mints more than the slippage above (a lowered estimate)", () => {
    // The gateway lowered its estimate with the guard: 0 shown, 0 guarded, the check above passes.
    const lowered = verify(depositWithMin(0n), deposit250, tokens, {}, shown(0n));
    const lamports = -lowered.maxLamportsSpent;
    expect(
      refusal(() =>
        checkBalanceChanges(lowered, { asset: -250_000_000n, shares: ESTIMATED_SHARES, lamports }),
      ),
    ).toMatchObject({
      code: "ESTIMATE_BELOW_SIMULATION",
      context: { estimated: "0", found: "250000000000", maxSlippageBps: 50 },
    });
    // An honest preview: the simulation may mint up to the slippage more (the share price fell meanwhile).
    const honest = verify(depositWithMin(HONEST_MIN_SHARES_OUT), deposit250, tokens);
    const changes = (shares: bigint) => ({ asset: -250_000_000n, shares, lamports });
    expect(() => checkBalanceChanges(honest, changes(251_256_281_408n))).not.toThrow();
    expect(refusal(() => checkBalanceChanges(honest, changes(251_256_281_409n)))).toMatchObject({
      code: "ESTIMATE_BELOW_SIMULATION",
    });
  });
});

describe("verifyVaultTransaction of a cancel", () => {
  it("passes the builder's cancel, with or without re-opening the wallet's share account", () => {
    const withAccount = verify(transactionOf("cancel", cancelInstructions()), cancel, tokens);
    expect(withAccount).toMatchObject({ operation: "cancel", args: {} });
    // The only SOL a cancel may cost beyond its fee: the share account it re-opens, and the vault's
    // queue-hole list when it is the first cancel to leave a hole.
    const holeList = rentExemptMinimum(QUEUE_HOLES_ACCOUNT_SIZE);
    expect(withAccount.maxLamportsSpent - withAccount.maxFeeLamports).toBe(
      rentExemptMinimum(TOKEN_ACCOUNT_SIZE) + holeList,
    );
    const bare = verify(transactionOf("cancel", [cancelInstruction()]), cancel, tokens);
    expect(bare.maxLamportsSpent - bare.maxFeeLamports).toBe(holeList);
  });

  it("refuses a claim for a cancel and a cancel for a claim or a request", () => {
    expect(
      refusal(() => verify(transactionOf("claim", claimInstructions().slice(1)), cancel, tokens)),
    ).toMatchObject({
      code: "WRONG_VAULT_INSTRUCTION",
      context: { expected: "cancel_withdrawal", found: "claim_withdrawal" },
    });
    const cancelled = transactionOf("cancel", [cancelInstruction()]);
    expect(refusal(() => verify(cancelled, { operation: "claim", vault, wallet }, tokens))).toMatchObject({
      code: "WRONG_VAULT_INSTRUCTION",
      context: { expected: "claim_withdrawal", found: "cancel_withdrawal" },
    });
    expect(
      refusal(() => verify(cancelled, { operation: "initiate", vault, wallet, shares: 7_000n }, tokens)),
    ).toMatchObject({ code: "WRONG_VAULT_INSTRUCTION", context: { found: "cancel_withdrawal" } });
  });

  it("refuses the shares sent to a stranger's account, a stranger's receipt and another vault", () => {
    expect(
      refusal(() =>
        verify(transactionOf("cancel", [cancelInstruction({ sharesOwner: stranger })]), cancel, tokens),
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
        verify(transactionOf("cancel", [cancelInstruction({ receiptOwner: stranger })]), cancel, tokens),
      ),
    ).toMatchObject({
      code: "WRONG_ACCOUNT",
      context: { account: "receipt", found: findReceipt(vault, stranger).toBase58() },
    });
    const other = Keypair.generate().publicKey;
    expect(
      refusal(() => verify(transactionOf("cancel", [cancelInstruction({ target: other })]), cancel, tokens)),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "vault", found: other.toBase58() } });
    // Another vault's hole list: the wallet would pay to create an account that is not this vault's.
    expect(
      refusal(() =>
        verify(
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
      refusal(() => verify(transactionOf("cancel", [assetAccount, cancelInstruction()]), cancel, tokens)),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "account" } });
    expect(
      refusal(() =>
        verify(transactionOf("cancel", [cancelInstruction(), requestInstruction(7_000n)]), cancel, tokens),
      ),
    ).toMatchObject({ code: "UNEXPECTED_INSTRUCTION" });
  });

  it("takes shares coming back and refuses one share or one asset unit leaving the wallet", () => {
    const verified = verify(transactionOf("cancel", cancelInstructions()), cancel, tokens);
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
  const verified = verify(transactionOf("deposit", depositInstructions(250_000_000n)), deposit250, tokens);

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

describe("a deposit that pays a partner fee (deposit_with_partner_fee)", () => {
  /** What the API builds for a partner's key: 25 bps to the partner's asset account. */
  function partnerDeposit(
    change: {
      feeBps?: number;
      partner?: PublicKey;
      partnerAsset?: PublicKey;
      partnerAssetBump?: number;
      protocol?: PublicKey;
    } = {},
  ): VersionedTransaction {
    const shareMint = findShareMint(vault);
    const paid = change.partner ?? partner;
    const canonical = findAssociatedTokenAddressAndBump(paid, assetMint);
    return transactionOf("deposit", [
      buildCreateAssociatedTokenAccountIdempotentInstruction(wallet, wallet, shareMint),
      buildDepositWithPartnerFeeInstruction(
        {
          depositor: wallet,
          vault,
          authority: findVaultAuthority(vault),
          shareMint,
          reserve: findReserve(vault),
          depositorAsset: findAssociatedTokenAddress(wallet, assetMint),
          depositorShares: findAssociatedTokenAddress(wallet, shareMint),
          protocol: change.protocol ?? protocol,
          partner: paid,
          partnerAsset: change.partnerAsset ?? canonical.address,
        },
        {
          amount: 250_000_000n,
          minSharesOut: HONEST_MIN_SHARES_OUT,
          partnerFeeBps: change.feeBps ?? 25,
          partnerAssetBump: change.partnerAssetBump ?? canonical.bump,
        },
      ),
    ]);
  }

  /** The build's answer: its preview and the partner fee it names. */
  const named = (feeBps = 25, wallet_ = partner): BuildAnswer => ({
    details: {
      estimatedSharesReceived: { amount: ESTIMATED_SHARES.toString(), decimals: 9 },
      partnerFee: { partner: wallet_.toBase58(), feeBps },
    },
  });

  it("passes the fee the build showed, paid to the named partner, within the caller's maximum", () => {
    const verified = verify(partnerDeposit(), deposit250, tokens, { maxPartnerFeeBps: 25 }, named());
    expect(verified.partnerFee).toEqual({
      partner,
      partnerAsset: findAssociatedTokenAddress(partner, assetMint),
      feeBps: 25,
    });
    expect(verified.args).toMatchObject({
      amount: "250000000",
      partner_fee_bps: "25",
      partner_asset_bump: String(findAssociatedTokenAddressAndBump(partner, assetMint).bump),
    });
    // A plain deposit pays none.
    expect(
      verify(transactionOf("deposit", depositInstructions(250_000_000n)), deposit250, tokens).partnerFee,
    ).toBeNull();
  });

  it("refuses any partner fee by default (maxPartnerFeeBps 0), and one bps above the caller's maximum", () => {
    expect(refusal(() => verify(partnerDeposit(), deposit250, tokens, {}, named()))).toMatchObject({
      code: "PARTNER_FEE_TOO_HIGH",
      context: { expected: 0, found: "25" },
    });
    // A lying gateway raising 25 to 26 bps, and saying so in its preview too.
    expect(
      refusal(() =>
        verify(partnerDeposit({ feeBps: 26 }), deposit250, tokens, { maxPartnerFeeBps: 25 }, named(26)),
      ),
    ).toMatchObject({ code: "PARTNER_FEE_TOO_HIGH", context: { expected: 25, found: "26" } });
  });

  it("refuses a fee other than the one the build showed, or a build that names no partner", () => {
    expect(
      refusal(() =>
        verify(partnerDeposit({ feeBps: 26 }), deposit250, tokens, { maxPartnerFeeBps: 100 }, named(25)),
      ),
    ).toMatchObject({ code: "PARTNER_FEE_NOT_SHOWN", context: { expected: 25, found: 26 } });
    expect(
      refusal(() =>
        verify(partnerDeposit(), deposit250, tokens, { maxPartnerFeeBps: 100 }, shown(ESTIMATED_SHARES)),
      ),
    ).toMatchObject({ code: "PARTNER_FEE_NOT_SHOWN", context: { expected: null, found: 25 } });
  });

  it("refuses the fee redirected: to a stranger's account, to a stranger, or under another protocol", () => {
    const options = { maxPartnerFeeBps: 25 };
    expect(
      refusal(() =>
        verify(
          partnerDeposit({ partnerAsset: findAssociatedTokenAddress(stranger, assetMint) }),
          deposit250,
          tokens,
          options,
          named(),
        ),
      ),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "partner_asset" } });
    expect(
      refusal(() => verify(partnerDeposit({ partner: stranger }), deposit250, tokens, options, named())),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "partner", found: stranger.toBase58() } });
    expect(
      refusal(() => verify(partnerDeposit({ protocol: stranger }), deposit250, tokens, options, named())),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "protocol" } });
    // The partner's own account of another mint (its share account, say) is not its asset account.
    expect(
      refusal(() =>
        verify(
          partnerDeposit({ partnerAsset: findAssociatedTokenAddress(partner, tokens.shareMint) }),
          deposit250,
          tokens,
          options,
          named(),
        ),
      ),
    ).toMatchObject({ code: "WRONG_ACCOUNT", context: { account: "partner_asset" } });
  });

  it("refuses a partner_asset_bump other than the canonical bump of the named partner's asset account", () => {
    const options = { maxPartnerFeeBps: 25 };
    const canonical = findAssociatedTokenAddressAndBump(partner, assetMint).bump;
    // Another wallet's asset account whose bump is not the partner's: its bump passed with the
    // partner's account.
    let other = Keypair.generate().publicKey;
    while (findAssociatedTokenAddressAndBump(other, assetMint).bump === canonical) {
      other = Keypair.generate().publicKey;
    }
    const othersBump = findAssociatedTokenAddressAndBump(other, assetMint).bump;
    // One below the canonical bump (non-canonical: an address of its own, or none), one above it
    // (255 when the canonical is lower; an off-by-one when it is 255), 0, and the other wallet's.
    const bumps = [canonical - 1, canonical === 255 ? 0 : canonical + 1, 0, othersBump];
    for (const bump of new Set(bumps)) {
      expect(
        refusal(() =>
          verify(partnerDeposit({ partnerAssetBump: bump }), deposit250, tokens, options, named()),
        ),
      ).toMatchObject({
        code: "WRONG_ACCOUNT",
        context: {
          account: "partner_asset",
          argument: "partner_asset_bump",
          expected: canonical,
          found: bump,
        },
      });
    }
    expect(
      verify(partnerDeposit({ partnerAssetBump: canonical }), deposit250, tokens, options, named()).args,
    ).toMatchObject({ partner_asset_bump: String(canonical) });
  });

  it("refuses, with the caller's partner pinned (an embed's), a build that names and pays another partner", () => {
    // A lying gateway rewrites both the name in its answer and the accounts: consistent, within the
    // maximum, and still not the partner the page showed.
    const pinned = { maxPartnerFeeBps: 25, partner };
    expect(
      refusal(() =>
        verify(partnerDeposit({ partner: stranger }), deposit250, tokens, pinned, named(25, stranger)),
      ),
    ).toMatchObject({
      code: "WRONG_ACCOUNT",
      context: { account: "partner", expected: partner.toBase58(), found: stranger.toBase58() },
    });
    expect(verify(partnerDeposit(), deposit250, tokens, pinned, named()).partnerFee?.partner).toEqual(
      partner,
    );
  });

  it("refuses a partner fee's deposit where a cancel was asked for", () => {
    expect(
      refusal(() =>
        verify(partnerDeposit(), { operation: "cancel", vault, wallet }, tokens, {
          maxPartnerFeeBps: 25,
        }),
      ),
    ).toMatchObject({ code: "WRONG_VAULT_INSTRUCTION", context: { found: "deposit_with_partner_fee" } });
  });

  it("refuses a caller's maximum that is not a whole number of bps", () => {
    expect(() => verify(partnerDeposit(), deposit250, tokens, { maxPartnerFeeBps: 1.5 }, named())).toThrow(
      RangeError,
    );
  });
});
