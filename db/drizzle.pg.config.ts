import { defineConfig } from "drizzle-kit";

// drizzle-kit reads this (bun run db:generate:pg, which first regenerates db/schema.pg.ts from
// db/tables.ts); the app applies the output itself when DATABASE_URL names a PostgreSQL
// database (src/storage/pg/migratePg.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.pg.ts",
  out: "./db/migrations-pg",
});
