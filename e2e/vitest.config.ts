// The browser suite: `npm run test:e2e`. One world for all files (global setup: chain, app, partner
// pages), files one after another, each with its own browser contexts and fresh wallets.
import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["e2e/**/*.e2e.ts"],
    globalSetup: ["e2e/support/global-setup.ts"],
    fileParallelism: false,
    // Ceilings for a hung test, well above the steps' own limits (30–60 s waits for a page or the chain),
    // so a busy machine makes a test slower and a step that never happens fails with its own message.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
  },
});
