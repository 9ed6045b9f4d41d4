"use client";
// The page was served without a session (too many new sessions from this network address): the data
// above and beside stays live; this says why deposits and withdrawals wait, until when, and offers the
// reload once a session can be started.
import { sessionNoticeWords } from "@/lib/web/error-words";
import { useReaderLocale, useSessionNotice } from "../providers/config-context";
import { useHydrated } from "../ui/local-time";
import { Alert, Button } from "../ui/primitives";
import { useNow } from "../ui/use-now";

export function SessionNoticeAlert() {
  const notice = useSessionNotice();
  const now = useNow(5_000);
  const locale = useReaderLocale();
  // The time of day is the reader's: said once the browser knows its zone.
  const hydrated = useHydrated();
  if (notice === null || !hydrated) {
    return null;
  }
  const words = sessionNoticeWords(notice, now, { locale });
  return (
    <div className="mb-3">
      <Alert tone="warning" title={words.title} testId="session-notice">
        <p>{words.message}</p>
        {words.canRetry ? (
          <Button variant="secondary" className="mt-2" onClick={() => window.location.reload()}>
            Reload to start a session
          </Button>
        ) : null}
      </Alert>
    </div>
  );
}
