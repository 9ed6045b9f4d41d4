// The account methods: balances, account info (single and multiple), program accounts and their filters.
import bs58 from "bs58";
import { z } from "zod";

import type { Chain } from "../../chain";
import type { ChainAccount } from "../../chain-types";
import { decodeTokenAccount } from "../../../lib/chain/spl-token";
import { encodeAccount, type UiAccount } from "../encoding";
import { invalidParams } from "../errors";
import {
  accountInfoConfig,
  contextConfig,
  parseParams,
  parsePubkey,
  programAccountsConfig,
  type AccountEncoding,
  type DataSlice,
  type ProgramAccountsFilter,
} from "../params";
import { type RpcMethod, contextSlot, encodeOrNull, withContext } from "./context";

const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_PROGRAM_ACCOUNT_FILTERS = 4;
const MAX_MEMCMP_BYTES = 128;
const MAX_MEMCMP_BASE58 = 175;

export const getBalance: RpcMethod = (params, context) => {
  const [address, config] = parseParams(z.tuple([z.string(), contextConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  return withContext(context, slot, context.chain.getAccount(address)?.lamports ?? 0n);
};

export const getAccountInfo: RpcMethod = (params, context) => {
  const [address, config] = parseParams(z.tuple([z.string(), accountInfoConfig]), params);
  parsePubkey(address);
  const slot = contextSlot(context.chain, config);
  const account = context.chain.getAccount(address);
  return withContext(
    context,
    slot,
    encodeOrNull(context.chain, account, config?.encoding ?? "binary", config?.dataSlice),
  );
};

export const getMultipleAccounts: RpcMethod = (params, context) => {
  const [addresses, config] = parseParams(z.tuple([z.array(z.string()), accountInfoConfig]), params);
  if (addresses.length > MAX_MULTIPLE_ACCOUNTS) {
    throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
  }
  addresses.forEach(parsePubkey);
  const slot = contextSlot(context.chain, config);
  const encoding = config?.encoding ?? "base64";
  return withContext(
    context,
    slot,
    addresses.map((address) =>
      encodeOrNull(context.chain, context.chain.getAccount(address), encoding, config?.dataSlice),
    ),
  );
};

interface CompiledFilter {
  matches(account: ChainAccount): boolean;
}

export function compileFilter(filter: ProgramAccountsFilter): CompiledFilter {
  if (filter === "tokenAccountState") {
    return { matches: (account) => decodeTokenAccount(account.owner, account.data) !== null };
  }
  if ("dataSize" in filter) {
    return { matches: (account) => account.data.length === filter.dataSize };
  }
  const { offset, bytes: text, encoding } = filter.memcmp;
  let bytes: Uint8Array;
  if (encoding === "base64") {
    bytes = new Uint8Array(Buffer.from(text, "base64"));
  } else {
    if (text.length > MAX_MEMCMP_BASE58) {
      throw invalidParams("Invalid param: DataTooLarge");
    }
    try {
      bytes = bs58.decode(text);
    } catch {
      throw invalidParams("Invalid param: Base58DecodeError(InvalidCharacter)");
    }
  }
  if (bytes.length > MAX_MEMCMP_BYTES) {
    throw invalidParams("Invalid param: DataTooLarge");
  }
  return {
    matches: (account) =>
      offset + bytes.length <= account.data.length &&
      bytes.every((byte, index) => account.data[offset + index] === byte),
  };
}

function compileFilters(filters: ProgramAccountsFilter[] | null | undefined): CompiledFilter[] {
  const list = filters ?? [];
  if (list.length > MAX_PROGRAM_ACCOUNT_FILTERS) {
    throw invalidParams(`Too many filters provided; max ${MAX_PROGRAM_ACCOUNT_FILTERS}`);
  }
  return list.map(compileFilter);
}

export function keyedAccounts(
  chain: Chain,
  owner: string,
  filters: CompiledFilter[],
  encoding: AccountEncoding,
  slice: DataSlice | null | undefined,
): { pubkey: string; account: UiAccount }[] {
  return chain
    .getProgramAccounts(owner)
    .filter(({ account }) => filters.every((filter) => filter.matches(account)))
    .map(({ address, account }) => ({
      pubkey: address,
      account: encodeAccount(chain, account, encoding, slice),
    }));
}

export const getProgramAccounts: RpcMethod = (params, context) => {
  const [programId, config] = parseParams(z.tuple([z.string(), programAccountsConfig]), params);
  parsePubkey(programId);
  const filters = compileFilters(config?.filters);
  const slot = contextSlot(context.chain, config);
  const accounts = keyedAccounts(
    context.chain,
    programId,
    filters,
    config?.encoding ?? "binary",
    config?.dataSlice,
  );
  return config?.withContext === true ? withContext(context, slot, accounts) : accounts;
};
