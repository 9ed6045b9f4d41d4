// --state-dir: the chain saved as LiteSVM's snapshot bytes plus a JSON file of everything LiteSVM does
// not hold (slot, blockhashes, block times, transaction history), written atomically.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

import { z } from "zod";

import type { ChainSnapshot, ChainState } from "./chain-types";

const SVM_FILE = "svm.bin";
const STATE_FILE = "chain.json";

const chainStateSchema = z.object({
  identity: z.object({ genesisHash: z.string(), identity: z.string() }),
  slot: z.string().regex(/^\d+$/),
  blockHeight: z.string().regex(/^\d+$/),
  genesisTime: z.number(),
  blockhashes: z.array(z.object({ blockhash: z.string(), slot: z.string(), blockHeight: z.string() })),
  slotTimes: z.array(z.tuple([z.string(), z.number()])),
  ledger: z.unknown(),
});

async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}

export async function saveSnapshot(directory: string, snapshot: ChainSnapshot): Promise<void> {
  await mkdir(directory, { recursive: true });
  await writeAtomically(join(directory, SVM_FILE), snapshot.svm);
  await writeAtomically(join(directory, STATE_FILE), JSON.stringify(snapshot.state));
}

/** The saved chain, or null when the directory holds none yet. */
export async function loadSnapshot(directory: string): Promise<ChainSnapshot | null> {
  let svm: Buffer;
  let stateText: string;
  try {
    [svm, stateText] = await Promise.all([
      readFile(join(directory, SVM_FILE)),
      readFile(join(directory, STATE_FILE), "utf8"),
    ]);
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") {
      return null;
    }
    throw error;
  }
  const state: ChainState = chainStateSchema.parse(JSON.parse(stateText));
  return { svm: new Uint8Array(svm), state };
}
