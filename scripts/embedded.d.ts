// Modules the binary build (scripts/build.ts) provides from memory, not from files.
declare module "embedded:widget.js" {
  /** The minified widget bundle, as served at /widget.js. */
  const code: string;
  export default code;
}

declare module "embedded:console.js" {
  /** The minified workspace console bundle, as served at /console/console.js. */
  const code: string;
  export default code;
}
