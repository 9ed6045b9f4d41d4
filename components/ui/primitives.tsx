// The few building blocks every page uses: cards, buttons, alerts, skeletons, stats and bars. Colours
// come from the theme variables in app/globals.css.
import type { ButtonHTMLAttributes, ReactNode } from "react";

function classes(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}

export function Card({
  title,
  titleId,
  action,
  children,
  className,
}: {
  title?: ReactNode;
  titleId?: string;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={titleId}
      className={classes("rounded-xl border border-line bg-card p-4 shadow-sm sm:p-5", className)}
    >
      {title === undefined ? null : (
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {action}
        </div>
      )}
      {children}
    </section>
  );
}

type ButtonVariant = "primary" | "secondary" | "ghost";

export function Button({
  variant = "primary",
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return (
    <button
      type={type}
      className={classes(
        "inline-flex min-h-10 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50",
        variant === "primary" && "bg-accent text-accent-fg hover:opacity-90",
        variant === "secondary" && "border border-line bg-card text-fg hover:bg-soft",
        variant === "ghost" && "text-accent-text hover:bg-soft",
        className,
      )}
      {...props}
    />
  );
}

export type AlertTone = "error" | "warning" | "success" | "info";

const TONE_CLASSES: Record<AlertTone, string> = {
  error: "border-bad/40 text-bad",
  warning: "border-warn/40 text-warn",
  success: "border-good/40 text-good",
  info: "border-line text-fg",
};

/** Errors are announced at once (role=alert); other notices politely (role=status). */
export function Alert({
  tone,
  title,
  children,
  testId,
}: {
  tone: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      className={classes("rounded-lg border bg-soft px-3 py-2 text-sm", TONE_CLASSES[tone])}
    >
      {title === undefined ? null : <p className="font-semibold">{title}</p>}
      {children === undefined ? null : <div className="text-fg">{children}</div>}
    </div>
  );
}

export function Skeleton({ className, label }: { className?: string; label?: string }) {
  return (
    <span
      role={label === undefined ? undefined : "status"}
      aria-label={label}
      className={classes("inline-block animate-pulse rounded bg-soft", className ?? "h-4 w-24")}
    />
  );
}

export function Stat({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-muted uppercase">{label}</dt>
      <dd className="tabular mt-1 truncate text-xl font-semibold sm:text-2xl" data-testid={testId}>
        {value}
      </dd>
      {hint === undefined ? null : <dd className="mt-0.5 text-xs text-muted">{hint}</dd>}
    </div>
  );
}

/** A labelled bar: role=progressbar with its value in words for screen readers. */
export function ProgressBar({
  fraction,
  label,
  valueText,
  testId,
  tone = "accent",
}: {
  fraction: number;
  label: string;
  valueText: string;
  testId?: string;
  tone?: "accent" | "warn" | "bad";
}) {
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 1000) / 10;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      data-testid={testId}
      className="h-2.5 w-full overflow-hidden rounded-full bg-soft"
    >
      <div
        className={classes(
          "h-full rounded-full transition-[width] duration-500",
          tone === "accent" && "bg-accent",
          tone === "warn" && "bg-warn",
          tone === "bad" && "bg-bad",
        )}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
