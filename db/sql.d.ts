// Bun imports .sql files as text when asked `with { type: "text" }`.
declare module "*.sql" {
  const text: string;
  export default text;
}
