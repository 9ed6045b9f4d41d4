// The root layout. The pages themselves come with the web-app issue; /api lives under app/api.
import type { ReactNode } from "react";

export const metadata = {
  title: "Vault gateway",
  description: "Deposit into and withdraw from the vaults; the partner API lives under /api",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
