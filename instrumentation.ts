// Next.js calls register() once when a server starts: parse the process's configuration there (every
// part's slice), so a bad variable stops the server at boot with a message naming it instead of failing
// the first request. The route and page modules read the same parsed copy (processConfig).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { checkProcessConfig, processConfig } = await import("./lib/config");
    checkProcessConfig(processConfig());
    // The store opens at boot (the embedded database is held and served from now on).
    const { defaultApiContext } = await import("./lib/api/default-context");
    const { openStoreAtBoot } = await import("./lib/api/context");
    await openStoreAtBoot(defaultApiContext());
    // The indexer (snapshots and events the read endpoints serve); one instance indexes at a time.
    const { startDefaultIndexer } = await import("./lib/server/default-indexer");
    startDefaultIndexer(processConfig().indexer);
  }
}
