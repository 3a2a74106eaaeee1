/**
 * A template is a chart's file, not a manifest; a manifest's strings may hold `{{ … }}` of their own
 * (Argo Workflows, Prometheus rules, Alertmanager templates), and such a manifest is checked.
 */
import { describe, expect, it } from "vitest";
import { parseSource } from "../source/index.js";
import { holdsTemplates } from "./templates.js";

const holds = (text: string) => holdsTemplates(text, parseSource(text, "t.yaml"));

describe("holdsTemplates", () => {
  it.each([
    ["an action naming .Values", 'apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "{{ .Values.a }}"\n'],
    ["an action naming .Release, quoted", 'metadata:\n  name: "{{ .Release.Name }}-cm"\n'],
    ["include and nindent", 'metadata:\n  labels:\n    {{- include "chart.labels" . | nindent 4 }}\n'],
    ["a control line", "kind: ConfigMap\n{{- if $enabled }}\ndata: {a: b}\n{{- end }}\n"],
    ["an unquoted action as a value", "kind: ConfigMap\nmetadata:\n  name: {{ $name }}\n"],
    ["an unquoted action before a comment", "kind: ConfigMap\nmetadata:\n  name: {{ $name }} # the name\n"],
    ["text that does not parse", "kind: ConfigMap\ndata: [{{ $x }}\n"],
  ])("%s: a template", (_, text) => {
    expect(holds(text)).toBe(true);
  });

  it.each([
    ["no `{{` at all", "kind: ConfigMap\ndata: {a: b}\n"],
    ["`{{` in comment lines only", "# {{ .Values.x }}\nkind: ConfigMap\n"],
    [
      "Argo Workflows' parameters",
      'kind: Workflow\nspec:\n  templates:\n  - name: main\n    container:\n      args: ["{{inputs.parameters.message}}"]\n',
    ],
    [
      "a PrometheusRule's annotations, plain and quoted",
      'kind: PrometheusRule\nspec:\n  groups:\n  - rules:\n    - annotations:\n        summary: Instance {{ $labels.instance }} down\n        value: "{{ $value | humanize }}"\n',
    ],
    [
      "an Alertmanager template in a block scalar",
      'kind: ConfigMap\ndata:\n  t.tmpl: |\n    {{ define "slack.title" }}{{ template "x" . }}{{ end }}\n',
    ],
    ["an alias repeating a string", 'a: &x "{{ $y }}"\nb: *x\n'],
    ["a `{{` in a comment after a value", 'kind: Workflow\nvalue: "{{duration}}"  # or {{workflow.duration}}\n'],
    ["a `#` inside a string", 'kind: ConfigMap\ndata:\n  a: "x #{{ $y }}"\n'],
    ["two documents", 'a: "{{ $x }}"\n---\nb: "{{ $y }}"\n'],
  ])("%s: a manifest", (_, text) => {
    expect(holds(text)).toBe(false);
  });
});
