import type { DirectoryDb } from "../sqlite/database.ts";

/**
 * Everything SQLite-specific about full-text search lives here (FTS5 table `brokers_fts`,
 * created by migration 0001). Moving to PostgreSQL means rewriting this module only.
 */

/** At most this many words of a query are searched; the rest of a 2,000-character paste is noise. */
const MAX_TERMS = 12;

/**
 * Turns untrusted text into a safe FTS5 query: only runs of letters and digits survive, each
 * quoted as a literal string (so AND, OR, NEAR, `-`, `:`, `*`, parentheses and quotes mean
 * nothing), all required, the last one matched as a prefix. Undefined when nothing searchable
 * remains (the caller then applies no text filter).
 */
export function toFtsQuery(text: string): string | undefined {
  const terms = text.normalize("NFC").match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_TERMS);
  if (!terms || terms.length === 0) return undefined;
  return terms.map((term, i) => `"${term}"${i === terms.length - 1 ? "*" : ""}`).join(" ");
}

/**
 * The ids (rowids) of the brokers whose name or description matches a toFtsQuery query, with
 * their bm25 relevance (lower is better): a match in the name weighs ten times one in the
 * description (columns name, description of brokers_fts). Rows come back as [id, score]
 * arrays from a statement SQLite compiles once.
 */
export function fullTextScores(db: DirectoryDb, ftsQuery: string): [number, number][] {
  return db.$client.query<[number, number], [string]>("SELECT rowid, bm25(brokers_fts, 10.0, 1.0) FROM brokers_fts WHERE brokers_fts MATCH ?").values(ftsQuery) as [number, number][];
}

/** The ids alone, for a search not ordered by relevance: without bm25, SQLite reads less per match. */
export function fullTextIds(db: DirectoryDb, ftsQuery: string): [number][] {
  return db.$client.query<[number], [string]>("SELECT rowid FROM brokers_fts WHERE brokers_fts MATCH ?").values(ftsQuery) as [number][];
}
