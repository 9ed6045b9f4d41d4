// GET /api/history pages: newest first, `limit` per page, `nextCursor` until the last page; a cursor
// that this endpoint did not return is refused with 400.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { dataOf, startApiHarness, USDC, type ApiHarness } from "./harness";

let harness: ApiHarness;
let key: string;
let wallet: string;
const recorded: string[] = [];

beforeAll(async () => {
  harness = await startApiHarness();
  key = (await harness.createKey({ scope: "write" })).secret;
  const owner = await harness.fundedWallet(10n * USDC);
  wallet = owner.publicKey.toBase58();
  for (let index = 0; index < 3; index += 1) {
    const built = dataOf(
      await harness.request("POST", `/api/vault/${harness.vaultId}/deposit`, {
        key,
        body: { wallet, amount: (1n * USDC + BigInt(index)).toString() },
      }),
    );
    const signature = await harness.signAndSend(String(built.transaction), owner);
    dataOf(
      await harness.request("POST", "/api/history", {
        key,
        body: { wallet, vault_id: harness.vaultId, signature },
      }),
    );
    recorded.push(signature);
  }
});

afterAll(async () => {
  await harness?.close();
});

describe("GET /api/history pages", () => {
  it("walks the feed newest first, two at a time, without repeating or skipping", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `wallet=${wallet}&vault_id=${harness.vaultId}&limit=2${cursor === null ? "" : `&cursor=${cursor}`}`;
      const page = dataOf(await harness.request("GET", `/api/history?${query}`, { key })) as {
        activity: { signature: string }[];
        nextCursor: string | null;
      };
      seen.push(...page.activity.map((entry) => entry.signature));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 5);
    expect(pages).toBe(2);
    expect(seen).toEqual([...recorded].reverse());
  });

  it("answers a whole feed with nextCursor null", async () => {
    const page = dataOf(
      await harness.request("GET", `/api/history?wallet=${wallet}&vault_id=${harness.vaultId}`, { key }),
    );
    expect(page.nextCursor).toBeNull();
    expect(page.activity).toHaveLength(3);
  });

  it("refuses a cursor it did not return", async () => {
    const result = await harness.request(
      "GET",
      `/api/history?wallet=${wallet}&vault_id=${harness.vaultId}&cursor=bm90LWEtY3Vyc29y`,
      { key },
    );
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ success: false, error: expect.stringMatching(/cursor/) });
  });
});
