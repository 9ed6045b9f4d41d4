"use client";
// A page that failed to render: say so in words and offer to try again (details stay in the console).
export default function PageError({ reset }: { error: Error; reset(): void }) {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">This page could not be shown</h1>
      <p className="mt-2 text-muted">Something went wrong while showing it. Your funds are not affected.</p>
      <button type="button" onClick={reset} className="mt-4 rounded-lg bg-accent px-4 py-2 text-accent-fg">
        Try again: show this page
      </button>
    </main>
  );
}
