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
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
