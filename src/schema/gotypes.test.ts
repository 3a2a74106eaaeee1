import { describe, expect, it } from "vitest";
import { attachGoUnions, unionsOfStruct } from "./attach-go.js";
import { findGoType, goEnumValues, parseGoTypes } from "./gotypes.js";
import type { SchemaNode, Union } from "./model.js";

const go = (text: string, path = "api/v1/foo_types.go") => parseGoTypes([{ path, text }]);
const unions = (text: string, type: string) => unionsOfStruct(go(text), type);
const lineOf = (text: string, needle: string, nth = 0) => {
  const lines = text.split("\n");
  const hits = lines.flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));
  return hits[nth];
};
const summary = (u: Union) => ({
  discriminator: u.discriminator,
  members: u.members.map((m) => `${m.field}=${m.value}${m.optional ? ",optional" : ""}:${m.kind}`),
  emptyValues: u.emptyValues,
  exactlyOne: u.exactlyOne,
});

const obj = (properties: Record<string, SchemaNode>, extra: Partial<SchemaNode> = {}): SchemaNode => ({
  type: "object",
  properties,
  ...extra,
});
const str: SchemaNode = { type: "string" };
const int: SchemaNode = { type: "integer" };

const kep000 = `package v1

// This will have one embedded union.
type TopLevelUnion struct {
	Name string \`json:"name"\`

	Union \`json:",inline"\`
}

// This will generate one union, with two fields and a discriminator.
// +union
type Union struct {
	// +unionDiscriminator
	// +optional
	UnionType string \`json:"unionType"\`

	// +optional
	FieldA int \`json:"fieldA"\`
	// +optional
	FieldB int \`json:"fieldB"\`
}

// This also generates one union, with two fields and on discriminator.
type Union2 struct {
	// +unionDiscriminator
	Type string \`json:"type"\`
	// +unionDeprecated
	// +optional
	Alpha int \`json:"alpha"\`
	// +unionDeprecated
	// +optional
	Beta int \`json:"beta"\`
}

// This has 3 embedded unions:
// One for the fields that are directly embedded, one for Union, and one for Union2.
type InlinedUnion struct {
	Name string \`json:"name"\`

	// +unionDeprecated
	// +optional
	Field1 *int \`json:"field1,omitempty"\`
	// +unionDeprecated
	// +optional
	Field2 *int \`json:"field2,omitempty"\`

	Union  \`json:",inline"\`
	Union2 \`json:",inline"\`
}
`;

describe("parseGoTypes", () => {
  it("reads structs, fields, tags, markers and lines", () => {
    const t = go(kep000);
    const s = findGoType(t, "InlinedUnion");
    expect(s?.kind).toBe("struct");
    if (s?.kind !== "struct") return;
    expect(s.line).toBe(lineOf(kep000, "type InlinedUnion"));
    expect(s.fields.map((f) => [f.name, f.type, f.jsonName, f.inline, f.omitEmpty])).toEqual([
      ["Name", "string", "name", false, false],
      ["Field1", "*int", "field1", false, true],
      ["Field2", "*int", "field2", false, true],
      ["Union", "Union", "Union", true, false],
      ["Union2", "Union2", "Union2", true, false],
    ]);
    const f1 = s.fields[1];
    expect(f1?.markers.map((m) => [m.name, m.line])).toEqual([
      ["unionDeprecated", lineOf(kep000, "+unionDeprecated", 2)],
      ["optional", lineOf(kep000, "+optional", 5)],
    ]);
    expect(f1?.file).toBe("api/v1/foo_types.go");
  });

  it('reads enums, consts (grouped, single, conversions) and skips json:"-"', () => {
    const text = `package v1
import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +enum
type Mode string

const (
	// ModeA is a.
	ModeA Mode = "A"
	ModeB Mode = "B"
	ModeC = Mode("C")
	unrelated = 3
)

const ModeD Mode = \`D\`

type NotEnum string

const X NotEnum = "x"

type T struct {
	metav1.TypeMeta \`json:",inline"\`
	Hidden string \`json:"-"\`
	Dash string \`json:"-,"\`
	A, B *string \`json:"ab,omitempty"\`
	Inner struct {
		X int \`json:"x"\`
	} \`json:"inner"\`
}
`;
    const t = go(text);
    expect(goEnumValues(t, "Mode")).toEqual(["A", "B", "C", "D"]);
    expect(goEnumValues(t, "NotEnum")).toBeUndefined();
    const s = findGoType(t, "T");
    if (s?.kind !== "struct") throw new Error("T");
    expect(s.fields.map((f) => `${f.name}:${f.jsonName}`)).toEqual([
      "TypeMeta:TypeMeta",
      "Dash:-",
      "A:ab",
      "B:ab",
      "Inner:inner",
    ]);
    expect(s.fields[0]?.embedded).toBe(true);
    expect(t.files[0]?.imports.get("metav1")).toBe("k8s.io/apimachinery/pkg/apis/meta/v1");
  });

  it("tolerates functions, methods, interfaces, generics, strings and block comments", () => {
    const text = `package v1
/* a block comment with type Fake struct { and "quotes" */
func (f *Foo) Do(x map[string]int) error {
	s := "}"
	r := '{'
	raw := \`
type Fake struct {}
\`
	if x != nil { return nil }
	return nil
}
type I interface {
	M() string
}
type List[T any] struct {
	Items []T \`json:"items"\`
}
type Arr [4]int
// +union
type Foo struct {
	A *int \`json:"a,omitempty"\` // trailing +comment
	B *int "json:\\"b,omitempty\\""
}
func broken( {
`;
    const t = go(text);
    expect([...t.byName.keys()]).toEqual(["I", "List", "Arr", "Foo"]);
    const foo = findGoType(t, "Foo");
    expect(foo?.kind === "struct" && foo.fields.map((f) => f.jsonName)).toEqual(["a", "b"]);
    expect(foo?.markers.map((m) => m.name)).toEqual(["union"]);
    for (const junk of ["", "type", "const (", "`", '"', "/*", "}}}))"])
      expect([...go(junk).byName.keys()]).toEqual([]);
    // A struct cut short keeps what was read of it.
    expect([...go("type X struct {").byName.keys()]).toEqual(["X"]);
    const x = findGoType(go("type X struct { A"), "X");
    expect(x?.kind === "struct" && x.fields.map((f) => f.name)).toEqual(["A"]);
  });

  it("takes type markers from the comment group one blank line above (controller-tools)", () => {
    const text = `package v1

// +kubebuilder:object:root=true
// +kubebuilder:validation:ExactlyOneOf=a;b

// Foo is documented here.
//
// +optional
type Foo struct {
	A *int \`json:"a,omitempty"\`
	B *int \`json:"b,omitempty"\`
}
`;
    expect(findGoType(go(text), "Foo")?.markers.map((m) => m.name)).toEqual([
      "kubebuilder:object:root",
      "kubebuilder:validation:ExactlyOneOf",
      "optional",
    ]);
  });
});

describe("unionsOfStruct: KEP-1027 first version", () => {
  it("+union makes every field but the discriminator a member", () => {
    const { unions: u, findings } = unions(kep000, "Union");
    expect(findings).toEqual([]);
    expect(u.map(summary)).toEqual([
      {
        discriminator: "unionType",
        members: ["fieldA=FieldA:zero", "fieldB=FieldB:zero"],
        emptyValues: [],
        exactlyOne: false,
      },
    ]);
    expect(u[0]?.origin).toBe(`+union Union (api/v1/foo_types.go:${lineOf(kep000, "+union")})`);
  });

  it("+unionDeprecated joins the single discriminator; a required discriminator makes it exactly one", () => {
    const { unions: u } = unions(kep000, "Union2");
    expect(u.map(summary)).toEqual([
      { discriminator: "type", members: ["alpha=Alpha:zero", "beta=Beta:zero"], emptyValues: [], exactlyOne: true },
    ]);
    expect(u[0]?.origin).toMatch(/^\+unionDiscriminator Union2\.type \(api\/v1\/foo_types\.go:\d+\)$/);
  });

  it("+unionDeprecated without a discriminator is at most one", () => {
    const { unions: u } = unions(kep000, "InlinedUnion");
    expect(u.map(summary)).toEqual([
      {
        discriminator: undefined,
        members: ["field1=Field1:scalar", "field2=Field2:scalar"],
        emptyValues: [],
        exactlyOne: false,
      },
    ]);
  });

  it("inline embedding gives three unions on one schema node", () => {
    const root = obj({
      spec: obj({
        name: str,
        field1: int,
        field2: int,
        unionType: str,
        fieldA: int,
        fieldB: int,
        type: str,
        alpha: int,
        beta: int,
      }),
    });
    const text = `${kep000}\ntype Kind struct {\n\tSpec InlinedUnion \`json:"spec"\`\n}\n`;
    const findings = attachGoUnions(root, go(text), "Kind");
    expect(findings).toEqual([]);
    const spec = root.properties?.spec;
    expect(spec?.unions?.map((u) => u.members.map((m) => m.field))).toEqual([
      ["field1", "field2"],
      ["fieldA", "fieldB"],
      ["alpha", "beta"],
    ]);
    expect(spec?.unions?.map((u) => u.discriminator)).toEqual([undefined, "unionType", "type"]);
  });
});

const kep002 = `package v1

// +enum
type UnionType string

const (
  FieldA UnionType = "FieldA"
  FieldB UnionType = "FieldB"
  FieldC UnionType = "FieldC"
  FieldD UnionType = "FieldD"
  FieldNone UnionType = ""
)

// This will generate one union, with two fields and a discriminator.
type Union struct {
  // +unionDiscriminator
  // +required
  UnionType UnionType \`json:"unionType"\`

  // +unionMember
  // +optional
  FieldA int \`json:"fieldA"\`
  // +unionMember,optional
  // +optional
  FieldB int \`json:"fieldB"\`
}

// +enum
type Union2Type string

const (
  Alpha Union2Type = "ALPHA"
  Beta = "BETA"
)

type Union2 struct {
  // +unionDiscriminator
  // +required
  Type2 Union2Type \`json:"type"\`
  // +unionMember=ALPHA
  // +optional
  Alpha int \`json:"alpha"\`
  // +unionMember=BETA,optional
  // +optional
  Beta int \`json:"beta"\`
}
`;

describe("unionsOfStruct: KEP-1027 latest (+unionMember, enums)", () => {
  it("default values, ,optional and the declared empty string", () => {
    const { unions: u, findings } = unions(kep002, "Union");
    expect(findings).toEqual([]);
    expect(u.map(summary)).toEqual([
      {
        discriminator: "unionType",
        members: ["fieldA=FieldA:zero", "fieldB=FieldB,optional:zero"],
        emptyValues: ["FieldC", "FieldD", ""],
        exactlyOne: true,
      },
    ]);
  });

  it("+unionMember=<value> customises the discriminator value", () => {
    const { unions: u, findings } = unions(kep002, "Union2");
    expect(findings).toEqual([]);
    expect(u.map(summary)).toEqual([
      {
        discriminator: "type",
        members: ["alpha=ALPHA:zero", "beta=BETA,optional:zero"],
        emptyValues: [],
        exactlyOne: true,
      },
    ]);
  });

  it("+unionDiscriminatedBy picks the discriminator among several", () => {
    const text = `package v1
type Multi struct {
	// +unionDiscriminator
	// +optional
	Kind *string \`json:"kind,omitempty"\`
	// +unionDiscriminator
	Mode string \`json:"mode"\`
	// +unionMember
	// +unionDiscriminatedBy=Kind
	Foo *Foo \`json:"foo,omitempty"\`
	// +unionMember
	// +unionDiscriminatedBy=Mode
	Fast []string \`json:"fast,omitempty"\`
	// +unionMember,optional
	// +unionDiscriminatedBy=Mode
	Slow map[string]string \`json:"slow,omitempty"\`
}
type Foo struct{}
`;
    const { unions: u, findings } = unions(text, "Multi");
    expect(findings).toEqual([]);
    expect(u.map(summary)).toEqual([
      { discriminator: "kind", members: ["foo=Foo:object"], emptyValues: [], exactlyOne: false },
      {
        discriminator: "mode",
        members: ["fast=Fast:list", "slow=Slow,optional:map"],
        emptyValues: [],
        exactlyOne: true,
      },
    ]);
  });
});

const strategy = `package v1

// +enum
type DeploymentStrategyType string

const (
	// Kill all existing pods before creating new ones.
	RecreateDeploymentStrategyType DeploymentStrategyType = "Recreate"

	// Replace the old ReplicaSets by new one using rolling update.
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// DeploymentStrategy describes how to replace existing pods with new ones.
type DeploymentStrategy struct {
	// Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.
	// +optional
	// +unionDiscriminator
	Type DeploymentStrategyType \`json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=DeploymentStrategyType"\`

	// Rolling update config params. Present only if DeploymentStrategyType =
	// RollingUpdate.
	// +optional
	// +unionMember
	RollingUpdate *RollingUpdateDeployment \`json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"\`
}

type RollingUpdateDeployment struct {
	MaxUnavailable *int32 \`json:"maxUnavailable,omitempty"\`
}
`;

describe("other marker families", () => {
  it("DeploymentStrategy: enum values no member claims are empty values", () => {
    const { unions: u, findings } = unions(strategy, "DeploymentStrategy");
    expect(findings).toEqual([]);
    expect(u.map(summary)).toEqual([
      {
        discriminator: "type",
        members: ["rollingUpdate=RollingUpdate:object"],
        emptyValues: ["Recreate"],
        exactlyOne: false,
      },
    ]);
  });

  it("kubebuilder ExactlyOneOf / AtMostOneOf on a CronJob-style type", () => {
    const text = `package v1
// CronJobSpec defines the desired state of CronJob.
// +kubebuilder:validation:ExactlyOneOf=schedule;scheduleRef
// +kubebuilder:validation:AtMostOneOf=suspend;suspendUntil
type CronJobSpec struct {
	// +optional
	Schedule string \`json:"schedule,omitempty"\`
	// +optional
	ScheduleRef *corev1.LocalObjectReference \`json:"scheduleRef,omitempty"\`
	// +optional
	Suspend *bool \`json:"suspend,omitempty"\`
	// +optional
	SuspendUntil *metav1.Time \`json:"suspendUntil,omitempty"\`
	JobTemplate batchv1.JobTemplateSpec \`json:"jobTemplate"\`
}
`;
    const { unions: u, findings } = unions(text, "CronJobSpec");
    expect(findings).toEqual([]);
    expect(u.map(summary)).toEqual([
      {
        discriminator: undefined,
        members: ["schedule=Schedule:zero", "scheduleRef=ScheduleRef:scalar"],
        emptyValues: [],
        exactlyOne: true,
      },
      {
        discriminator: undefined,
        members: ["suspend=Suspend:scalar", "suspendUntil=SuspendUntil:scalar"],
        emptyValues: [],
        exactlyOne: false,
      },
    ]);
    expect(u[0]?.origin).toBe(`+kubebuilder:validation:ExactlyOneOf CronJobSpec (api/v1/foo_types.go:3)`);
  });

  it("+k8s:unionMember with two named unions, a discriminator, and +k8s:zeroOrOneOfMember", () => {
    const text = `package v1
type Source struct {
	// +k8s:unionDiscriminator(union: "u1")
	// +k8s:required
	Mode *string \`json:"mode,omitempty"\`
	// +k8s:unionMember(union: "u1", memberName: "Git")
	// +optional
	GitRepo *Git \`json:"gitRepo,omitempty"\`
	// +k8s:unionMember={"union": "u1"}
	// +optional
	OCI *OCI \`json:"oci,omitempty"\`
	// +k8s:unionMember(union: "u2")
	// +optional
	ConfigMap *string \`json:"configMap,omitempty"\`
	// +k8s:unionMember(union: "u2")
	// +optional
	Secret *string \`json:"secret,omitempty"\`
	// +k8s:zeroOrOneOfMember
	// +optional
	Labels map[string]string \`json:"labels,omitempty"\`
	// +k8s:zeroOrOneOfMember
	// +optional
	Selector []string \`json:"selector,omitempty"\`
}
type Git struct{}
type OCI struct{}
`;
    const { unions: u, findings } = unions(text, "Source");
    expect(findings).toEqual([]);
    expect(u.map(summary)).toEqual([
      { discriminator: "mode", members: ["gitRepo=Git:object", "oci=OCI:object"], emptyValues: [], exactlyOne: true },
      {
        discriminator: undefined,
        members: ["configMap=ConfigMap:scalar", "secret=Secret:scalar"],
        emptyValues: [],
        exactlyOne: true,
      },
      {
        discriminator: undefined,
        members: ["labels=Labels:map", "selector=Selector:list"],
        emptyValues: [],
        exactlyOne: false,
      },
    ]);
    expect(u[1]?.origin).toMatch(/^\+k8s:unionMember\(union: "u2"\) Source \(api\/v1\/foo_types\.go:12\)$/);
  });

  it("the same union declared twice is kept once", () => {
    const text = `package v1
// +kubebuilder:validation:ExactlyOneOf=a;b
type S struct {
	// +k8s:unionMember
	A *int \`json:"a,omitempty"\`
	// +k8s:unionMember
	B *int \`json:"b,omitempty"\`
}
`;
    const { unions: u, findings } = unions(text, "S");
    expect(findings).toEqual([]);
    expect(u).toHaveLength(1);
  });
});

describe("attachGoUnions", () => {
  const files = [
    {
      path: "api/v1/widget_types.go",
      text: `package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	shared "example.com/widgets/api/shared"
)

// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   \`json:",inline"\`
	metav1.ObjectMeta \`json:"metadata,omitempty"\`
	Spec WidgetSpec \`json:"spec,omitempty"\`
}

type WidgetSpec struct {
	// +optional
	Strategy *DeploymentStrategy \`json:"strategy,omitempty"\`
	// +listType=map
	// +listMapKey=name
	Items []Item \`json:"items,omitempty"\`
	Parts map[string]shared.Part \`json:"parts,omitempty"\`
	Next *WidgetSpec \`json:"next,omitempty"\`
}

type Item struct {
	Name string \`json:"name"\`
	ItemSource \`json:",inline"\`
}
`,
    },
    {
      path: "api/v1/source_types.go",
      text: `package v1
// ItemSource is embedded in Item.
type ItemSource struct {
	// +unionDeprecated
	// +optional
	Value *string \`json:"value,omitempty"\`
	// +unionDeprecated
	// +optional
	ValueFrom *ValueSource \`json:"valueFrom,omitempty"\`
}
type ValueSource struct{}
`,
    },
    { path: "api/v1/strategy_types.go", text: strategy },
    {
      path: "api/shared/part.go",
      text: `package shared
// +kubebuilder:validation:AtMostOneOf=left;right
type Part struct {
	Left *int \`json:"left,omitempty"\`
	Right *int \`json:"right,omitempty"\`
}
`,
    },
  ];
  const schema = (): SchemaNode =>
    obj({
      apiVersion: str,
      kind: str,
      metadata: obj({}),
      spec: obj({
        strategy: obj({ type: { type: "string", enum: ["Recreate", "RollingUpdate"] }, rollingUpdate: obj({}) }),
        items: {
          type: "array",
          listMapKeys: ["name"],
          items: obj({ name: str, value: str, valueFrom: obj({}) }, { required: ["name"] }),
        },
        parts: { type: "object", additionalProperties: obj({ left: int, right: int }) },
      }),
    });

  it("walks properties, list items, map values, inline embedding and other files", () => {
    const root = schema();
    const findings = attachGoUnions(root, parseGoTypes(files), "Widget");
    expect(findings).toEqual([]);
    const spec = root.properties?.spec;
    const strat = spec?.properties?.strategy?.unions ?? [];
    expect(strat.map(summary)).toEqual([
      {
        discriminator: "type",
        members: ["rollingUpdate=RollingUpdate:object"],
        emptyValues: ["Recreate"],
        exactlyOne: false,
      },
    ]);
    expect(strat[0]?.origin).toBe(
      `+unionDiscriminator DeploymentStrategy.type (api/v1/strategy_types.go:${lineOf(strategy, "+unionDiscriminator")})`,
    );
    const item = spec?.properties?.items?.items;
    expect(item?.unions?.map(summary)).toEqual([
      {
        discriminator: undefined,
        members: ["value=Value:scalar", "valueFrom=ValueFrom:object"],
        emptyValues: [],
        exactlyOne: false,
      },
    ]);
    expect(spec?.properties?.parts?.additionalProperties?.unions?.map((u) => u.origin)).toEqual([
      "+kubebuilder:validation:AtMostOneOf Part (api/shared/part.go:2)",
    ]);
    expect(root.unions).toBeUndefined();
  });

  it("does not add a union twice and terminates on recursive types", () => {
    const root = schema();
    const t = parseGoTypes(files);
    attachGoUnions(root, t, "Widget");
    attachGoUnions(root, t, "Widget");
    expect(root.properties?.spec?.properties?.strategy?.unions).toHaveLength(1);
    const loop = parseGoTypes([
      {
        path: "a.go",
        text: 'package a\ntype A struct {\n\tB `json:",inline"`\n\tSelf *A `json:"self"`\n}\ntype B struct {\n\tA `json:",inline"`\n}\n',
      },
    ]);
    const node: SchemaNode = obj({});
    (node.properties as Record<string, SchemaNode>).self = node;
    expect(attachGoUnions(node, loop, "A")).toEqual([]);
  });

  it("ignores a kind without a Go struct; opts.file picks among versions", () => {
    expect(attachGoUnions(schema(), parseGoTypes(files), "Gadget")).toEqual([]);
    const two = (dir: string, member: string) => ({
      path: `${dir}/thing_types.go`,
      text: `package x\n// +kubebuilder:validation:AtMostOneOf=a;${member}\ntype Thing struct {\n\tA *int \`json:"a,omitempty"\`\n\tB *int \`json:"b,omitempty"\`\n\tC *int \`json:"c,omitempty"\`\n}\n`,
    });
    const t = parseGoTypes([two("api/v1", "b"), two("api/v2", "c")]);
    const fields = (opts: { file?: string }) => {
      const node = obj({ a: int, b: int, c: int });
      attachGoUnions(node, t, "Thing", opts);
      return node.unions?.[0]?.members.map((m) => m.field);
    };
    expect(fields({})).toEqual(["a", "b"]);
    expect(fields({ file: "api/v2" })).toEqual(["a", "c"]);
    expect(fields({ file: "api/v1/thing_types.go" })).toEqual(["a", "b"]);
  });
});

describe("contradictory declarations are findings with file and line", () => {
  /** `expected`: [text on the reported line, which occurrence, detail pattern]. */
  const check = (text: string, type: string, expected: Array<[string, number, RegExp]>) => {
    const { findings } = unions(text, type);
    expect(findings.map((f) => [f.line, f.detail])).toEqual(
      expected.map(([needle, nth, re]) => [lineOf(text, needle, nth), expect.stringMatching(re)]),
    );
    for (const f of findings) {
      expect(f.file).toBe("api/v1/foo_types.go");
      expect(f.type).toBe("SchemaError");
      expect(f.rule).toBe("union-declaration");
      expect(f.severity).toBe("error");
    }
  };

  it("duplicate discriminator values", () => {
    const text = `package v1
type S struct {
	// +unionDiscriminator
	Type string \`json:"type"\`
	// +unionMember=X
	A *int \`json:"a,omitempty"\`
	// +unionMember=X
	B *int \`json:"b,omitempty"\`
}
`;
    check(text, "S", [["+unionMember=X", 1, /^S: duplicate discriminator value "X" for a and b$/]]);
    expect(unions(text, "S").unions[0]?.members.map((m) => m.field)).toEqual(["a"]);
  });

  it("a field in two unions", () => {
    const text = `package v1
// +kubebuilder:validation:ExactlyOneOf=a;b
type S struct {
	A *int \`json:"a,omitempty"\`
	// +unionDeprecated
	B *int \`json:"b,omitempty"\`
	// +unionDeprecated
	C *int \`json:"c,omitempty"\`
}
`;
    check(text, "S", [["ExactlyOneOf", 0, /^S: b is in two unions: \+unionDeprecated S \(.*:5\) and \+kubebuilder/]]);
  });

  it("two discriminators and a member that does not say which", () => {
    check(
      `package v1
type S struct {
	// +unionDiscriminator
	Kind string \`json:"kind"\`
	// +unionDiscriminator
	Mode string \`json:"mode"\`
	// +unionMember
	A *int \`json:"a,omitempty"\`
	// +unionMember
	// +unionDiscriminatedBy=Nope
	B *int \`json:"b,omitempty"\`
}
`,
      "S",
      [
        ["+unionMember", 0, /^S: a: several \+unionDiscriminator fields \(kind, mode\) and no \+unionDiscriminatedBy$/],
        ["+unionDiscriminatedBy=Nope", 0, /no \+unionDiscriminator field Nope/],
      ],
    );
  });

  it("a discriminator that is not a string", () => {
    check(
      `package v1
type Level int
type S struct {
	// +unionDiscriminator
	Level Level \`json:"level"\`
	// +unionMember
	A *int \`json:"a,omitempty"\`
}
`,
      "S",
      [["+unionDiscriminator", 0, /^S: discriminator level has Go type Level, not a string$/]],
    );
  });

  it("a +unionMember value outside the discriminator's enum", () => {
    check(
      `package v1
// +enum
type ProfileType string
const (
	Localhost ProfileType = "Localhost"
	RuntimeDefault ProfileType = "RuntimeDefault"
)
type Profile struct {
	// +unionDiscriminator
	Type ProfileType \`json:"type"\`
	// +unionMember
	// +optional
	LocalhostProfile *string \`json:"localhostProfile,omitempty"\`
	// +unionMember=Remote
	RemoteProfile *string \`json:"remoteProfile,omitempty"\`
}
`,
      "Profile",
      [
        [
          "+unionMember",
          0,
          /"LocalhostProfile" \(localhostProfile\) is not a value of .*ProfileType: "Localhost", "RuntimeDefault"/,
        ],
        ["+unionMember=Remote", 0, /^Profile: \+unionMember: "Remote" \(remoteProfile\) is not a value/],
      ],
    );
  });

  it("kubebuilder ExactlyOneOf naming a field that does not exist, unreadable +k8s arguments", () => {
    check(
      `package v1
// +kubebuilder:validation:ExactlyOneOf=a;missing
type S struct {
	A *int \`json:"a,omitempty"\`
	// +k8s:unionMember(union: u1
	B *int \`json:"b,omitempty"\`
}
`,
      "S",
      [
        ["ExactlyOneOf", 0, /^S: \+kubebuilder:validation:ExactlyOneOf names missing, which is not a field of S$/],
        ["+k8s:unionMember", 0, /cannot read the arguments/],
      ],
    );
  });

  it("members and discriminators that are not properties of the schema node, with the struct's path", () => {
    const text = `package v1
type Kind struct {
	Spec Spec \`json:"spec"\`
}
type Spec struct {
	Strategy Strategy \`json:"strategy"\`
}
type Strategy struct {
	// +unionDeprecated
	A *int \`json:"a,omitempty"\`
	// +unionDeprecated
	Gone *int \`json:"gone,omitempty"\`
}
// +union
type Other struct {
	// +unionDiscriminator
	Type string \`json:"type"\`
	X *int \`json:"x,omitempty"\`
}
`;
    const root = obj({ spec: obj({ strategy: obj({ a: int }) }) });
    const findings = attachGoUnions(root, go(text), "Kind");
    expect(findings.map((f) => [f.field, f.line, f.detail])).toEqual([
      [
        "spec.strategy",
        lineOf(text, "+unionDeprecated", 1),
        "Strategy: union member gone is not a property of the schema",
      ],
    ]);
    expect(findings[0]?.path).toEqual(["spec", "strategy"]);
    expect(root.properties?.spec?.properties?.strategy?.unions?.map(summary)).toEqual([
      { discriminator: undefined, members: ["a=A:scalar"], emptyValues: [], exactlyOne: false },
    ]);
    const other = obj({ x: int });
    const f2 = attachGoUnions(other, go(text), "Other");
    expect(f2.map((f) => [f.line, f.detail])).toEqual([
      [lineOf(text, "+unionDiscriminator"), "Other: discriminator type is not a property of the schema"],
    ]);
  });

  it("the schema's enum and required list complete a discriminator without a Go enum", () => {
    const text = `package v1
type S struct {
	// +unionDiscriminator
	// +optional
	Mode string \`json:"mode,omitempty"\`
	// +unionMember
	Fast *int \`json:"fast,omitempty"\`
	// +unionMember=Turbo
	Slow *int \`json:"slow,omitempty"\`
}
`;
    const node = obj({ mode: { type: "string", enum: ["Fast", "Off"] }, fast: int, slow: int }, { required: ["mode"] });
    const findings = attachGoUnions(node, go(text), "S");
    expect(findings.map((f) => [f.line, f.detail])).toEqual([
      [lineOf(text, "+unionMember=Turbo"), 'S: "Turbo" (slow) is not in the enum of mode'],
    ]);
    expect(node.unions?.map(summary)).toEqual([
      {
        discriminator: "mode",
        members: ["fast=Fast:scalar", "slow=Turbo:scalar"],
        emptyValues: ["Off"],
        exactlyOne: true,
      },
    ]);
  });
});
