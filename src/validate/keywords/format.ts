import { invalid } from "../../findings/index.js";
import { getKey } from "../../value/index.js";
import { formatChecker } from "../formats.js";
import { type Check, type Keyword, toPath } from "../types.js";
import { invalidType } from "./type.js";

/**
 * `format` on strings, with the formats the API server supports
 * (apiextensions' supportedFormats over kube-openapi's strfmt registry);
 * others (int32, int64, float, double, anything unknown) are ignored, as
 * the server strips them. kube-openapi reports a mismatch as a type error:
 *   spec.ip: Invalid value: "1.2.3": spec.ip in body must be of type ipv4: "1.2.3"
 * A built-in kind's field is decoded by its Go type instead, and a value it
 * cannot decode fails with Go's error (the API server refuses the body).
 */
export const formatKeyword: Keyword = {
  name: "format",
  keywords: ["format"],
  phase: "value",
  compile(schema, ctx): Check | undefined {
    const format = getKey(schema, "format");
    if (typeof format !== "string") return undefined;
    const decode = ctx.decoders && Object.hasOwn(ctx.decoders, format) ? ctx.decoders[format] : undefined;
    if (decode) {
      // A format without a type (resource.Quantity) decodes any JSON value: Go reads a number's text too.
      const typed = getKey(schema, "type") !== undefined;
      return (value, loc, run) => {
        const text = typeof value === "string" ? value : typed || value === null ? undefined : JSON.stringify(value);
        const error = text === undefined ? undefined : decode(text);
        if (error !== undefined) run.sink.push(invalid(toPath(loc), value, error));
        return undefined;
      };
    }
    const check = formatChecker(format);
    if (!check) return undefined;
    return (value, loc, run) => {
      // Here the bad value is the string itself (errors.InvalidType(path, in, format, data)).
      if (typeof value === "string" && !check(value)) run.sink.push(invalidType(loc, format, value));
      return undefined;
    };
  },
};
