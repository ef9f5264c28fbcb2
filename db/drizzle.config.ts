import { defineConfig } from "drizzle-kit";

// drizzle-kit reads this (bun run db:generate, which first regenerates db/schema.ts from
// db/tables.ts); the app applies the output itself at start.
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
