/**
 * How the API server decodes the string formats of its own kinds' fields:
 * each Go type's UnmarshalJSON, not the strfmt rule a CRD's `format` gets.
 * A value these refuse makes the whole body undecodable.
 * - `date-time`: metav1.Time, time.Parse(time.RFC3339) (apimachinery
 *   pkg/apis/meta/v1/time.go);
 * - `date-time-micro`: metav1.MicroTime, time.Parse(RFC3339Micro)
 *   (micro_time.go) — the generator names it as client-node does;
 * - `byte`: a `[]byte`, base64.StdEncoding (encoding/json);
 * - `quantity`: resource.Quantity, ParseQuantity of a JSON string or of a
 *   number's text (apimachinery pkg/api/resource/quantity.go UnmarshalJSON).
 */
import { decodeBase64, GoError, parseQuantity, parseRFC3339, parseRFC3339Micro } from "../go/index.js";

const messageOf = (result: unknown): string | undefined => (result instanceof GoError ? result.message : undefined);

export const builtinDecoders: Readonly<Record<string, (s: string) => string | undefined>> = {
  "date-time": (s) => messageOf(parseRFC3339(s)),
  "date-time-micro": (s) => messageOf(parseRFC3339Micro(s)),
  byte: (s) => messageOf(decodeBase64(s)),
  quantity: (s) => messageOf(parseQuantity(s)),
};
