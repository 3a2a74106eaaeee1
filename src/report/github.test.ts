import { describe, expect, it } from "vitest";
import { type Finding, forbidden, invalid, parseError } from "../findings/index.js";
import { escapeData, escapeProperty, formatGithub, githubCommand } from "./index.js";

const at = (f: Finding, file: string, line?: number, column?: number): Finding => ({
  ...f,
  file,
  ...(line !== undefined ? { line } : {}),
  ...(column !== undefined ? { column } : {}),
});

/** Reads a workflow command back as the runner does (actions/runner's ActionCommand.TryParseV2). */
function parseCommand(line: string) {
  const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/s.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const unescapeData = (s: string) => s.replaceAll("%0D", "\r").replaceAll("%0A", "\n").replaceAll("%25", "%");
  const unescapeProperty = (s: string) =>
    s
      .replaceAll("%0D", "\r")
      .replaceAll("%0A", "\n")
      .replaceAll("%3A", ":")
      .replaceAll("%2C", ",")
      .replaceAll("%25", "%");
  const properties: Record<string, string> = {};
  for (const pair of (m[2] ?? "").split(",").filter(Boolean)) {
    const eq = pair.indexOf("=");
    properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
  }
  return { command: m[1], properties, message: unescapeData(m[3] as string) };
}

describe("github workflow commands", () => {
  const strategy = at(
    forbidden(["spec", "strategy", "rollingUpdate"], "may not be specified when strategy `type` is 'Recreate'", {
      rule: "union",
    }),
    "deploy/web.yaml",
    15,
    5,
  );

  it("prints an error with file, line, column and title", () => {
    expect(githubCommand(strategy)).toBe(
      "::error file=deploy/web.yaml,line=15,col=5,title=kunion union::spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
  });

  it("maps severities to error, warning and notice", () => {
    const lines = formatGithub([
      { ...strategy, severity: "notice", line: 1 },
      { ...strategy, severity: "warning", line: 2 },
      strategy,
    ]).split("\n");
    expect(lines.map((l) => l.slice(0, l.indexOf(" ")))).toEqual(["::notice", "::warning", "::error"]);
  });

  it("leaves out what the finding does not know", () => {
    expect(githubCommand(parseError("bad"))).toBe("::error title=kunion parse::Invalid document: bad");
    expect(githubCommand(at(parseError("bad"), "a.yaml"))).toBe(
      "::error file=a.yaml,title=kunion parse::Invalid document: bad",
    );
    expect(githubCommand(at(parseError("bad"), "a.yaml", 3))).toBe(
      "::error file=a.yaml,line=3,title=kunion parse::Invalid document: bad",
    );
  });

  it("escapes data and property values as GitHub requires", () => {
    expect(escapeData("100% done\r\nnext: a,b")).toBe("100%25 done%0D%0Anext: a,b");
    expect(escapeProperty("C:\\x,y%\n")).toBe("C%3A\\x%2Cy%25%0A");
    // Escaping `%` first: an already-escaped sequence is not unescaped by the runner.
    expect(escapeData("%0A")).toBe("%250A");
  });

  it("keeps a hostile message and file name inside one command", () => {
    const message = "x\n::error file=evil.yaml::injected\r\n::add-mask::secret %0A ::stop-commands::t";
    const file = "dir,with:odd/na%me\n::warning::x.yaml";
    const hostile = at(invalid(["metadata", "labels[a]"], message, "bad", { rule: "union,evil:rule" }), file, 2, 7);
    const out = formatGithub([hostile]);
    expect(out.split("\n")).toHaveLength(1);
    expect(out).not.toMatch(/[\r\n]/);
    const parsed = parseCommand(out);
    expect(parsed.command).toBe("error");
    expect(parsed.properties).toEqual({ file, line: "2", col: "7", title: "kunion union,evil:rule" });
    expect(parsed.message).toBe(hostile.message);
  });

  it("prints one line per finding, sorted by file and position", () => {
    const a = at(parseError("a"), "b.yaml", 1, 1);
    const b = at(parseError("b"), "a.yaml", 9, 1);
    const c = at(parseError("c"), "a.yaml", 2, 1);
    expect(
      formatGithub([a, b, c])
        .split("\n")
        .map((l) => parseCommand(l).message),
    ).toEqual(["Invalid document: c", "Invalid document: b", "Invalid document: a"]);
    expect(formatGithub([])).toBe("");
  });
});
