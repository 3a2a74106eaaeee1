/**
 * Dates and date-times, as Kubernetes reads them:
 * - `parseRFC3339` is Go's `time.Parse(time.RFC3339, s)`, what metav1.Time
 *   (every date-time field of a built-in kind) decodes with: `T` and `Z` in
 *   upper case, days checked against the month and leap years, no second 60,
 *   a fraction of any length, an offset `±hh:mm` (Go allows up to 24:60).
 * - `parseRFC3339Micro` is `time.Parse` with apimachinery's RFC3339Micro
 *   layout, what metav1.MicroTime decodes with: six fraction digits, no more
 *   and no fewer.
 * - `parseFullDate` is `time.Parse("2006-01-02", s)` (strfmt `date`).
 * - `isDateTime` is kube-openapi's `strfmt.IsDateTime` (the `date-time`
 *   format of CRD schemas): lower-cased, split at `t`, a full date, then
 *   `hh:mm:ss[.frac](z|±hh:mm)`.
 * - `parseDateTime` is kube-openapi's `strfmt.ParseDateTime` (a CRD
 *   `date-time` value in CEL): "" is the epoch, else RFC 3339 or a local time
 *   without offset (UTC).
 * Instants are seconds since the Unix epoch and nanoseconds.
 */
import { GoError, quoteTime } from "./error.js";

export interface Instant {
  seconds: bigint;
  nanos: number;
}

/** The pieces of a Go layout these rules use, each with its text in the layout (for messages). */
type Chunk =
  | { k: "lit"; text: string }
  | { k: "year" | "month" | "day" | "hour" | "minute" | "second" | "zone" | "frac9"; text: string }
  | { k: "frac0"; text: string; digits: number };

interface Layout {
  text: string;
  chunks: Chunk[];
}

const lit = (text: string): Chunk => ({ k: "lit", text });
const DATE: Chunk[] = [
  { k: "year", text: "2006" },
  lit("-"),
  { k: "month", text: "01" },
  lit("-"),
  { k: "day", text: "02" },
];
const CLOCK: Chunk[] = [
  lit("T"),
  { k: "hour", text: "15" },
  lit(":"),
  { k: "minute", text: "04" },
  lit(":"),
  { k: "second", text: "05" },
];
const ZONE: Chunk = { k: "zone", text: "Z07:00" };

export const RFC3339: Layout = { text: "2006-01-02T15:04:05Z07:00", chunks: [...DATE, ...CLOCK, ZONE] };
const FULL_DATE: Layout = { text: "2006-01-02", chunks: DATE };
const frac0 = (digits: number): Chunk => ({ k: "frac0", text: `.${"0".repeat(digits)}`, digits });
/** apimachinery's RFC3339Micro (metav1.MicroTime): exactly six fraction digits. */
const RFC3339_MICRO: Layout = { text: "2006-01-02T15:04:05.000000Z07:00", chunks: [...DATE, ...CLOCK, frac0(6), ZONE] };
// strfmt's dateTimeFormats, in its order.
const STRFMT_LAYOUTS: Layout[] = [
  RFC3339_MICRO,
  { text: "2006-01-02T15:04:05.000Z07:00", chunks: [...DATE, ...CLOCK, frac0(3), ZONE] },
  RFC3339,
  {
    text: "2006-01-02T15:04:05.999999999Z07:00",
    chunks: [...DATE, ...CLOCK, { k: "frac9", text: ".999999999" }, ZONE],
  },
  { text: "2006-01-02T15:04:05", chunks: [...DATE, ...CLOCK] },
];

const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;
const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysIn = (m: number, y: number) => (m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

/** Go's getnum: one or two digits (two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 48, s.slice(1)];
  return [(s.charCodeAt(0) - 48) * 10 + s.charCodeAt(1) - 48, s.slice(2)];
}

/** Go's atoi in the time package: an optional sign, then only digits. */
function atoi(s: string): number | undefined {
  const body = s[0] === "-" || s[0] === "+" ? s.slice(1) : s;
  if (!/^[0-9]*$/.test(body)) return undefined;
  const n = Number(body || "0");
  return s[0] === "-" ? -n : n;
}

/** Go's parseNanoseconds over value[0:n]: a `.` or `,`, then digits (at most nine kept). */
function nanoseconds(value: string, n: number): number | "range" | undefined {
  if (value[0] !== "." && value[0] !== ",") return undefined;
  const used = Math.min(n, 10);
  const ns = atoi(value.slice(1, used));
  if (ns === undefined) return undefined;
  if (ns < 0) return "range";
  return ns * 10 ** (10 - used);
}

/** Length of the fraction `value` starts with: a `.` or `,` and one digit or more; 0 when it starts with none. */
function fractionLength(value: string): number {
  if ((value[0] !== "." && value[0] !== ",") || !isDigit(value, 1)) return 0;
  let n = 2;
  while (isDigit(value, n)) n++;
  return n;
}

/** Days from 0000-03-01-based civil arithmetic to 1970-01-01 (proleptic Gregorian). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Go's time.Parse for the chunks above; the messages are Go's ParseError texts. */
function parseLayout(layout: Layout, input: string): Instant | GoError {
  const cannot = (valueElem: string, layoutElem: string) =>
    new GoError(
      `parsing time ${quoteTime(input)} as ${quoteTime(layout.text)}: cannot parse ${quoteTime(valueElem)} as ${quoteTime(layoutElem)}`,
    );
  const outOfRange = (what: string) => new GoError(`parsing time ${quoteTime(input)}: ${what} out of range`);
  let value = input;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let offset = 0;
  let ok = true;
  let range = "";
  /** Go's parseNanoseconds over the next `n` characters, which it then consumes. */
  const takeFraction = (n: number): void => {
    const ns = nanoseconds(value, n);
    if (ns === undefined) ok = false;
    else if (ns === "range") range = "fractional second";
    else nanos = ns;
    value = value.slice(n);
  };
  for (let c = 0; c < layout.chunks.length; c++) {
    const chunk = layout.chunks[c] as Chunk;
    const hold = value;
    if (chunk.k === "lit") {
      if (!value.startsWith(chunk.text)) return cannot(value, chunk.text);
      value = value.slice(chunk.text.length);
      continue;
    }
    ok = true;
    range = "";
    switch (chunk.k) {
      case "year": {
        const n = value.length >= 4 && isDigit(value, 0) ? atoi(value.slice(0, 4)) : undefined;
        if (n === undefined) ok = false;
        else [year, value] = [n, value.slice(4)];
        break;
      }
      case "month":
      case "day":
      case "hour":
      case "minute":
      case "second": {
        const r = getnum(value, chunk.k !== "hour");
        if (r === undefined) {
          ok = false;
          break;
        }
        const [n, rest] = r;
        value = rest;
        if (chunk.k === "month") [month, range] = [n, n < 1 || n > 12 ? "month" : ""];
        else if (chunk.k === "day") day = n;
        else if (chunk.k === "hour") [hour, range] = [n, n >= 24 ? "hour" : ""];
        else if (chunk.k === "minute") [minute, range] = [n, n >= 60 ? "minute" : ""];
        else {
          second = n;
          if (n >= 60) {
            range = "second";
            break;
          }
          // A fraction the layout does not spell out is still read.
          const next = layout.chunks[c + 1];
          const layoutHasFraction = next?.k === "frac0" || next?.k === "frac9";
          const fraction = layoutHasFraction ? 0 : fractionLength(value);
          if (fraction > 0) takeFraction(fraction);
        }
        break;
      }
      case "frac0": {
        const n = 1 + chunk.digits;
        if (value.length < n) {
          ok = false;
          break;
        }
        takeFraction(n);
        break;
      }
      case "frac9": {
        const fraction = fractionLength(value);
        if (fraction > 0) takeFraction(fraction);
        break;
      }
      case "zone": {
        if (value[0] === "Z") {
          value = value.slice(1);
          break;
        }
        if (value.length < 6 || value[3] !== ":") {
          ok = false;
          break;
        }
        const hh = getnum(value.slice(1, 3), true);
        const mm = getnum(value.slice(4, 6), true);
        const sign = value[0];
        value = value.slice(6);
        if (hh === undefined || mm === undefined) {
          ok = false;
          break;
        }
        // Go allows 24 hours and 60 minutes: "some people do write offsets of 24 hours".
        if (hh[0] > 24) range = "time zone offset hour";
        if (mm[0] > 60) range = "time zone offset minute";
        offset = (hh[0] * 60 + mm[0]) * 60;
        if (sign === "-") offset = -offset;
        else if (sign !== "+") ok = false;
        break;
      }
    }
    if (range !== "") return outOfRange(range);
    if (!ok) return cannot(hold, chunk.text);
  }
  if (value !== "") return new GoError(`parsing time ${quoteTime(input)}: extra text: ${quoteTime(value)}`);
  if (day < 1 || day > daysIn(month, year)) return outOfRange("day");
  const days = daysFromCivil(year, month, day);
  const seconds = BigInt(days) * 86400n + BigInt(hour * 3600 + minute * 60 + second - offset);
  return { seconds, nanos };
}

/** `time.Parse(time.RFC3339, s)`: how metav1.Time decodes a built-in kind's date-time. */
export function parseRFC3339(s: string): Instant | GoError {
  return parseLayout(RFC3339, s);
}

/** `time.Parse(metav1.RFC3339Micro, s)`: how metav1.MicroTime (a Lease's renewTime, an Event's eventTime) decodes. */
export function parseRFC3339Micro(s: string): Instant | GoError {
  return parseLayout(RFC3339_MICRO, s);
}

/** `time.Parse("2006-01-02", s)`: strfmt's `date`. */
export function parseFullDate(s: string): Instant | GoError {
  return parseLayout(FULL_DATE, s);
}

/** strfmt.IsDate. */
export const isDate = (s: string): boolean => !(parseFullDate(s) instanceof GoError);

// strfmt.DateTimePattern; Go's `.` is any character but a newline.
const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;

/** kube-openapi `strfmt.IsDateTime`: the `date-time` format of CRD schemas. */
export function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split("t");
  if (parts.length < 2 || !isDate(parts[0] as string)) return false;
  const m = TIME_OF_DAY.exec(parts[1] as string);
  if (m === null) return false;
  return (m[1] as string) <= "23" && (m[2] as string) <= "59" && (m[3] as string) <= "59";
}

/** kube-openapi `strfmt.ParseDateTime`: each of its layouts in turn, the last error if none fits. */
export function parseDateTime(s: string): Instant | GoError {
  if (s === "") return { seconds: 0n, nanos: 0 };
  let last: GoError = new GoError("");
  for (const layout of STRFMT_LAYOUTS) {
    const t = parseLayout(layout, s);
    if (!(t instanceof GoError)) return t;
    last = t;
  }
  return last;
}
