// The forms' amount input (human units, with the balance and a Max button), the rows of their previews
// and their word when the wallet holds no SOL for the network fee.
import { feeSolWords } from "@/lib/web/error-words";
import { useClientConfig } from "../providers/config-context";

export function AmountField({
  id,
  label,
  value,
  onChange,
  unit,
  balance,
  onMax,
  invalid,
  describedBy,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  unit: string;
  balance: string | null;
  onMax: (() => void) | null;
  invalid: boolean;
  describedBy: string;
}) {
  return (
    <div className="space-y-1">
      <div className="flex items-end justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {balance === null ? null : (
          <span className="tabular text-xs text-muted">
            Balance: {balance}
            {onMax === null ? null : (
              <button
                type="button"
                onClick={onMax}
                className="ml-2 rounded px-1 font-semibold text-accent-text hover:bg-soft"
                aria-label={`Use the whole balance, ${balance}`}
              >
                Max
              </button>
            )}
          </span>
        )}
      </div>
      <div className="flex items-center rounded-lg border border-line bg-card focus-within:outline-2 focus-within:outline-accent">
        <input
          id={id}
          name={id}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className="tabular min-w-0 flex-1 rounded-lg bg-transparent px-3 py-2.5 text-lg outline-none"
        />
        <span className="px-3 text-sm text-muted">{unit}</span>
      </div>
    </div>
  );
}

export function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex justify-between gap-3 py-0.5">
      <dt className="text-muted">{label}</dt>
      <dd className={`tabular text-right ${strong ? "font-semibold" : ""}`}>{value}</dd>
    </div>
  );
}

/** Said under a form when the wallet holds no SOL for the network fee (the faucet named when there is one). */
export function FeeSolNote({ show, testId }: { show: boolean; testId: string }) {
  const config = useClientConfig();
  return show ? (
    <p className="text-sm text-bad" data-testid={testId}>
      {feeSolWords({ hasFaucet: config.faucetUrl !== null })}
    </p>
  ) : null;
}
