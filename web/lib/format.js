// format.js: how the page writes numbers and cuts text, one way everywhere (the views, the trust
// panels, reports): counts with thousands separators, numbers with at most a few decimals,
// shares as percentages, durations, money, and text cut to a length with an ellipsis.

/**
 * groupDigits writes a number with thousands separators as English does ("12,345", "1,234.5")
 * without Intl: the first toLocaleString of a page sets up ICU's number formatting, 12-38 ms on a
 * cold load (measured in headless Chromium), and counts are drawn on the way to the first prompt.
 * Like toLocaleString("en-US"), it keeps at most three decimals.
 * @param {number} n
 */
export function groupDigits(n) {
  const x = Number(n);
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x < 0 ? "-∞" : "∞";
  const [int, frac] = String(Math.round(x * 1000) / 1000).split(".");
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (frac ? "." + frac : "");
}

/** fmtInt writes a count with thousands separators; a missing count is 0. */
export function fmtInt(n) {
  return groupDigits(Number(n || 0));
}

/**
 * fmtNum writes n with at most digits decimals (0 to 6) and no trailing zeros; "–" for anything
 * that is not a finite number.
 * @param {unknown} n @param {number} [digits]
 */
export function fmtNum(n, digits = 2) {
  if (typeof n !== "number" || !Number.isFinite(n)) return "–";
  const k = 10 ** Math.max(0, Math.min(6, digits));
  return String(Math.round(n * k) / k);
}

/**
 * pct writes a share as a percentage with at most digits decimals ("87.5%"; with 0, a whole
 * percentage: "88%"), "–" for null.
 * @param {number|null|undefined} x a share in 0..1
 * @param {number} [digits]
 */
export function pct(x, digits = 1) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  return Math.round(x * 10 ** (digits + 2)) / 10 ** digits + "%";
}

/** fmtDuration writes seconds as "12 s", "3 min 4 s" or "1 h 2 min". */
export function fmtDuration(s) {
  if (!Number.isFinite(s) || s < 0) return "–";
  if (s < 60) return Math.ceil(s) + " s";
  const m = Math.floor(s / 60);
  if (m < 60) return m + " min " + Math.round(s - m * 60) + " s";
  return Math.floor(m / 60) + " h " + (m % 60) + " min";
}

/**
 * fmtMoney writes dollars, with four decimals below a cent; none ("" unless given) for no amount.
 * @param {number|null} x @param {string} [none]
 */
export function fmtMoney(x, none = "") {
  if (x === null || !Number.isFinite(x)) return none;
  return "$" + (x < 0.01 && x > 0 ? x.toFixed(4) : x.toFixed(2));
}

/** plural: "1 row", "2 rows", "1,000 rows". */
export function plural(n, word) {
  return `${fmtInt(n)} ${word}${n === 1 ? "" : "s"}`;
}

/** cut shortens s to at most n characters, its last an ellipsis when something was cut. */
export function cut(s, n) {
  s = String(s ?? "");
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

/** clip squeezes white space and cuts s to n characters with an ellipsis (cut). */
export function clip(s, n) {
  return cut(String(s ?? "").replace(/\s+/g, " ").trim(), n);
}

/** cellText shows a dataset value as text: strings as they are, the rest as JSON. */
export function cellText(v) {
  if (v === undefined) return "";
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}
