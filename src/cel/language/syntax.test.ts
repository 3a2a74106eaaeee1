/**
 * Where a rule's nodes are placed, the column and caret of every compile error: where cel-go's parser places
 * them (parser.go: a binary operator and `?:` at their token, a call at its opening parenthesis, the `open`
 * and `op` tokens of the grammar), whatever white space and parentheses stand around them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRule } from "./syntax.js";

const space = fc.constantFrom("", " ", "  ", "\n", "\t ");
const operand = fc.constantFrom("1", "'a'", "self.x", "[1]", "f(2)", "(3)");
const operator = fc.constantFrom("+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "in");

describe("placeAsCelGo", () => {
  it("property: a binary operator is placed at its token", () => {
    fc.assert(
      fc.property(operand, space, operator, space, operand, (left, before, op, after, right) => {
        // `in` is a word: white space around it, or it joins the operands' names
        const head = `${left}${op === "in" && before === "" ? " " : before}`;
        const text = `${head}${op}${op === "in" && after === "" ? " " : after}${right}`;
        const { expr, positions } = parseRule(text);
        expect(positions[String(expr.id)], text).toBe(head.length);
      }),
      { numRuns: 500 },
    );
  });

  it("property: a call, a method call and a macro are placed at their opening parenthesis", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("size", "self.startsWith", "self.all", "self.exists", "has"),
        space,
        space,
        (callee, before, inside) => {
          const args =
            callee === "has" ? "self.a" : callee.endsWith("startsWith") ? "'a'" : callee === "size" ? "self" : "x, x";
          const head = `${callee}${before}`;
          const text = `${head}(${inside}${args})`;
          const { expr, positions } = parseRule(text);
          expect(positions[String(expr.id)], text).toBe(head.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
