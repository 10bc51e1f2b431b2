// The commonmark-spec package ships no types: its spec examples, as its index.js builds them.
declare module "commonmark-spec" {
  export const tests: { markdown: string; html: string; section: string; number: number }[];
  export const text: string;
}
