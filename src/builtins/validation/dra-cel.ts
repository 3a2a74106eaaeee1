/**
 * A DRA device selector's CEL expression as pkg/apis/resource/validation validateCELSelector (1.34, 1.35) and
 * validateCELExpression (1.36) check it on create: at most 10 KiB, else compiled in DRA's environment
 * (cel/dra.ts), whose refusal is an Invalid with the expression as the bad value. Not ported: the estimated
 * cost limit ("too complex, exceeds cost limit"), for which kunion has no DRA size estimate.
 */
import { draSelectorError } from "../../cel/index.js";
import { type Finding, tooLong } from "../../findings/index.js";
import { byteLength } from "../../names/index.js";
import type { FieldPath } from "../../path/index.js";
import { celLibrariesOf } from "../releases.js";
import { asError, invalid } from "./common.js";

/** resource.CELSelectorExpressionMaxLength. */
export const celSelectorExpressionMaxLength = 10 * 1024;

/**
 * DRAConsumableCapacity (alpha in 1.34 and 1.35, beta and on from 1.36): with it the compiler declares
 * `device.allowMultipleAllocations` (dracel.Features EnableConsumableCapacity).
 */
export const consumableCapacity = (minor: number): boolean => minor >= 36;

/** The findings for `expression` at `at` (the `expression` field itself). */
export function validateSelectorExpression(expression: string, at: FieldPath, minor: number): Finding[] {
  if (byteLength(expression) > celSelectorExpressionMaxLength)
    return [tooLong(at, "", celSelectorExpressionMaxLength, asError)];
  const error = draSelectorError(expression, {
    libraries: celLibrariesOf(minor),
    consumableCapacity: consumableCapacity(minor),
  });
  return error === undefined ? [] : [invalid(at, expression, error, asError)];
}
