// Any unknown page.
import Link from "next/link";

export default function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="mt-2 text-muted">There is no page at this address.</p>
      <Link href="/" className="mt-4 inline-block text-accent-text underline">
        See the vaults
      </Link>
    </main>
  );
}
