import { finding, notSupported } from "../../findings/index.js";
import { quote } from "../../go/index.js";
import { getKey, type JsonObject } from "../../value/index.js";
import { supportedFormat } from "../formats.js";
import { type Check, type Keyword, kindOf, type Loc, nameOf, openAPIPath } from "../types.js";

/**
 * `type`, `nullable`, `x-kubernetes-int-or-string` (apiextensions turns it
 * into the type list `integer,string`) and the part of `format` that
 * kube-openapi's typeValidator reads. Message as kube-openapi prints it, and
 * as apiextensions maps it (`field.TypeInvalid` with the data's type name as
 * the value — kube-openapi's error carries the type name, not the data, so
 * the server prints `Invalid value: "string"`, not the rejected value):
 *   spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"
 */
export function invalidType(loc: Loc | undefined, typeName: string, actual: string) {
  return finding({
    type: "FieldValueTypeInvalid",
    path: openAPIPath(loc),
    badValue: actual,
    detail: `${nameOf(loc)} in body must be of type ${typeName}: ${quote(actual)}`,
  });
}

const types = new Set(["object", "array", "string", "integer", "number", "boolean"]);

export const typeKeyword: Keyword = {
  name: "type",
  keywords: ["type", "nullable", "x-kubernetes-int-or-string", "format"],
  phase: "value",
  nulls: true,
  compile(schema: JsonObject, ctx): Check | undefined {
    const declared = getKey(schema, "type");
    if (declared !== undefined && declared !== "" && !(typeof declared === "string" && types.has(declared))) {
      // apiextensions validation.go: field.NotSupported(fldPath.Child("type"), schema.Type, openapiV3Types.List()).
      ctx.findings.push(
        notSupported([...ctx.path, "type"], declared, ["array", "boolean", "integer", "number", "object", "string"]),
      );
    }
    let list: string[] = typeof declared === "string" && types.has(declared) ? [declared] : [];
    if (getKey(schema, "x-kubernetes-int-or-string") === true) list = ["integer", "string"];
    const rawFormat = getKey(schema, "format");
    // apiextensions strips the formats it does not support (int32, int64, float…) before validating.
    const format = typeof rawFormat === "string" && supportedFormat(rawFormat) ? rawFormat : "";
    if (list.length === 0 && format === "") return undefined;
    const nullable = getKey(schema, "nullable") === true;
    const joined = list.join(",");
    const numeric = list.includes("number") || list.includes("integer");
    return (value, loc, run) => {
      if (value === null) {
        if (list.length > 0 && !nullable) run.sink.push(invalidType(loc, joined, "null"));
        return;
      }
      const kind = kindOf(value);
      const isIntFloat = kind === "integer" && list.includes("number");
      if (kind !== "string" && kind !== "array" && format !== "" && !(list.includes(kind) || isIntFloat)) {
        // The data's own format: int64 for integers, float64 ("double") for numbers.
        const dataFormat = kind === "integer" ? "int64" : kind === "number" ? "double" : "";
        run.sink.push(invalidType(loc, format, dataFormat));
        return;
      }
      if (format !== "" && !numeric && (kind === "string" || kind === "array")) return;
      if (!(list.includes(kind) || isIntFloat)) run.sink.push(invalidType(loc, joined, kind));
    };
  },
};
