// How the usage panel writes numbers: tokens with group separators, dollars
// from micro-dollars with enough places that a cheap thread does not read as $0.00.
const grouped = new Intl.NumberFormat('en-US');

export function tokens(count: number): string {
  return grouped.format(count);
}

export function dollars(micros: number): string {
  const value = micros / 1_000_000;
  if (value === 0) return '$0.00';
  if (value < 0.01) return `$${value.toFixed(4)}`;
  return `$${value.toFixed(2)}`;
}

/** A cost cell: the estimate, "no price set", or the estimate marked as covering part of the tokens. */
export function estimate(micros: number | null, unpricedTokens: number): string {
  if (micros === null) return 'no price set';
  return unpricedTokens > 0 ? `${dollars(micros)} + unpriced` : dollars(micros);
}
