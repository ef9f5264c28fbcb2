import { defineConfig } from "drizzle-kit";

// drizzle-kit reads this (bun run db:generate); the app applies the output itself at start.
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
