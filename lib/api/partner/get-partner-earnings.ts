// GET /api/partner/earnings?from=&to=&vault_id=&format=json|csv — what the key's partner earned from
// the deposits that paid its fee (read scope, a partner's key only): deposits, fees paid, depositors,
// the shares minted and their value now, per vault and per UTC day. Read from the indexed
// PartnerFeePaid events (the chain's record of each fee), so the figures match the chain.
import { base58Of } from "../../chain/base58";
import { assetsForSharesRoundDown } from "../../vault/model/share-math";
import { formatHuman, formatUnits, tokenAmount, type TokenInfo } from "../../vault/model/token-amount";
import { partnerEarnings, type PartnerEarningsRow } from "../../store/partner-earnings";
import { partnerEndpoint } from "../endpoint";
import { ApiError } from "../errors";
import {
  PARTNER_EARNINGS_CSV_COLUMNS,
  partnerEarningsCsv,
  partnerEarningsQuery,
  partnerEarningsResponse,
} from "../schemas/partner";
import { TextBody } from "../text-body";
import { indexedVault, indexedVaults, type IndexedVault } from "../vaults/indexed-reads";

/** The attributed shares' value at the vault's share price now (rounded down, as a redemption is). */
function valueNowOf(row: PartnerEarningsRow, vault: IndexedVault): bigint {
  const { totalAssets, totalShares } = vault.vault.state;
  return assetsForSharesRoundDown(row.shares, totalAssets, totalShares);
}

function figures(row: PartnerEarningsRow, vault: IndexedVault) {
  const { asset, shares } = vault.vault;
  const valueNow = valueNowOf(row, vault);
  return {
    deposits: row.deposits,
    depositedAmount: tokenAmount(asset, row.assets),
    depositedAmountHuman: formatHuman(row.assets, asset),
    feesPaid: tokenAmount(asset, row.fees),
    feesPaidHuman: formatHuman(row.fees, asset),
    holders: row.holders,
    attributedShares: tokenAmount(shares, row.shares),
    attributedValueNow: tokenAmount(asset, valueNow),
    attributedValueNowHuman: formatHuman(valueNow, asset),
  };
}

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvRow(row: PartnerEarningsRow, vault: IndexedVault, asset: TokenInfo): string {
  const valueNow = valueNowOf(row, vault);
  return [
    row.day ?? "",
    row.vault,
    vault.vault.state.name,
    asset.symbol,
    row.deposits,
    row.assets.toString(),
    formatUnits(row.assets, asset.decimals),
    row.fees.toString(),
    formatUnits(row.fees, asset.decimals),
    row.holders,
    row.shares.toString(),
    valueNow.toString(),
    formatUnits(valueNow, asset.decimals),
  ]
    .map(csvField)
    .join(",");
}

export const getPartnerEarnings = partnerEndpoint({
  operationId: "getPartnerEarnings",
  method: "GET",
  path: "/api/partner/earnings",
  summary: "What the key's partner earned from deposits that paid its fee, per vault and per day",
  scope: "read",
  input: { from: "query", schema: partnerEarningsQuery },
  response: partnerEarningsResponse,
  alternateContent: { contentType: "text/csv", schema: partnerEarningsCsv },
  statuses: [404],
  names: "vault",
  target: (input) => ({ vault: input.vault_id ?? null, wallet: null }),
  sample: ({ vault }) => ({ path: `/api/partner/earnings?vault_id=${vault}` }),
  handler: async ({ input, principal, context }) => {
    const partner = principal.partner ?? null;
    if (partner === null) {
      throw new ApiError(
        "FORBIDDEN",
        "This API key carries no partner; partner earnings are read with a partner's key (keys create --partner-wallet)",
      );
    }
    if (input.vault_id !== undefined) {
      // A vault named must be one the deployment serves: 404 for any other, as every vault read answers.
      await indexedVault(context, input.vault_id);
    }
    const toMs = input.to ?? context.deps.now();
    const [rows, vaults] = await Promise.all([
      partnerEarnings(context.store, {
        partner: partner.wallet,
        vault: input.vault_id === undefined ? null : base58Of(input.vault_id),
        fromMs: input.from ?? null,
        toMs,
      }),
      indexedVaults(context),
    ]);
    const byAddress = new Map(vaults.map((vault) => [vault.row.vault, vault]));
    // Only the deployment's vaults are served (an event of a vault it no longer indexes is left out).
    const served = rows.flatMap((row) => {
      const vault = byAddress.get(row.vault);
      return vault === undefined ? [] : [{ row, vault }];
    });
    if (input.format === "csv") {
      const lines = served
        .filter(({ row }) => row.day !== null)
        .map(({ row, vault }) => csvRow(row, vault, vault.vault.asset));
      return new TextBody(
        "text/csv; charset=utf-8",
        `${[PARTNER_EARNINGS_CSV_COLUMNS.join(","), ...lines].join("\r\n")}\r\n`,
      );
    }
    return {
      partner: partner.wallet,
      feeBps: partner.feeBps,
      from: input.from === undefined ? null : new Date(input.from).toISOString(),
      to: new Date(toMs).toISOString(),
      vaults: served
        .filter(({ row }) => row.day === null)
        .map(({ row, vault }) => ({
          vaultId: row.vault,
          vaultName: vault.vault.state.name,
          ...figures(row, vault),
          days: served
            .filter((day) => day.row.vault === row.vault && day.row.day !== null)
            .map((day) => ({ date: day.row.day ?? "", ...figures(day.row, vault) })),
        })),
    };
  },
});
