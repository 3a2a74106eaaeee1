import type { Keyword } from "../types.js";
import { arrayKeyword } from "./array.js";
import { compositeKeyword } from "./composite.js";
import { enumKeyword } from "./enum.js";
import { formatKeyword } from "./format.js";
import { listTypeKeyword } from "./list-type.js";
import { numberKeyword } from "./number.js";
import { requiredKeyword, sizeKeyword } from "./object.js";
import { stringKeyword } from "./string.js";
import { typeKeyword } from "./type.js";

/**
 * Every keyword group, in kube-openapi's validator order (type, schema
 * props, string, format, number, slice, common/enum, object). Structural
 * keys the walker interprets itself — properties, additionalProperties,
 * items, default, x-kubernetes-preserve-unknown-fields,
 * x-kubernetes-embedded-resource, x-kubernetes-validations — are compiled
 * in compile.ts.
 */
export const keywords: readonly Keyword[] = [
  typeKeyword,
  compositeKeyword,
  stringKeyword,
  formatKeyword,
  numberKeyword,
  arrayKeyword,
  enumKeyword,
  sizeKeyword,
  requiredKeyword,
  listTypeKeyword,
];
