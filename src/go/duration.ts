/**
 * Durations, two rules:
 * - `parseDuration` is Go's `time.ParseDuration` (time/format.go): what
 *   metav1.Duration fields of built-in kinds decode with, and what CEL's
 *   `duration()` follows. Units ns, us/µs/μs, ms, s, m, h; a fraction is
 *   scaled through float64 exactly as Go does.
 * - `parseOpenAPIDuration` is kube-openapi's `strfmt.ParseDuration`
 *   (pkg/validation/strfmt/duration.go), the `duration` format of CRD schemas
 *   and its CEL value: Go's syntax first, else whitespace-separated
 *   `<integer> <unit>` pairs with long units (`3 days`, `1 week 2hours`).
 * Both return nanoseconds as an int64 (bigint) or a GoError with Go's message.
 */
import { GoError, quoteTime } from "./error.js";

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["\u00b5s", 1_000n], // micro sign
  ["\u03bcs", 1_000n], // Greek small letter mu
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);
const MAX_UINT63 = 1n << 63n;
const MAX_INT64 = MAX_UINT63 - 1n;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Go's `time.ParseDuration`: nanoseconds, or Go's error. */
export function parseDuration(text: string): bigint | GoError {
  const invalid = () => new GoError(`time: invalid duration ${quoteTime(text)}`);
  let s = text;
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") return invalid();
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigit(s.charCodeAt(0)))) return invalid();
    // [0-9]*: an error past 2^63, as Go's leadingInt.
    let i = 0;
    let v = 0n;
    for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > MAX_UINT63) return invalid();
    }
    const pre = i > 0;
    s = s.slice(i);
    // (\.[0-9]*)?: digits past int64 precision are read and dropped, as Go's leadingFraction.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === ".") {
      let j = 1;
      let overflow = false;
      for (; j < s.length && isDigit(s.charCodeAt(j)); j++) {
        if (overflow) continue;
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (f > MAX_INT64 / 10n || y > MAX_UINT63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 1;
      s = s.slice(j);
    }
    if (!pre && !post) return invalid();
    let u = 0;
    while (u < s.length && s[u] !== "." && !isDigit(s.charCodeAt(u))) u++;
    if (u === 0) return new GoError(`time: missing unit in duration ${quoteTime(text)}`);
    const name = s.slice(0, u);
    s = s.slice(u);
    const unit = UNITS.get(name);
    if (unit === undefined) return new GoError(`time: unknown unit ${quoteTime(name)} in duration ${quoteTime(text)}`);
    if (v > MAX_UINT63 / unit) return invalid();
    v *= unit;
    if (f > 0n) {
      // float64, as Go: exact to the nanosecond for fractions of an hour.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > MAX_UINT63) return invalid();
    }
    d += v;
    if (d > MAX_UINT63) return invalid();
  }
  if (neg) return -d;
  return d > MAX_INT64 ? invalid() : d;
}

/** strfmt's unit table: the last spelling of each row also matches as a prefix (`hours`, `weeks`). */
const LONG_UNITS: ReadonlyArray<readonly [readonly string[], bigint]> = [
  [["ns", "nano"], 1n],
  [["us", "\u00b5s", "micro"], 1_000n],
  [["ms", "milli"], 1_000_000n],
  [["s", "sec"], 1_000_000_000n],
  [["m", "min"], 60_000_000_000n],
  [["h", "hr", "hour"], 3_600_000_000_000n],
  [["d", "day"], 86_400_000_000_000n],
  [["w", "wk", "week"], 604_800_000_000_000n],
];
// Go's RE2: \s is [\t\n\f\r ] and \d is ASCII.
const LONG_FORM = /^[\t\n\f\r ]*(?:[0-9]+[\t\n\f\r ]*[A-Za-z\u00b5]+[\t\n\f\r ]*)+$/;
const LONG_PAIR = /([0-9]+)[\t\n\f\r ]*([A-Za-z\u00b5]+)/g;

/** kube-openapi `strfmt.ParseDuration`: the OpenAPI `duration` format. */
export function parseOpenAPIDuration(text: string): bigint | GoError {
  const go = parseDuration(text);
  if (!(go instanceof GoError)) return go;
  const invalid = new GoError(`unable to parse ${text} as duration`);
  if (!LONG_FORM.test(text)) return invalid;
  let total = 0n;
  let ok = false;
  for (const m of text.matchAll(LONG_PAIR)) {
    const factor = BigInt(m[1] as string);
    // strconv.Atoi: beyond int64 is an error.
    if (factor > MAX_INT64) return new GoError(`strconv.Atoi: parsing "${m[1]}": value out of range`);
    const unit = (m[2] as string).toLowerCase();
    for (const [spellings, nanos] of LONG_UNITS) {
      spellings.forEach((spelling, i) => {
        if ((i === spellings.length - 1 && unit.startsWith(spelling)) || spelling === unit) {
          ok = true;
          // time.Duration arithmetic wraps around in Go.
          total = BigInt.asIntN(64, total + BigInt.asIntN(64, factor * nanos));
        }
      });
    }
  }
  return ok ? total : invalid;
}
