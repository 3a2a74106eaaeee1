/**
 * What the schema readers (`openapi.ts`, `smd.ts`) share to walk input that
 * may be deep, aliased or cyclic: a field path kept as parent links while
 * walking (an array is built only when something is reported), and a
 * breadth-first queue that gives each schema object one node however often
 * it is reached, so that a walk always ends and never recurses.
 */
import type { FieldPath } from "../path/index.js";
import type { JsonObject } from "../value/index.js";
import type { SchemaNode } from "./model.js";

/** A field path as parent links: sharing prefixes keeps deep schemas linear. */
export interface NameLink {
  up: NameLink | undefined;
  name: string;
}

/** The path of `link`, after `prefix`. */
export function linkPath(link: NameLink | undefined, prefix: FieldPath = []): FieldPath {
  const names: string[] = [];
  for (let l = link; l; l = l.up) names.push(l.name);
  return [...prefix, ...names.reverse()];
}

/** Schema objects to fill, in the order first reached, each with its node and where it was reached. */
export class NodeQueue<At> {
  readonly entries: Array<{ json: JsonObject; node: SchemaNode; at: At }> = [];
  private readonly nodes = new Map<JsonObject, SchemaNode>();

  /** Queues `json` with a node made elsewhere (a named type, which references find by name). */
  add(json: JsonObject, node: SchemaNode, at: At): void {
    this.entries.push({ json, node, at });
  }

  /** The one node of `json`: made and queued when first reached, the same node ever after. */
  nodeOf(json: JsonObject, at: At): SchemaNode {
    let node = this.nodes.get(json);
    if (!node) {
      node = {};
      this.nodes.set(json, node);
      this.add(json, node, at);
    }
    return node;
  }
}
