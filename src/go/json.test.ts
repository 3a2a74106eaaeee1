/**
 * json.Unmarshal into a map[string]interface{}, as Go's encoding/json answers it (decode.go checkValid and
 * Unmarshal, scanner.go's messages, UnmarshalTypeError's words).
 */
import { describe, expect, it } from "vitest";
import { unmarshalIntoMapError } from "./json.js";

describe("json.Unmarshal into a map", () => {
  it.each([
    ['{"auths": {}}', undefined],
    [" null ", undefined],
    ["", "unexpected end of JSON input"],
    ['{"a": 1', "unexpected end of JSON input"],
    ["{a: 1}", "invalid character 'a' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a": 1}}', "invalid character '}' after top-level value"],
    ['{"a": tru}', "invalid character '}' in literal true (expecting 'e')"],
    ["[1]", "json: cannot unmarshal array into Go value of type map[string]interface {}"],
    ['"x"', "json: cannot unmarshal string into Go value of type map[string]interface {}"],
    ["12", "json: cannot unmarshal number into Go value of type map[string]interface {}"],
    ["true", "json: cannot unmarshal bool into Go value of type map[string]interface {}"],
  ])("%j", (text, want) => {
    expect(unmarshalIntoMapError(text)).toBe(want);
  });
});
