"use client";
// Connecting a wallet: a button that opens a dialog of the wallets found (installed first), and once
// connected, the address with a disconnect action.
import { useEffect, useId, useRef, useState } from "react";

import { shortAddress } from "@/lib/web/client-config";
import { Button } from "../ui/primitives";
import { useWalletState, type WalletOption } from "./wallet-data-access";

const READINESS_ORDER: Record<WalletOption["readyState"], number> = {
  Installed: 0,
  Loadable: 1,
  NotDetected: 2,
  Unsupported: 3,
};

/**
 * A Connect dialog was opened, on any of the page's wallet buttons: once the wallet connects, keyboard
 * focus goes to a connected account (the header's, which stays on screen), not to <body> when the
 * button that was pressed gives way to the forms.
 */
let connectAsked = false;

export function WalletButton({ compact = false }: { compact?: boolean }) {
  const wallet = useWalletState();
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const account = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element === null) {
      return;
    }
    if (open && !element.open) {
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  useEffect(() => {
    if (wallet.publicKey !== null) {
      setOpen(false);
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (connectAsked && lost && account.current !== null) {
        connectAsked = false;
        account.current.focus();
      }
    }
  }, [wallet.publicKey]);

  if (wallet.publicKey !== null) {
    return (
      <div className="flex items-center gap-2">
        <span
          ref={account}
          tabIndex={-1}
          className="tabular rounded-lg border border-line px-3 py-2 text-sm"
          data-testid="wallet-address"
          title={wallet.publicKey}
        >
          {wallet.walletIcon === null ? null : (
            <img
              src={wallet.walletIcon}
              alt=""
              width={16}
              height={16}
              className="mr-1.5 inline-block align-[-3px]"
            />
          )}
          <span className="sr-only">Connected wallet </span>
          {shortAddress(wallet.publicKey)}
        </span>
        <Button
          variant="secondary"
          onClick={() => void wallet.disconnect()}
          className={compact ? "px-3" : ""}
          title="Disconnect"
        >
          {/* Compact (the header): a sign on a phone, where the name and the wallet share one row. */}
          {compact ? (
            <>
              <span aria-hidden="true" className="sm:hidden">
                ⏏
              </span>
              <span className="sr-only sm:not-sr-only">Disconnect</span>
            </>
          ) : (
            "Disconnect"
          )}
        </Button>
      </div>
    );
  }

  const options = [...wallet.options].sort(
    (left, right) => READINESS_ORDER[left.readyState] - READINESS_ORDER[right.readyState],
  );

  return (
    <>
      <Button
        onClick={() => {
          connectAsked = true;
          setOpen(true);
        }}
        disabled={wallet.connecting}
        aria-haspopup="dialog"
      >
        {wallet.connecting ? "Connecting…" : "Connect wallet"}
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={headingId}
        onClose={() => setOpen(false)}
        className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-xl border border-line bg-card p-5 text-fg shadow-xl backdrop:bg-black/50"
      >
        <div className="mb-3 flex items-center justify-between">
          <h2 id={headingId} className="text-lg font-semibold">
            Connect a wallet
          </h2>
          <Button variant="ghost" onClick={() => setOpen(false)} aria-label="Close">
            ✕
          </Button>
        </div>
        {wallet.status === "loading" ? (
          <p role="status" className="text-sm text-muted">
            Looking for wallets…
          </p>
        ) : options.length === 0 ? (
          <p className="text-sm text-muted">
            No Solana wallet was found in this browser. Install one such as Phantom or Solflare, then reload.
          </p>
        ) : (
          <ul className="space-y-2">
            {options.map((option) => (
              <li key={option.name}>
                {option.readyState === "NotDetected" || option.readyState === "Unsupported" ? (
                  <a
                    href={option.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="flex items-center gap-3 rounded-lg border border-line px-3 py-2 text-sm text-muted hover:bg-soft"
                  >
                    <img src={option.icon} alt="" width={24} height={24} />
                    <span className="flex-1">{option.name}</span>
                    <span className="text-xs">Get it ↗</span>
                  </a>
                ) : (
                  <button
                    type="button"
                    onClick={() => wallet.connect(option.name)}
                    className="flex w-full items-center gap-3 rounded-lg border border-line px-3 py-2 text-left text-sm hover:bg-soft"
                  >
                    <img src={option.icon} alt="" width={24} height={24} />
                    <span className="flex-1 font-medium">{option.name}</span>
                    {option.readyState === "Installed" ? (
                      <span className="text-xs text-good">Detected</span>
                    ) : null}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {wallet.connectError === null ? null : (
          <p role="alert" className="mt-3 text-sm text-bad">
            The wallet did not connect: {wallet.connectError}
          </p>
        )}
      </dialog>
    </>
  );
}
