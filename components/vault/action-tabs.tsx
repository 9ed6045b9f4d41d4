"use client";
// The deposit / withdraw tabs of the vault page: a tablist with arrow, Home and End keys, which the
// phone's sticky action bar can switch from outside (chooseAction) and follows (useShownAction), as do
// the outcomes shown beside the card.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

export type Tab = "deposit" | "withdraw";

const CHOOSE_ACTION = "vault:choose-action";
const ACTION_SHOWN = "vault:action-shown";

/** Scrolls to the vault's actions card and selects `tab` there (the sticky bar on phones). */
export function chooseAction(tab: Tab): void {
  document.getElementById("vault-actions")?.scrollIntoView({ block: "start" });
  window.dispatchEvent(new CustomEvent<Tab>(CHOOSE_ACTION, { detail: tab }));
}

/** The tab the page's tablist shows ("deposit" until it says otherwise). */
export function useShownAction(): Tab {
  const [shown, setShown] = useState<Tab>("deposit");
  useEffect(() => {
    const follow = (event: Event) => setShown((event as CustomEvent<Tab>).detail);
    window.addEventListener(ACTION_SHOWN, follow);
    return () => window.removeEventListener(ACTION_SHOWN, follow);
  }, []);
  return shown;
}

export function ActionTabs({ children }: { children(tab: Tab): ReactNode }) {
  const [tab, setTab] = useState<Tab>("deposit");
  const baseId = useId();
  const refs = useRef<Record<Tab, HTMLButtonElement | null>>({ deposit: null, withdraw: null });
  const tabs: Tab[] = ["deposit", "withdraw"];
  useEffect(() => {
    window.dispatchEvent(new CustomEvent<Tab>(ACTION_SHOWN, { detail: tab }));
  }, [tab]);
  useEffect(() => {
    const choose = (event: Event) => {
      const chosen = (event as CustomEvent<Tab>).detail;
      setTab(chosen);
      refs.current[chosen]?.focus({ preventScroll: true });
    };
    window.addEventListener(CHOOSE_ACTION, choose);
    return () => window.removeEventListener(CHOOSE_ACTION, choose);
  }, []);
  function onKeyDown(event: KeyboardEvent) {
    if (
      event.key !== "ArrowRight" &&
      event.key !== "ArrowLeft" &&
      event.key !== "Home" &&
      event.key !== "End"
    ) {
      return;
    }
    event.preventDefault();
    const index = tabs.indexOf(tab);
    const next =
      event.key === "Home"
        ? tabs[0]
        : event.key === "End"
          ? tabs[tabs.length - 1]
          : tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    if (next !== undefined) {
      setTab(next);
      refs.current[next]?.focus();
    }
  }
  return (
    <div>
      <div
        role="tablist"
        aria-label="Deposit or withdraw"
        className="mb-4 flex rounded-lg bg-soft p-1"
        onKeyDown={onKeyDown}
      >
        {tabs.map((name) => (
          <button
            key={name}
            ref={(element) => {
              refs.current[name] = element;
            }}
            role="tab"
            type="button"
            id={`${baseId}-${name}-tab`}
            aria-selected={tab === name}
            aria-controls={`${baseId}-${name}-panel`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            className={`flex-1 rounded-md px-3 py-1.5 text-sm font-medium capitalize ${
              tab === name ? "bg-card shadow-sm" : "text-muted hover:text-fg"
            }`}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-${tab}-panel`} aria-labelledby={`${baseId}-${tab}-tab`}>
        {children(tab)}
      </div>
    </div>
  );
}
