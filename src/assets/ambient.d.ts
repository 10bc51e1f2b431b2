// Types for files imported `with { type: "file" }` (a path) or `with { type: "text" }` (contents).
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*/bin/rg" {
  const path: string;
  export default path;
}
declare module "*.scm" {
  const text: string;
  export default text;
}
declare module "*.md" {
  const text: string;
  export default text;
}
