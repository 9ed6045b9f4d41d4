// The SPL token methods: account balances, supply, accounts by owner, largest accounts.
import { z } from "zod";

import type { Chain } from "../../chain";
import type { ChainAccount } from "../../chain-types";
import {
  TOKEN_ACCOUNT_MINT_OFFSET,
  TOKEN_ACCOUNT_OWNER_OFFSET,
  decodeMint,
  decodeTokenAccount,
  isTokenProgram,
} from "../../../lib/chain/spl-token";
import { uiTokenAmount } from "../../ui-token-amount";
import { tokenAccountAmount } from "../encoding";
import { invalidParams } from "../errors";
import {
  accountInfoConfig,
  commitmentConfig,
  parseParams,
  parsePubkey,
  tokenAccountsFilter,
  type ProgramAccountsFilter,
} from "../params";
import { type RpcContext, type RpcMethod, contextSlot, withContext } from "./context";
import { compileFilter, keyedAccounts } from "./accounts";

/** The account a `[address, { commitment }]` call names, and the slot it is read at. */
function namedAccount(params: unknown, context: RpcContext): { slot: bigint; account: ChainAccount } {
  const [address, config] = parseParams(z.tuple([z.string(), commitmentConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  const account = context.chain.getAccount(address);
  if (account === null) {
    throw invalidParams("Invalid param: could not find account");
  }
  return { slot, account };
}

export const getTokenAccountBalance: RpcMethod = (params, context) => {
  const { slot, account } = namedAccount(params, context);
  const amount = tokenAccountAmount(context.chain, account);
  if (amount === null) {
    throw invalidParams("Invalid param: not a Token account");
  }
  return withContext(context, slot, amount);
};

export const getTokenSupply: RpcMethod = (params, context) => {
  const { slot, account } = namedAccount(params, context);
  const mint = decodeMint(account.owner, account.data);
  if (mint === null) {
    throw invalidParams("Invalid param: not a Token mint");
  }
  return withContext(context, slot, uiTokenAmount(mint.supply, mint.decimals));
};

/** The token program and, for a mint filter, the mint, as get_token_program_id_and_mint resolves them. */
function tokenProgramAndMint(
  chain: Chain,
  filter: z.infer<typeof tokenAccountsFilter>,
): { programId: string; mint: string | null } {
  if ("mint" in filter) {
    parsePubkey(filter.mint);
    const mint = chain.getAccount(filter.mint);
    if (mint === null) {
      throw invalidParams("Invalid param: could not find mint");
    }
    if (!isTokenProgram(mint.owner)) {
      throw invalidParams("Invalid param: not a Token mint");
    }
    return { programId: mint.owner, mint: filter.mint };
  }
  parsePubkey(filter.programId);
  if (!isTokenProgram(filter.programId)) {
    throw invalidParams("Invalid param: unrecognized Token program id");
  }
  return { programId: filter.programId, mint: null };
}

function memcmpAddress(offset: number, address: string): ProgramAccountsFilter {
  return { memcmp: { offset, bytes: address, encoding: "base58" } };
}

export const getTokenAccountsByOwner: RpcMethod = (params, context) => {
  const [owner, filter, config] = parseParams(
    z.tuple([z.string(), tokenAccountsFilter, accountInfoConfig]),
    params,
  );
  parsePubkey(owner);
  const { programId, mint } = tokenProgramAndMint(context.chain, filter);
  const filters: ProgramAccountsFilter[] = [
    "tokenAccountState",
    memcmpAddress(TOKEN_ACCOUNT_OWNER_OFFSET, owner),
  ];
  if (mint !== null) {
    filters.push(memcmpAddress(TOKEN_ACCOUNT_MINT_OFFSET, mint));
  }
  const slot = contextSlot(context.chain, config);
  return withContext(
    context,
    slot,
    keyedAccounts(
      context.chain,
      programId,
      filters.map(compileFilter),
      config?.encoding ?? "binary",
      config?.dataSlice,
    ),
  );
};

export const getTokenLargestAccounts: RpcMethod = (params, context) => {
  const [address, config] = parseParams(z.tuple([z.string(), commitmentConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  const account = context.chain.getAccount(address);
  const mint = account === null ? null : decodeMint(account.owner, account.data);
  if (account === null || mint === null) {
    throw invalidParams("Invalid param: not a Token mint");
  }
  const holders = context.chain
    .getProgramAccounts(account.owner)
    .flatMap(({ address: holder, account: candidate }) => {
      const token = decodeTokenAccount(candidate.owner, candidate.data);
      return token !== null && token.mint.toBase58() === address
        ? [{ address: holder, amount: token.amount }]
        : [];
    })
    .sort((left, right) => (left.amount === right.amount ? 0 : left.amount > right.amount ? -1 : 1))
    .slice(0, 20);
  return withContext(
    context,
    slot,
    holders.map((holder) => ({ address: holder.address, ...uiTokenAmount(holder.amount, mint.decimals) })),
  );
};
