/**
 * The cron syntax the API server accepts for a CronJob's schedule:
 * robfig/cron v3's `ParseStandard` (parser.go), which batch validation calls
 * and whose error text it prints. Five fields (minute, hour, day of month,
 * month, day of week) or a descriptor (`@daily`, `@every 1h30m`). Only
 * whether it parses, and Go's error when not: the schedule itself is never
 * computed.
 */
import { GoError, parseDuration, quote } from "../../go/index.js";

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const minutes: Bounds = { min: 0, max: 59 };
const hours: Bounds = { min: 0, max: 23 };
const dom: Bounds = { min: 1, max: 31 };
const months: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const dow: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

const descriptors = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);

/** Go's strings.Fields: split on runs of Unicode white space. */
const fields = (s: string) => s.split(/[\s\u0085\u00a0]+/u).filter((f) => f !== "");

/** Go's `%s` of a []string: `[a b c]`. */
const goList = (xs: readonly string[]) => `[${xs.join(" ")}]`;

/** The error `cron.ParseStandard(spec)` returns, or undefined when the schedule parses. */
export function cronParseError(schedule: string): string | undefined {
  let spec = schedule;
  if (spec === "") return "empty spec string";
  if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
    // The location is loaded before anything else; batch validation refuses TZ in any case.
    const space = spec.indexOf(" ");
    const eq = spec.indexOf("=");
    if (space < 0) return `provided bad location ${spec.slice(eq + 1)}: unknown time zone ${spec.slice(eq + 1)}`;
    const zone = spec.slice(eq + 1, space);
    const problem = timeZoneLoadError(zone);
    if (problem !== undefined) return `provided bad location ${zone}: ${problem}`;
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith("@")) return descriptorError(spec);
  const parts = fields(spec);
  if (parts.length !== 5) return `expected exactly 5 fields, found ${parts.length}: ${goList(parts)}`;
  const bounds = [minutes, hours, dom, months, dow];
  for (let i = 0; i < 5; i++) {
    const problem = fieldError(parts[i] as string, bounds[i] as Bounds);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function descriptorError(spec: string): string | undefined {
  if (descriptors.has(spec)) return undefined;
  const every = "@every ";
  if (spec.startsWith(every)) {
    const d = parseDuration(spec.slice(every.length));
    return d instanceof GoError ? `failed to parse duration ${spec}: ${d.message}` : undefined;
  }
  return `unrecognized descriptor: ${spec}`;
}

/** getField: comma-separated ranges, empty pieces skipped (strings.FieldsFunc). */
function fieldError(field: string, r: Bounds): string | undefined {
  for (const expr of field.split(",").filter((e) => e !== "")) {
    const problem = rangeError(expr, r);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** getRange: `*`, `?`, `a`, `a-b`, each optionally `/step`. */
function rangeError(expr: string, r: Bounds): string | undefined {
  const rangeAndStep = expr.split("/");
  const lowAndHigh = (rangeAndStep[0] as string).split("-");
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === "*" || lowAndHigh[0] === "?") {
    start = r.min;
    end = r.max;
  } else {
    const low = parseIntOrName(lowAndHigh[0] as string, r.names);
    if (typeof low === "string") return low;
    start = low;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const high = parseIntOrName(lowAndHigh[1] as string, r.names);
      if (typeof high === "string") return high;
      end = high;
    } else return `too many hyphens: ${expr}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const s = mustParseInt(rangeAndStep[1] as string);
    if (typeof s === "string") return s;
    step = s;
    // "N/step" means "N-max/step".
    if (singleDigit) end = r.max;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < r.min) return `beginning of range (${start}) below minimum (${r.min}): ${expr}`;
  if (end > r.max) return `end of range (${end}) above maximum (${r.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  if (step === 0) return `step of range should be a positive number: ${expr}`;
  return undefined;
}

function parseIntOrName(expr: string, names: Readonly<Record<string, number>> | undefined): number | string {
  const lower = expr.toLowerCase();
  if (names !== undefined && Object.hasOwn(names, lower)) return names[lower] as number;
  return mustParseInt(expr);
}

const INT64_MAX = 9223372036854775807n;

/** mustParseInt over strconv.Atoi, with both of their errors. */
function mustParseInt(expr: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(expr))
    return `failed to parse int from ${expr}: strconv.Atoi: parsing ${quote(expr)}: invalid syntax`;
  const n = BigInt(expr);
  if (n > INT64_MAX || n < -INT64_MAX - 1n)
    return `failed to parse int from ${expr}: strconv.Atoi: parsing ${quote(expr)}: value out of range`;
  if (n < 0n) return `negative number (${n}) not allowed: ${expr}`;
  return Number(n);
}

/**
 * Whether Go's time.LoadLocation knows a zone name, through the IANA database
 * the JavaScript runtime carries (Intl). "UTC" and "Local" are Go's own names.
 * Returns Go's error text, or undefined when the zone loads.
 */
export function timeZoneLoadError(zone: string): string | undefined {
  if (zone === "" || zone === "UTC" || zone === "Local") return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return undefined;
  } catch {
    return `unknown time zone ${zone}`;
  }
}
