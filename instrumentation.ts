// Next.js calls register() once when a server starts: parse the config there, so a bad variable stops
// the server at boot with a message naming it instead of failing the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { parseConfig } = await import("./lib/config");
    const config = parseConfig(process.env);
    const { parseWebhookSettings } = await import("./lib/webhooks/settings");
    parseWebhookSettings(process.env, config.rpcUrl);
    // The pages' settings: public RPC endpoint, frame ancestors, first-party session.
    const { parseSessionSettings, parseWebConfig } = await import("./lib/web/server-config");
    parseWebConfig(process.env);
    parseSessionSettings(process.env);
    // The indexer (snapshots and events the read endpoints serve); one instance indexes at a time.
    const { startDefaultIndexer } = await import("./lib/indexer/default-indexer");
    startDefaultIndexer(process.env);
  }
}
