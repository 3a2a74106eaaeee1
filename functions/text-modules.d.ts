// wrangler bundles YAML files as text modules (wrangler.toml [[rules]]).
declare module "*.yaml" {
  const text: string;
  export default text;
}

// The workerd test lane bundles Go API types as text too (test/workerd/wrangler.toml).
declare module "*.go" {
  const text: string;
  export default text;
}
