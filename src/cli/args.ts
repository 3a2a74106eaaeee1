import { type ParseArgsConfig, parseArgs } from "node:util";
// The CLI chooses among every release: register their schema tables (the Worker carries the default's alone).
import "../builtins/all-releases.js";
import { defaultRelease, kubernetesReleases } from "../index.js";
import { didYouMean } from "./suggest.js";

/** A usage error: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

export const usage = `Usage: kunion <command> [options] [paths]

Commands:
  validate   check manifests as the API server would: schema, CEL, unions, built-in kinds
  normalize  print objects with their unions normalized (KEP-1027)
  crd-diff   compare two revisions of a CRD: kunion crd-diff OLD NEW (files or git:REF:PATH)
  convert    convert objects to another version through the hub: --crd P --conversion P --to VERSION
  check      what the Action does, on this git checkout: changed CRDs and manifests against --base REF (default HEAD)
  serve      the HTTP API on Node: kunion serve [--port N] (docs/http.md)

Common options:
  --config F       the configuration file (default: .kunion.yaml in the working folder, if any;
                   check reads the one at the top of the git checkout; serve reads none)
  --base REF       check: the revision to compare with (default HEAD: the uncommitted changes)
  --baseline F     check: accepted findings (from --write-baseline F): only new findings fail
  --write-baseline F  check: record the current findings in F as the baseline
  --conversion P   convert: Conversion declarations (files or folders); --to VERSION the target version (v2 or group/v2)
  --crd P          CRD or SMD schema files or folders (repeatable); CRDs among the inputs count too
  --go-types P     Go API types (*_types.go files or folders) declaring unions (repeatable)
  --old P          the previous revision of the objects (matched by apiVersion/kind/namespace/name)
  -o, --output F   validate: text | json | sarif | github (default text); normalize: yaml | json (default yaml)
  -h, --help       this text
  -v, --version    the version of kunion

validate:
  --fail-on L      error | warning | notice | never (default error): exit 1 when a finding reaches L
  --no-ratcheting  report union errors an update did not introduce
  --strict / --no-strict  unknown fields as errors (default) or warnings
  --kubernetes-version V  the release to validate for: ${kubernetesReleases[0]} to ${kubernetesReleases.at(-1)} (default ${defaultRelease}; also check)
  --openapi DIR    the cluster's own OpenAPI v3 documents for Kubernetes' own kinds, in place of the release's:
                   DIR/api/v1.json, DIR/apis/<group>/<version>.json (kubectl get --raw /openapi/v3/apis/apps/v1)
  --summary        the summary line on standard output, after the findings (as kubeconform -summary)
  --skip KINDS     objects of these kinds are not checked: Kind or apiVersion/Kind, comma-separated
  --reject KINDS   objects of these kinds are errors (rule reject)
  --ignore-missing-schemas  drop the notices for objects kunion has no schema for
  --reject-missing-schemas  report objects kunion has no schema for as errors
  --max-per-file N text and github output: at most N findings per file, then one line with how many more
                   (default 50; 0: no limit); identical parse errors are one line with their count

validate and normalize:
  --ignore GLOB    files to leave out (repeatable; as .kunion.yaml's ignore): "charts/**", "**/*.tmpl.yaml"
                   files that hold templates ({{ … }}) are left out with one notice

normalize:
  --mode M         update (default) | apply (objects are applied configurations, --old the live objects)
  --policy P       kep (default) | smd (structured-merge-diff v4.3.0 behaviour)

serve:
  --port N         the port (default 8080; env PORT); HOST, KUNION_CRDS, KUNION_CONVERSIONS,
                   TLS_CERT and TLS_KEY as for npm start

Paths may be files, folders (*.yaml, *.yml, *.json) or - for standard input.
Exit codes: 0 clean, 1 findings at the failing severity, 2 usage error or unreadable input.`;

export interface CommonArgs {
  crd: string[];
  /** Globs of files to leave out, with the configuration's. */
  ignore: string[];
  /** A configuration file; without it, .kunion.yaml in the working folder if there is one. */
  config?: string;
  goTypes: string[];
  old?: string;
  output?: string;
  paths: string[];
}

export interface ValidateArgs extends CommonArgs {
  command: "validate";
  /** Undefined: the configuration's, else error. */
  failOn?: "error" | "warning" | "notice" | "never";
  ratcheting: boolean;
  /** Undefined: the configuration's, else strict. */
  strict?: boolean;
  /** A folder of the cluster's OpenAPI v3 documents, in place of the embedded tables. */
  openapi?: string;
  /** Undefined: the configuration's, else the newest. */
  kubernetesVersion?: string;
  /** The summary line on standard output. */
  summary: boolean;
  /** Kinds (`Kind` or `apiVersion/Kind`) not checked, and kinds that are errors. */
  skip: string[];
  reject: string[];
  /** Objects without a schema: a notice (undefined), dropped or an error. */
  missingSchemas?: "ignore" | "reject";
  /** At most this many findings per file in text and github output; 0: all. */
  maxPerFile: number;
}

export interface NormalizeArgs extends CommonArgs {
  command: "normalize";
  mode: "update" | "apply";
  /** Undefined: the configuration's, else kep. */
  policy?: "kep" | "smd";
}

export interface CrdDiffArgs {
  command: "crd-diff";
  old: string;
  new: string;
  output: "text" | "json" | "sarif" | "github";
  failOn?: "error" | "warning" | "notice" | "never";
  config?: string;
}

export interface CheckArgs {
  command: "check";
  base: string;
  output: "text" | "json" | "sarif" | "github";
  failOn?: "error" | "warning" | "notice" | "never";
  config?: string;
  kubernetesVersion?: string;
  /** A baseline of accepted findings to compare with: only new findings fail. */
  baseline?: string;
  /** Where to record the current findings as the baseline. */
  writeBaseline?: string;
}

export interface ConvertArgs {
  command: "convert";
  crd: string[];
  conversion: string[];
  to: string;
  output: "yaml" | "json";
  paths: string[];
  config?: string;
}

export type Args =
  | ValidateArgs
  | NormalizeArgs
  | CrdDiffArgs
  | CheckArgs
  | ConvertArgs
  | { command: "help" }
  | { command: "version" };

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, not "${value}"`);
}

const commands = ["validate", "normalize", "crd-diff", "check", "convert"] as const;
const allCommands = [...commands, "serve", "help"];
const isCommand = (c: string): c is (typeof commands)[number] => (commands as readonly string[]).includes(c);

function optionalOneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  return value === undefined ? undefined : oneOf(name, value, allowed, allowed[0] as T);
}

/** Every option of the commands parseCommandLine reads (serve has its own). */
const options = {
  crd: { type: "string", multiple: true, default: [] },
  "go-types": { type: "string", multiple: true, default: [] },
  old: { type: "string" },
  output: { type: "string", short: "o" },
  "fail-on": { type: "string" },
  ratcheting: { type: "boolean", default: true },
  strict: { type: "boolean" },
  config: { type: "string" },
  base: { type: "string" },
  baseline: { type: "string" },
  "write-baseline": { type: "string" },
  conversion: { type: "string", multiple: true, default: [] },
  to: { type: "string" },
  mode: { type: "string" },
  policy: { type: "string" },
  "kubernetes-version": { type: "string" },
  openapi: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  summary: { type: "boolean" },
  skip: { type: "string", multiple: true },
  reject: { type: "string", multiple: true },
  ignore: { type: "string", multiple: true },
  "ignore-missing-schemas": { type: "boolean" },
  "reject-missing-schemas": { type: "boolean" },
  "max-per-file": { type: "string" },
} as const satisfies ParseArgsConfig["options"];
const optionNames = Object.keys(options);
const validateOnly = [
  "summary",
  "skip",
  "reject",
  "ignore-missing-schemas",
  "reject-missing-schemas",
  "max-per-file",
] as const satisfies (keyof typeof options)[];

/**
 * kubeconform spells its options with one dash (`-strict`, `-summary`), which
 * would read as the short options `-s -t -r …`: such a word is answered with
 * kunion's spelling. A short option with its value (`-ojson`) is left alone.
 */
function singleDashLongOptions(args: readonly string[]): void {
  for (const arg of args) {
    if (arg === "--") return;
    const name = /^-([a-z][a-z-]+)(=|$)/.exec(arg)?.[1];
    if (name !== undefined && optionNames.includes(name))
      throw new UsageError(`${arg}: kunion's long options take two dashes: --${arg.slice(1)}`);
  }
}

/** Node's argument-parser errors, reworded: which option, what it needs, what was meant. */
function usageMessage(
  e: Error & { code?: string },
  known: readonly string[] = optionNames,
  shorts = "-o, -h and -v",
): string {
  // Node names an option with a short form as '-p, --port <value>': the long form is the name.
  const quoted = /'(?:-\w, )?(-[^' ]*)/.exec(e.message)?.[1] ?? "";
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const negated = quoted.startsWith("--no-") ? "no-" : "";
    const name = quoted.replace(/^--?(no-)?/, "");
    const hint = quoted.startsWith("--")
      ? didYouMean(name, known, (o) => `--${negated}${o}`)
      : `: short options are ${shorts}${didYouMean(name, known, (o) => `--${o}`)}`;
    return `unknown option ${quoted}${hint}`;
  }
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (e.message.includes("does not take an argument")) return `${quoted} takes no value`;
    if (e.message.includes("ambiguous"))
      return `${quoted} needs a value; one that begins with a dash is written ${quoted}=-VALUE`;
    return `${quoted} needs a value`;
  }
  return e.message;
}

export function parseCommandLine(argv: readonly string[]): Args {
  const [command, ...rest] = argv;
  if (command === undefined || command === "-h" || command === "--help" || command === "help")
    return { command: "help" };
  if (command === "-v" || command === "--version") return { command: "version" };
  if (!isCommand(command)) {
    if (command.startsWith("-"))
      throw new UsageError(`the command comes first (${allCommands.join(", ")}), then options: not "${command}"`);
    throw new UsageError(`unknown command "${command}"${didYouMean(command, allCommands, (c) => `"${c}"`)}`);
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    singleDashLongOptions(rest);
    parsed = parseArgs({
      args: [...rest],
      allowPositionals: true,
      allowNegative: true,
      options,
    });
  } catch (e) {
    throw e instanceof UsageError ? e : new UsageError(usageMessage(e as Error & { code?: string }));
  }
  const v = parsed.values;
  if (v.help) return { command: "help" };
  if (v.version) return { command: "version" };
  for (const name of validateOnly)
    if (v[name] !== undefined && command !== "validate") throw new UsageError(`--${name} belongs to validate`);
  if (v["ignore-missing-schemas"] && v["reject-missing-schemas"])
    throw new UsageError("--ignore-missing-schemas and --reject-missing-schemas exclude each other: choose one");
  if (v.ignore !== undefined && command !== "validate" && command !== "normalize")
    throw new UsageError(
      `--ignore belongs to validate and normalize${command === "check" ? " (check leaves out .kunion.yaml's ignore)" : ""}`,
    );

  if (v["kubernetes-version"] !== undefined && command !== "validate" && command !== "check")
    throw new UsageError("--kubernetes-version belongs to validate and check");
  if (v.openapi !== undefined && command !== "validate") throw new UsageError("--openapi belongs to validate");
  if (command === "convert") {
    if (typeof v.to !== "string") throw new UsageError("convert needs --to VERSION");
    const conversion = v.conversion as string[];
    if (conversion.length === 0) throw new UsageError("convert needs --conversion P (a Conversion declaration)");
    if (parsed.positionals.length === 0)
      throw new UsageError("convert needs at least one path (or - for standard input)");
    const out: ConvertArgs = {
      command,
      crd: v.crd as string[],
      conversion,
      to: v.to,
      output: oneOf("output", v.output as string | undefined, ["yaml", "json"], "yaml"),
      paths: parsed.positionals,
    };
    if (typeof v.config === "string") out.config = v.config;
    return out;
  }
  if (v.to !== undefined || (v.conversion as string[]).length > 0)
    throw new UsageError("--to and --conversion belong to convert");
  if (command === "check") {
    if (parsed.positionals.length > 0)
      throw new UsageError("check takes no paths: it checks what changed since --base");
    const out: CheckArgs = {
      command,
      base: typeof v.base === "string" ? v.base : "HEAD",
      output: oneOf("output", v.output as string | undefined, ["text", "json", "sarif", "github"], "text"),
      failOn: optionalOneOf("fail-on", v["fail-on"] as string | undefined, ["error", "warning", "notice", "never"]),
      kubernetesVersion: v["kubernetes-version"] as string | undefined,
    };
    if (typeof v.config === "string") out.config = v.config;
    if (typeof v.baseline === "string") out.baseline = v.baseline;
    if (typeof v["write-baseline"] === "string") out.writeBaseline = v["write-baseline"];
    return out;
  }
  if (v.base !== undefined) throw new UsageError("--base belongs to check");
  if (v.baseline !== undefined || v["write-baseline"] !== undefined)
    throw new UsageError("--baseline and --write-baseline belong to check");
  if (command === "crd-diff") {
    const [before, after, ...more] = parsed.positionals;
    if (!before || !after || more.length > 0) {
      throw new UsageError("crd-diff needs two revisions: OLD NEW (files or git:REF:PATH)");
    }
    const out: CrdDiffArgs = {
      command,
      old: before,
      new: after,
      output: oneOf("output", v.output as string | undefined, ["text", "json", "sarif", "github"], "text"),
      failOn: optionalOneOf("fail-on", v["fail-on"] as string | undefined, ["error", "warning", "notice", "never"]),
    };
    if (typeof v.config === "string") out.config = v.config;
    return out;
  }
  if (parsed.positionals.length === 0)
    throw new UsageError(`${command} needs at least one path (or - for standard input)`);
  const common: CommonArgs = {
    crd: v.crd as string[],
    goTypes: v["go-types"] as string[],
    paths: parsed.positionals,
    ignore: (v.ignore as string[] | undefined) ?? [],
  };
  if (typeof v.old === "string") common.old = v.old;
  if (typeof v.config === "string") common.config = v.config;
  if (command === "validate") {
    if (v.mode !== undefined || v.policy !== undefined) throw new UsageError("--mode and --policy belong to normalize");
    const openapi = typeof v.openapi === "string" ? { openapi: v.openapi } : {};
    return {
      ...common,
      ...openapi,
      command,
      output: oneOf("output", v.output as string | undefined, ["text", "json", "sarif", "github"], "text"),
      failOn: optionalOneOf("fail-on", v["fail-on"] as string | undefined, ["error", "warning", "notice", "never"]),
      ratcheting: v.ratcheting as boolean,
      strict: v.strict as boolean | undefined,
      kubernetesVersion: v["kubernetes-version"] as string | undefined,
      summary: v.summary === true,
      skip: kindList(v.skip as string[] | undefined),
      reject: kindList(v.reject as string[] | undefined),
      ...(v["ignore-missing-schemas"] ? { missingSchemas: "ignore" as const } : {}),
      ...(v["reject-missing-schemas"] ? { missingSchemas: "reject" as const } : {}),
      maxPerFile: count("max-per-file", v["max-per-file"] as string | undefined, 50),
    };
  }

  if (v["fail-on"] !== undefined) throw new UsageError("--fail-on belongs to validate");
  return {
    ...common,
    command,
    output: oneOf("output", v.output as string | undefined, ["yaml", "json"], "yaml"),
    mode: oneOf("mode", v.mode as string | undefined, ["update", "apply"], "update"),
    policy: optionalOneOf("policy", v.policy as string | undefined, ["kep", "smd"]),
  };
}

/** `--skip A,B --skip C`: the kinds named, each `Kind` or `apiVersion/Kind` (kubeconform's GVK). */
function kindList(given: readonly string[] | undefined): string[] {
  const kinds = (given ?? []).flatMap((g) => g.split(",")).map((k) => k.trim());
  const bad = kinds.find((k) => !/^(([A-Za-z0-9.-]+\/)?[A-Za-z0-9.-]+\/)?[A-Za-z][A-Za-z0-9]*$/.test(k));
  if (bad !== undefined)
    throw new UsageError(
      `--skip and --reject take kinds, each Kind or apiVersion/Kind (apps/v1/Deployment, v1/ConfigMap): not "${bad}"`,
    );
  return kinds;
}

/** A count option: a whole number, 0 or more. */
function count(name: string, given: string | undefined, fallback: number): number {
  if (given === undefined) return fallback;
  if (!/^\d+$/.test(given)) throw new UsageError(`--${name} must be a whole number (0: no limit), not "${given}"`);
  return Number(given);
}

/** `kunion serve [--port N]`: handled by the CLI's entry (bin.ts), which starts the HTTP server. */
export interface ServeArgs {
  command: "serve";
  /** Undefined: PORT from the environment, else 8080. */
  port?: number;
}

export function parseServeArgs(argv: readonly string[]): ServeArgs | { command: "help" } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      options: { port: { type: "string", short: "p" }, help: { type: "boolean", short: "h" } },
    });
  } catch (e) {
    throw new UsageError(usageMessage(e as Error & { code?: string }, ["port", "help"], "-p and -h"));
  }
  if (parsed.values.help) return { command: "help" };
  const port = parsed.values.port;
  if (port === undefined) return { command: "serve" };
  if (typeof port !== "string" || !/^\d+$/.test(port) || Number(port) > 65535)
    throw new UsageError(`--port must be a port number (0-65535), not "${String(port)}"`);
  return { command: "serve", port: Number(port) };
}
