// What the embedded vault page tells the partner page around its iframe, with window.postMessage: its
// height (so the iframe fits its content on every screen), each confirmed transaction, and the moment a
// pending withdrawal becomes claimable. Only public facts travel: the vault, the kind, the signature.

export const EMBED_MESSAGE_SOURCE = "vault-gateway";

export type EmbedTransactionKind = "deposit" | "withdraw" | "claim" | "cancel";

export type EmbedMessage =
  | { source: typeof EMBED_MESSAGE_SOURCE; type: "resize"; height: number }
  | {
      source: typeof EMBED_MESSAGE_SOURCE;
      type: "transaction";
      kind: EmbedTransactionKind;
      vault: string;
      signature: string;
    }
  | { source: typeof EMBED_MESSAGE_SOURCE; type: "claimable"; vault: string };

/** The mutation key of the vault pages' transactions, which the embed reads its events from. */
export function transactionMutationKey(kind: EmbedTransactionKind, vault: string) {
  return ["vault-transaction", kind, vault] as const;
}

/** The kind and vault of a vault transaction's mutation key; null for any other mutation. */
export function transactionOfKey(key: readonly unknown[] | undefined): {
  kind: EmbedTransactionKind;
  vault: string;
} | null {
  const [tag, kind, vault] = key ?? [];
  if (tag !== "vault-transaction" || typeof vault !== "string") {
    return null;
  }
  return kind === "deposit" || kind === "withdraw" || kind === "claim" || kind === "cancel"
    ? { kind, vault }
    : null;
}
