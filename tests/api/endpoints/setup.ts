// What the per-endpoint suites share: one harness per file on the local chain (the keeper runs only
// when a test calls it, so the withdrawal's states are set up deliberately), a write and a read key,
// and the assertion that an error answers with the whole envelope.
import type { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, expect } from "vitest";

import { dataOf, startApiHarness, type ApiHarness } from "../harness";

export interface ExpectedError {
  status: number;
  code: string;
  error: string | RegExp;
}

export function errorBody(status: number, code: string, error: string | RegExp): ExpectedError {
  return { status, code, error };
}

export function expectError(result: { status: number; body: unknown }, expected: ExpectedError): void {
  expect(result.status).toBe(expected.status);
  const body = result.body as Record<string, unknown>;
  expect(body.success).toBe(false);
  expect(body.code).toBe(expected.code);
  expect(String(body.requestId)).toMatch(/^req_/);
  if (typeof expected.error === "string") {
    expect(body.error).toBe(expected.error);
  } else {
    expect(String(body.error)).toMatch(expected.error);
  }
}

/** One file's API: started before its tests, closed after them. */
export class EndpointSuite {
  #harness: ApiHarness | null = null;
  #writeKey: string | null = null;
  #readKey: string | null = null;

  async start(): Promise<void> {
    this.#harness = await startApiHarness({
      // Deliveries too happen only when a test asks (keeper.deliverWithdrawals).
      localnet: { keeper: { enabled: true, scheduled: false, deliverMaxPerPass: 10 } },
      env: { TRUSTED_PROXY_COUNT: "1" },
    });
    this.#writeKey = (await this.#harness.createKey({ scope: "write" })).secret;
    this.#readKey = (await this.#harness.createKey({ scope: "read" })).secret;
  }

  async close(): Promise<void> {
    await this.#harness?.close();
  }

  get harness(): ApiHarness {
    return started(this.#harness);
  }

  get writeKey(): string {
    return started(this.#writeKey);
  }

  get readKey(): string {
    return started(this.#readKey);
  }

  depositPath(vault = this.harness.vaultId): string {
    return `/api/vault/${vault}/deposit`;
  }

  withdrawPath(vault = this.harness.vaultId): string {
    return `/api/vault/${vault}/withdraw`;
  }

  keeper() {
    const running = this.harness.localnet.keeper;
    if (running === null) {
      throw new Error("the keeper is not running");
    }
    return running;
  }

  primeVault() {
    const vault = this.harness.localnet.addresses.vaults[0];
    if (vault === undefined) {
      throw new Error("no demo vault");
    }
    return vault;
  }

  /** Deposits through the API: builds, signs with the wallet and sends; returns the signature. */
  async deposit(wallet: Keypair, amount: bigint, vault = this.harness.vaultId): Promise<string> {
    const data = dataOf(
      await this.harness.request("POST", this.depositPath(vault), {
        key: this.writeKey,
        body: { wallet: wallet.publicKey.toBase58(), amount: amount.toString() },
      }),
    );
    return this.harness.signAndSend(String(data.transaction), wallet);
  }
}

function started<T>(value: T | null): T {
  if (value === null) {
    throw new Error("the endpoint suite has not started (use it inside tests)");
  }
  return value;
}

/** Registers the file's hooks: the API starts before its tests and closes after them. */
export function endpointSuite(): EndpointSuite {
  const suite = new EndpointSuite();
  beforeAll(async () => {
    await suite.start();
  });
  afterAll(async () => {
    await suite.close();
  });
  return suite;
}
