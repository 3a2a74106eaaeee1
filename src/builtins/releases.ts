/**
 * The Kubernetes releases kunion validates for, chosen with
 * `--kubernetes-version` (CLI), `kubernetesVersion` (.kunion.yaml) or
 * the Action's `kubernetes-version` input; the newest by default. What a
 * release changes: the API versions it still serves, and how it words CEL
 * failures.
 */
export const kubernetesReleases = ["1.32", "1.33", "1.34", "1.35", "1.36"] as const;
export type KubernetesRelease = (typeof kubernetesReleases)[number];
export const defaultRelease: KubernetesRelease = "1.36";

export const isKubernetesRelease = (v: string): v is KubernetesRelease =>
  (kubernetesReleases as readonly string[]).includes(v);

/**
 * A release as a user wrote it (`1.35`, or the number YAML reads from an
 * unquoted 1.35), or why it is not one kunion knows.
 */
export function releaseOf(value: unknown): { release: KubernetesRelease } | { error: string } {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text === "string" && isKubernetesRelease(text)) return { release: text };
  const shown = typeof text === "string" && text.length <= 16 ? `"${text}"` : "this value";
  return { error: `must be one of ${kubernetesReleases.join(", ")}, not ${shown}` };
}

/** The minor number of a release: 35 for "1.35". */
export const minorOf = (release: KubernetesRelease): number => Number(release.slice(2));

/**
 * The Kubernetes minor whose CEL libraries the API server of minor `minor` compiles a new expression with (a CRD's rule,
 * an admission policy's expression): its compatibility version, one minor below its own
 * (apiserver pkg/cel/environment DefaultCompatibilityVersion, component-base's MinCompatibilityVersion).
 */
export const celLibrariesOf = (minor: number): number => minor - 1;

/**
 * StrictIPCIDRValidation (KEP-4858), beta and on by default from 1.36: IsValidIPForLegacyField and
 * IsValidCIDRForLegacyField refuse on create the leading zeros, IPv4-mapped addresses and (of a CIDR) bits past
 * the prefix that earlier releases accept, and warn about from 1.33.
 */
export const strictIPValidation = (minor: number): boolean => minor >= 36;

/**
 * From 1.33 (kubernetes#128786) the strategies warn of IP addresses and CIDRs in apimachinery's words
 * (GetWarningsForIP, GetWarningsForCIDR), for more fields than a Service's; 1.32 warned of a Service's alone.
 */
export const apimachineryIPWarnings = (minor: number): boolean => minor >= 33;
