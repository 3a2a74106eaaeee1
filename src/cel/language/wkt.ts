/**
 * Timestamps and durations: the string forms the API server accepts (parsed
 * by Go's rules in src/go) turned into @bufbuild/cel timestamp/duration
 * values (through the standard `timestamp()` and `duration()` functions, so
 * no protobuf runtime is needed here).
 */
import { type CelValue, celEnv, isCelError, parse, plan } from "@bufbuild/cel";
import { GoError, parseFullDate, parseOpenAPIDuration, parseDateTime as parseStrfmtDateTime } from "../../go/index.js";

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

/**
 * Seconds/nanos of a string with a `date` or `date-time` format, as
 * UnstructuredToVal reads them (apiserver/pkg/cel/common/values.go):
 * `time.Parse("2006-01-02")` or strfmt.ParseDateTime; undefined when neither parses.
 */
export function parseDateTime(text: string): SecondsNanos | undefined {
  const date = parseFullDate(text);
  if (!(date instanceof GoError)) return date;
  const t = parseStrfmtDateTime(text);
  return t instanceof GoError ? undefined : t;
}

/** Nanoseconds of a `duration`-format string (strfmt.ParseDuration); undefined when it does not parse. */
export function parseFormatDuration(text: string): bigint | undefined {
  const d = parseOpenAPIDuration(text);
  return d instanceof GoError ? undefined : d;
}
