// wrangler bundles YAML files as text modules (wrangler.toml [[rules]]).
declare module "*.yaml" {
  const text: string;
  export default text;
}
