// Stylesheets imported as text (`with { type: "text" }`): Bun.build inlines them as strings.
declare module "*.css" {
  const text: string;
  export default text;
}
