/**
 * Declarative hub-and-spoke conversion (docs spec conversion.md): a `Conversion` declaration (YAML, rules per
 * spoke version: rename/move, map, wrap/unwrap, set, assert, remove, default, union; one `ConversionRuleKind` per
 * rule kind in `rules/`) or its TypeScript form (`defineConversion`), the engine that converts any version to any
 * version through the hub and keeps what a version cannot hold in the `kunion.dev/conversion-data` annotation
 * (`engine.ts`, `losslessness.ts`), and the round-trip checker with schema-generated samples (`roundtrip.ts`).
 * Runtime-agnostic (no node:*, no eval). Imports cel, crd, findings, names, path, source and value.
 */

export { CONVERSION_API_VERSION, readConversion } from "./declaration.js";
export { type ConversionDefinition, defineConversion } from "./define.js";
export { type ConvertOptions, convert } from "./engine.js";
export { ANNOTATION, ANNOTATIONS_LIMIT } from "./losslessness.js";
export { roundTrip, sampleObjects } from "./roundtrip.js";
export { type Conversion, ConvertError, type SpokeConversion } from "./types.js";
