/** The Canadian table of the `zipcodes` package (CommonJS, no types of its own). */
declare module "zipcodes/lib/codesCanada.js" {
  export const codes: Record<string, { zip: string; latitude: number; longitude: number; city: string; state: string; country: string }>;
}
