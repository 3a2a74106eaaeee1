/**
 * Kubernetes semver library, as the API server's base environment has it
 * from 1.33 (`SemverLib(SemverVersion(1))`): apiserver
 * pkg/cel/library/semverlib.go for the functions (`semver` and `isSemver`,
 * each with an optional normalize flag, `major`, `minor`, `patch`,
 * `isGreaterThan`, `isLessThan`, `compareTo`) and the normalization,
 * pkg/cel/semver.go for the value (`kubernetes.Semver`, equal to another
 * when their versions compare equal), and github.com/blang/semver/v4
 * semver.go for `Parse` and `Version.Compare`, whose error messages a
 * failed `semver(s)` reports.
 */
import { GoError, quote } from "../../go/index.js";
import { asCel, CelRuntimeError, OrderedValue, opaqueOf } from "../language/values.js";
import { type Declaration, declare } from "./declaration.js";
import { comparisonsOf } from "./ordered.js";
import { splitN } from "./strings.js";

const UINT64_MAX = 18446744073709551615n;
const DIGITS = /^[0-9]*$/;
/** blang/semver's `alphanum`: ASCII letters, digits and `-`. */
const ALPHANUM = /^[0-9A-Za-z-]*$/;

/** A dot-separated identifier of a prerelease: a number, or else its text. */
type Identifier = bigint | string;

export class SemverValue extends OrderedValue {
  readonly celTypeName = "kubernetes.Semver";
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly Identifier[],
    readonly build: readonly string[],
  ) {
    super();
  }
  /** semver.go `Equal`: the versions compare equal, build metadata aside. */
  equals(other: unknown): boolean {
    return other instanceof SemverValue && compareSemver(this, other) === 0;
  }
  compare(other: unknown): number {
    return compareSemver(this, opaqueOf(SemverValue, other));
  }
}

const sign = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** A prerelease identifier against another: numbers by value, below any text; texts by their bytes. */
function compareIdentifiers(a: Identifier, b: Identifier): number {
  if (typeof a === "bigint") return typeof b === "bigint" ? sign(a, b) : -1;
  if (typeof b === "bigint") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** blang/semver `Version.Compare`: -1, 0 or 1. A release is above its prereleases; build metadata has no say. */
export function compareSemver(a: SemverValue, b: SemverValue): number {
  const core = sign(a.major, b.major) || sign(a.minor, b.minor) || sign(a.patch, b.patch);
  if (core !== 0) return core;
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  const n = Math.min(a.pre.length, b.pre.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(a.pre[i] as Identifier, b.pre[i] as Identifier);
    if (c !== 0) return c;
  }
  return Math.sign(a.pre.length - b.pre.length);
}

/** Go's `strconv.ParseUint(s, 10, 64)` on a string of ASCII digits only: empty and too large are its failures. */
function parseUint(s: string): bigint | GoError {
  if (s === "") return new GoError(`strconv.ParseUint: parsing ${quote(s)}: invalid syntax`);
  const n = BigInt(s);
  return n > UINT64_MAX ? new GoError(`strconv.ParseUint: parsing ${quote(s)}: value out of range`) : n;
}

const leadingZero = (s: string) => s.length > 1 && s.charAt(0) === "0";

/** A major, minor or patch number (`what`), as blang/semver's Parse checks it. */
function versionNumber(s: string, what: "major" | "minor" | "patch"): bigint | GoError {
  if (!DIGITS.test(s)) return new GoError(`Invalid character(s) found in ${what} number ${quote(s)}`);
  if (leadingZero(s)) {
    const name = what.charAt(0).toUpperCase() + what.slice(1);
    return new GoError(`${name} number must not contain leading zeroes ${quote(s)}`);
  }
  return parseUint(s);
}

/** blang/semver `NewPRVersion`. */
function prereleaseIdentifier(s: string): Identifier | GoError {
  if (s === "") return new GoError("Prerelease is empty");
  if (DIGITS.test(s)) {
    if (leadingZero(s)) return new GoError(`Numeric PreRelease version must not contain leading zeroes ${quote(s)}`);
    return parseUint(s);
  }
  if (ALPHANUM.test(s)) return s;
  return new GoError(`Invalid character(s) found in prerelease ${quote(s)}`);
}

/**
 * blang/semver `Parse` (what `semver(s)` uses): exactly MAJOR.MINOR.PATCH,
 * decimal numbers without leading zeros, then optionally `-` and a
 * prerelease, then `+` and build metadata, each dot-separated identifiers of
 * ASCII letters, digits and `-`. No white space, no `v`.
 */
export function parseSemver(s: string): SemverValue | GoError {
  if (s === "") return new GoError("Version string empty");
  const parts = splitN(s, ".", 3);
  if (parts.length !== 3) return new GoError("No Major.Minor.Patch elements found");
  const [majorText, minorText, rest] = parts as [string, string, string];
  const major = versionNumber(majorText, "major");
  if (major instanceof GoError) return major;
  const minor = versionNumber(minorText, "minor");
  if (minor instanceof GoError) return minor;
  // the build metadata from the first `+`, then the prerelease from the first `-` before it
  let patchText = rest;
  let buildTexts: string[] = [];
  let preTexts: string[] = [];
  const plus = patchText.indexOf("+");
  if (plus >= 0) {
    buildTexts = patchText.slice(plus + 1).split(".");
    patchText = patchText.slice(0, plus);
  }
  const dash = patchText.indexOf("-");
  if (dash >= 0) {
    preTexts = patchText.slice(dash + 1).split(".");
    patchText = patchText.slice(0, dash);
  }
  const patch = versionNumber(patchText, "patch");
  if (patch instanceof GoError) return patch;
  const pre: Identifier[] = [];
  for (const t of preTexts) {
    const id = prereleaseIdentifier(t);
    if (id instanceof GoError) return id;
    pre.push(id);
  }
  for (const t of buildTexts) {
    if (t === "") return new GoError("Build meta data is empty");
    if (!ALPHANUM.test(t)) return new GoError(`Invalid character(s) found in build meta data ${quote(t)}`);
  }
  return new SemverValue(major, minor, patch, pre, buildTexts);
}

/** Whether a part is longer than one byte in Go's UTF-8 (one character above ASCII is). */
const longerThanAByte = (p: string) => p.length > 1 || (p.length === 1 && p.charCodeAt(0) > 0x7f);

/**
 * semverlib.go `normalizeAndParse` (what the normalize flag does): one
 * leading `v` dropped, leading zeros dropped from each of the first three
 * dot-separated parts (a part of zeros alone keeping one, a part then
 * starting with anything but a digit getting a `0` back), a missing minor or
 * patch added as 0 (unless the last part given has a `-` or `+`), then
 * `parseSemver`. Unlike blang/semver's ParseTolerant, white space stays.
 */
export function normalizeAndParseSemver(s: string): SemverValue | GoError {
  const parts = splitN(s.startsWith("v") ? s.slice(1) : s, ".", 3).map((p) => {
    if (!longerThanAByte(p)) return p;
    const t = p.replace(/^0+/, "");
    return t === "" || !/^[0-9]/.test(t) ? `0${t}` : t;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1] as string))
      return new GoError("short version cannot contain PreRelease/Build meta data");
    while (parts.length < 3) parts.push("0");
  }
  return parseSemver(parts.join("."));
}

const parseWith = (s: string, normalize: boolean) => (normalize ? normalizeAndParseSemver(s) : parseSemver(s));

function semver(s: string, normalize: boolean): unknown {
  const v = parseWith(s, normalize);
  if (v instanceof GoError) throw new CelRuntimeError(v.message);
  return asCel(v);
}

const isSemver = (s: string, normalize: boolean) => !(parseWith(s, normalize) instanceof GoError);

const asSemver = (v: unknown) => opaqueOf(SemverValue, v);

/** A version number as the CEL int Go converts it to (`types.Int` of a uint64: wrapped past 2^63 - 1). */
const asInt = (n: bigint) => BigInt.asIntN(64, n);

export const SEMVER: readonly Declaration[] = [
  declare("semver(string) -> Semver", (s: string) => semver(s, false)),
  declare("semver(string, bool) -> Semver", (s: string, normalize: boolean) => semver(s, normalize)),
  declare("isSemver(string) -> bool", (s: string) => isSemver(s, false)),
  declare("isSemver(string, bool) -> bool", (s: string, normalize: boolean) => isSemver(s, normalize)),
  declare("Semver.major() -> int", function (this: unknown) {
    return asInt(asSemver(this).major);
  }),
  declare("Semver.minor() -> int", function (this: unknown) {
    return asInt(asSemver(this).minor);
  }),
  declare("Semver.patch() -> int", function (this: unknown) {
    return asInt(asSemver(this).patch);
  }),
  ...comparisonsOf("Semver"),
];
