/**
 * Timestamps and durations: parsing the string forms the API server accepts
 * (`date-time`/`date` as go-openapi strfmt reads them, `duration` as Go's
 * `time.ParseDuration` plus strfmt's long units) and building @bufbuild/cel
 * timestamp/duration values from them (through the standard `timestamp()` and
 * `duration()` functions, so no protobuf runtime is needed here).
 */
import { type CelValue, celEnv, isCelError, parse, plan } from "@bufbuild/cel";

const baseEnv = celEnv({ variables: {} });
const tsProgram = plan(baseEnv, parse("timestamp(x)"));
const durProgram = plan(baseEnv, parse("duration(x)"));

/** Seconds and nanos of a timestamp or duration value (a ReflectMessage). */
export interface SecondsNanos {
  seconds: bigint;
  nanos: number;
}

export function isTimestamp(v: unknown): boolean {
  return wktName(v) === "google.protobuf.Timestamp";
}
export function isDuration(v: unknown): boolean {
  return wktName(v) === "google.protobuf.Duration";
}
function wktName(v: unknown): string | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const desc = (v as { desc?: { typeName?: unknown } }).desc;
  return typeof desc?.typeName === "string" ? desc.typeName : undefined;
}
export function secondsNanos(v: unknown): SecondsNanos {
  const m = (v as { message: { seconds: bigint; nanos: number } }).message;
  return { seconds: m.seconds, nanos: m.nanos };
}

const pad = (n: number | bigint, w: number) => String(n).padStart(w, "0");

/** A timestamp value from seconds since the epoch and nanos (0 ≤ nanos < 1e9). */
export function makeTimestamp(seconds: bigint, nanos: number): CelValue | Error {
  const ms = Number(seconds) * 1000;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return new Error("timestamp out of range");
  const y = d.getUTCFullYear();
  if (y < 1 || y > 9999) return new Error("timestamp out of range");
  const iso = `${pad(y, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(
    d.getUTCMinutes(),
    2,
  )}:${pad(d.getUTCSeconds(), 2)}${nanos > 0 ? `.${pad(nanos, 9)}` : ""}Z`;
  const out = tsProgram({ x: iso });
  return isCelError(out) ? new Error(out.message) : out;
}

/** A duration value from a total number of nanoseconds. */
export function makeDuration(totalNanos: bigint): CelValue | Error {
  const neg = totalNanos < 0n;
  const abs = neg ? -totalNanos : totalNanos;
  const s = abs / 1_000_000_000n;
  const n = abs % 1_000_000_000n;
  const text = `${neg ? "-" : ""}${s}${n > 0n ? `.${pad(n, 9)}` : ""}s`;
  const out = durProgram({ x: text });
  return isCelError(out) ? new Error(out.message) : out;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9})\d*)?)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/** Seconds/nanos of an RFC 3339 date-time (or a date, midnight UTC); undefined when it does not parse. */
export function parseDateTime(text: string): SecondsNanos | undefined {
  const m = DATE_TIME.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? 0);
  const minute = Number(mi ?? 0);
  const second = Number(s ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (date.getUTCDate() !== day) return undefined;
  let secs = BigInt(Math.floor(date.getTime() / 1000));
  if (sign !== undefined) {
    const off = BigInt(Number(oh) * 3600 + Number(om) * 60);
    secs = sign === "+" ? secs - off : secs + off;
  }
  const nanos = frac === undefined ? 0 : Number(frac.padEnd(9, "0"));
  return { seconds: secs, nanos };
}

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  "\u00b5s": 1_000n,
  "\u03bcs": 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_GO_DURATION = 9_223_372_036_854_775_807n;

/** Go's `time.ParseDuration`: total nanoseconds, or undefined on a syntax error or overflow. */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let neg = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    neg = s.startsWith("-");
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") return undefined;
  let total = 0n;
  while (s !== "") {
    let i = 0;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    const intPart = s.slice(0, i);
    let fracPart = "";
    if (s.charAt(i) === ".") {
      let j = i + 1;
      while (j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
      fracPart = s.slice(i + 1, j);
      i = j;
    }
    if (intPart === "" && fracPart === "") return undefined;
    let u = i;
    while (u < s.length && s.charAt(u) !== "." && (s.charCodeAt(u) < 48 || s.charCodeAt(u) > 57)) u++;
    const unit = s.slice(i, u);
    const mult = UNIT_NANOS[unit];
    if (mult === undefined) return undefined;
    let v = BigInt(intPart === "" ? "0" : intPart) * mult;
    if (fracPart !== "") {
      const scale = 10n ** BigInt(fracPart.length);
      v += (BigInt(fracPart) * mult) / scale;
    }
    total += v;
    if (total > MAX_GO_DURATION + (neg ? 1n : 0n)) return undefined;
    s = s.slice(u);
  }
  return neg ? -total : total;
}

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
const LONG_DURATION = /(\d+)\s*([A-Za-z\u00b5]+)/g;

/** go-openapi strfmt `ParseDuration`: Go syntax first, then `3 days`, `1 week`, … */
export function parseFormatDuration(text: string): bigint | undefined {
  const go = parseGoDuration(text);
  if (go !== undefined) return go;
  let total = 0n;
  let ok = false;
  for (const m of text.matchAll(LONG_DURATION)) {
    const factor = BigInt(m[1] as string);
    const unit = (m[2] as string).toLowerCase().trim();
    for (const [variants, mult] of LONG_UNITS) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((i === last && unit.startsWith(variant)) || variant === unit) {
          ok = true;
          total += factor * mult;
        }
      });
    }
  }
  return ok ? total : undefined;
}
