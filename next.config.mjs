// Next.js: the route handlers under app/api re-export framework-free handlers from lib/api. Packages
// with native or WebAssembly parts, or that Node loads better than a bundler, stay external.
/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ["@electric-sql/pglite", "pg", "ioredis", "rate-limiter-flexible", "litesvm"],
};

export default nextConfig;
