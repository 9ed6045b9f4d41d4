// Next.js: the route handlers under app/api re-export framework-free handlers from lib/api. Packages
// with native or WebAssembly parts, or that Node loads better than a bundler, stay external.
// Pages get their CSP (with a per-request nonce) and session cookie from proxy.ts; the headers below
// go on every response, static files and /api included.
/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  productionBrowserSourceMaps: false,
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "proper-lockfile",
    "pg",
    "ioredis",
    "rate-limiter-flexible",
    "litesvm",
    "prom-client",
  ],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
