"use client";
// Keyboard focus after the thing that held it went away: a button that was pressed and is gone (or
// disabled) leaves focus on <body>, so a keyboard or screen reader user starts over from the top. When
// `key` changes to something shown (an outcome), focus moves there, but only if it was lost: never
// taken from where the person has put it.
import { useEffect, type RefObject } from "react";

export function useFocusWhenLost(target: RefObject<HTMLElement | null>, key: string | null): void {
  useEffect(() => {
    if (key === null) {
      return;
    }
    const active = document.activeElement;
    if (active === null || active === document.body) {
      target.current?.focus();
    }
  }, [target, key]);
}
