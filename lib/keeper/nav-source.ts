// Where the keeper learns a vault's current total assets: `simulated:<apy>` (a test cluster's yield,
// accrued on the NAV since the last strike), `file:<path>` (a number, or `{ "<vault>": number }`,
// written by whatever values the strategies) or `http(s)://…` (answers a number, or
// `{ "totalAssets": number }`; `{vault}` in the URL is replaced by the vault's address, else
// `?vault=<address>` is added). Numbers are raw asset units: digits, as a JSON string or number.
import { readFile } from "node:fs/promises";

import { z } from "zod";

import { OperatorError } from "../operator/errors";
import { U64_MAX } from "../vault/model/token-amount";

const SECONDS_PER_YEAR = 365n * 24n * 3600n;
const BPS = 10_000n;
/** The longest span one simulated strike accrues, so a keeper back after days does not jump. */
const MAX_ACCRUAL_SECONDS = 24n * 3600n;
const HTTP_TIMEOUT_MS = 5_000;

export interface NavReading {
  vault: string;
  totalAssets: bigint;
  navUpdatedAt: bigint;
  /** Unix seconds now. */
  now: bigint;
}

export interface NavSource {
  readonly description: string;
  /** Simulated yield has no assets behind it: the keeper mints it into the reserve when it can. */
  readonly simulated: boolean;
  currentTotalAssets(reading: NavReading): Promise<bigint>;
}

/** Yield on `totalAssets` at `apyBps` a year over `seconds`, rounded down. */
export function accruedYield(totalAssets: bigint, apyBps: bigint, seconds: bigint): bigint {
  return (totalAssets * apyBps * seconds) / (BPS * SECONDS_PER_YEAR);
}

const rawAmount = z
  .union([z.string().regex(/^\d+$/), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform((value) => BigInt(value))
  .refine((value) => value <= U64_MAX);

function parseAmountDocument(text: string, vault: string, origin: string): bigint {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) {
    return rawAmount.parse(trimmed);
  }
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    throw new OperatorError(`${origin} is neither a number nor JSON`);
  }
  const direct = rawAmount.safeParse(json);
  if (direct.success) {
    return direct.data;
  }
  const object = z.record(z.string(), z.unknown()).safeParse(json);
  if (object.success) {
    const value = object.data[vault] ?? object.data.totalAssets;
    const parsed = rawAmount.safeParse(value);
    if (parsed.success) {
      return parsed.data;
    }
  }
  throw new OperatorError(
    `${origin} names no total assets for ${vault} (a number, { "${vault}": n } or { "totalAssets": n })`,
  );
}

function simulatedSource(apyText: string): NavSource {
  // "5" is 5 %, "5.25" is 5.25 %; kept in basis points so the arithmetic stays in integers.
  if (!/^\d+(\.\d{1,2})?$/.test(apyText)) {
    throw new OperatorError(
      `--nav-source simulated:<apy> takes a percentage such as 5 or 7.5; got "${apyText}"`,
    );
  }
  const [whole = "0", fraction = ""] = apyText.split(".");
  const apyBps = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0"));
  return {
    description: `simulated ${apyText}% a year`,
    simulated: true,
    async currentTotalAssets({ totalAssets, navUpdatedAt, now }) {
      const elapsed = navUpdatedAt > 0n ? now - navUpdatedAt : 0n;
      const seconds = elapsed < 0n ? 0n : elapsed > MAX_ACCRUAL_SECONDS ? MAX_ACCRUAL_SECONDS : elapsed;
      return totalAssets + accruedYield(totalAssets, apyBps, seconds);
    },
  };
}

/**
 * A source that reads a document of amounts per vault (a file, an HTTP endpoint) on each look; `read`
 * gives the text and the words that name where it came from in errors.
 */
function documentSource(
  description: string,
  read: (vault: string) => Promise<{ text: string; origin: string }>,
): NavSource {
  return {
    description,
    simulated: false,
    async currentTotalAssets({ vault }) {
      const { text, origin } = await read(vault);
      return parseAmountDocument(text, vault, origin);
    },
  };
}

function fileSource(path: string): NavSource {
  const origin = `NAV file ${path}`;
  return documentSource(`file ${path}`, async () => {
    try {
      return { text: await readFile(path, "utf8"), origin };
    } catch {
      throw new OperatorError(`${origin} cannot be read`);
    }
  });
}

/** The vault's URL: `{vault}` in the URL replaced, else a `vault` query parameter added. */
function vaultUrl(url: string, vault: string): string {
  if (url.includes("{vault}")) {
    return url.replaceAll("{vault}", encodeURIComponent(vault));
  }
  const parsed = new URL(url);
  parsed.searchParams.set("vault", vault);
  return parsed.toString();
}

function httpSource(url: string): NavSource {
  return documentSource(`HTTP ${url}`, async (vault) => {
    const target = vaultUrl(url, vault);
    const origin = `NAV source ${target}`;
    let response: Response;
    try {
      response = await fetch(target, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    } catch (error) {
      throw new OperatorError(
        `${origin} unreachable (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    if (!response.ok) {
      throw new OperatorError(`${origin} answered HTTP ${response.status}`);
    }
    return { text: await response.text(), origin };
  });
}

export function parseNavSource(text: string): NavSource {
  if (text.startsWith("simulated:")) {
    return simulatedSource(text.slice("simulated:".length));
  }
  if (text.startsWith("file:")) {
    const path = text.slice("file:".length);
    if (path === "") {
      throw new OperatorError("--nav-source file:<path> needs a path");
    }
    return fileSource(path);
  }
  if (text.startsWith("http://") || text.startsWith("https://")) {
    try {
      new URL(text.replaceAll("{vault}", "x"));
    } catch {
      throw new OperatorError(`--nav-source ${text} is not a URL`);
    }
    return httpSource(text);
  }
  throw new OperatorError(
    `--nav-source must be simulated:<apy>, file:<path> or an http(s) URL; got "${text}"`,
  );
}
