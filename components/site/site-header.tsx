"use client";
// The site's chrome: skip link, name, navigation (current page marked), cluster and wallet.
import Link from "next/link";
import { usePathname } from "next/navigation";

import { useClientConfig } from "../providers/config-context";
import { WalletButton } from "../wallet/wallet-ui";

const LINKS = [
  { href: "/", label: "Vaults" },
  { href: "/portfolio", label: "Portfolio" },
  { href: "/activity", label: "Activity" },
];

function isCurrent(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" || pathname.startsWith("/vault/") : pathname.startsWith(href);
}

export function SiteHeader() {
  const pathname = usePathname();
  const config = useClientConfig();
  return (
    <header className="border-b border-line bg-card">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-card focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* On a phone: the name and the wallet on one row, the navigation under them; one row from sm. */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2 sm:py-3">
        <Link href="/" className="text-lg font-bold">
          Vault<span className="text-accent-text">gateway</span>
        </Link>
        <nav aria-label="Main" className="order-last -mx-3 w-full sm:order-none sm:mx-0 sm:mr-auto sm:w-auto">
          <ul className="flex gap-1">
            {LINKS.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={isCurrent(pathname, link.href) ? "page" : undefined}
                  className="rounded-md px-3 py-1.5 text-sm font-medium text-muted hover:bg-soft hover:text-fg aria-[current=page]:bg-soft aria-[current=page]:text-fg sm:py-2"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-3">
          <span
            className="hidden rounded-full border border-line px-2 py-0.5 text-xs text-muted sm:inline"
            title={config.rpcUrl}
          >
            {config.cluster}
          </span>
          <WalletButton compact />
        </div>
      </div>
    </header>
  );
}
