/**
 * node.k8s.io/v1 RuntimeClasses (pkg/apis/node/validation/validation.go
 * ValidateRuntimeClass): the handler a DNS label, the pod overhead checked as
 * a container's limits are (ValidateResourceRequirements, at
 * `overhead.limits`), and the scheduling constraints' node selector labels
 * and tolerations.
 */
import type { Finding } from "../../findings/index.js";
import { isDNS1123Label } from "../../names/index.js";
import { child } from "../../path/index.js";
import type { JsonObject } from "../../value/index.js";
import { invalidEach, objectAt, stringAt, stringMapAt, validateLabels } from "./common.js";
import { validateContainerResources } from "./resources.js";
import { validateTolerations } from "./scheduling.js";

export function validateRuntimeClass(object: JsonObject): Finding[] {
  const out: Finding[] = [];
  const handler = stringAt(object, "handler");
  // an absent handler is "", no DNS label
  if (handler !== undefined) out.push(...invalidEach(["handler"], handler, isDNS1123Label(handler)));
  const podFixed = objectAt(objectAt(object, "overhead"), "podFixed");
  if (podFixed !== undefined) out.push(...validateContainerResources({ limits: podFixed }, ["overhead"]));
  const scheduling = objectAt(object, "scheduling");
  if (scheduling !== undefined) {
    out.push(...validateLabels(stringMapAt(scheduling, "nodeSelector"), ["scheduling", "nodeSelector"]));
    out.push(...validateTolerations(scheduling, child(["scheduling"], "tolerations")));
  }
  return out;
}
