// node.d.ts: the few Node things the Node branch of loadwasm.js uses, for `make typecheck`.
// The page takes in no @types package (Node's would retype browser globals such as setTimeout's result),
// so these are declared here, only as far as ragjudge.js uses them. Nothing loads this file at
// run time; in a browser `process` is undefined and ragjudge.js checks for that first.

declare var process: {
  versions?: { node?: string };
  cwd(): string;
};

declare module "node:fs/promises" {
  export function readFile(path: string): Promise<Uint8Array<ArrayBuffer>>; // a Buffer
  export function readFile(path: string, encoding: "utf8"): Promise<string>;
}

declare module "node:url" {
  export function fileURLToPath(url: URL | string): string;
  export function pathToFileURL(path: string): URL;
}

declare module "node:path" {
  export function resolve(...paths: string[]): string;
}

declare module "node:vm" {
  export function runInThisContext(code: string, options?: { filename?: string }): unknown;
}
