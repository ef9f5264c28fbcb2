import { dirname } from "node:path";
import { FileBackedWriter } from "./fileBackedWriter.ts";
import type { DirectoryDb } from "../sqlite/database.ts";

/**
 * Where the search index may keep its sealed text and arrays of numbers in files of its own (see
 * fileBacked, fileBackedArrays): the database's directory (a disk, as the database is; never a
 * temporary directory, which may be memory), or undefined for a database in memory.
 */
export function indexFilesDirectoryOf(db: DirectoryDb): string | undefined {
  const file = db.$client.filename;
  return file === "" || file === ":memory:" ? undefined : dirname(file);
}

/**
 * `parts` written end to end into a file of their own in `directory`, and that file's private,
 * read-only mapping; the file is unlinked at once: the kernel keeps it for as long as it is
 * mapped (the mapping goes with the last reference to the buffer), and no name of it is left
 * behind, even by a crash after this returns. Undefined when that cannot be done (no directory,
 * a read-only or full disk, a platform without mmap): the caller keeps its parts in memory, and
 * answers the same either way, only the memory differs.
 *
 * Why: the index's text with its offsets (list text, contact fields, offices) and its arrays of
 * numbers (ratings, offices, the details': about 60 MB at 100,000 brokers) are read for every
 * answer and, but for a review's ratings, never written after the load. In anonymous memory they
 * count against the process for good; as the pages of a file, like SQLite's own mapped pages,
 * they are page cache that the kernel may drop under pressure and read back from disk when next
 * touched. Reading them costs the same once they are in the cache.
 *
 * The mapping starts on a page boundary, so a part at an offset that is a multiple of 4 can be
 * viewed as an Int32Array.
 *
 * @example
 * const mapped = fileBacked([Buffer.from("Acme Insurance")], "/var/lib/broker-directory");
 * mapped?.toString(); // "Acme Insurance", now from the mapped file
 */
export function fileBacked(parts: readonly Uint8Array[], directory: string | undefined): Buffer | undefined {
  const length = parts.reduce((sum, part) => sum + part.byteLength, 0);
  // An empty file cannot be mapped (EINVAL), and a few bytes are not worth a file.
  if (length < MIN_FILE_BYTES) return undefined;
  const writer = FileBackedWriter.open(directory);
  if (!writer) return undefined;
  for (const part of parts) writer.write(part);
  return writer.finish();
}

/** Below this, the bytes stay in memory. */
const MIN_FILE_BYTES = 4096;

/** The typed arrays the index keeps (fileBackedArrays). */
export type NumberArray = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * The same arrays, as views of one mapped file (see fileBacked), in the same order and of the
 * same types; undefined when that cannot be done (the caller keeps its arrays in memory). For
 * the index's arrays of numbers, which, like its text, are never written after the load.
 *
 * @example
 * const [createdAt, rowOfRank] = fileBackedArrays([createdAt, rowOfRank], directory) ?? [createdAt, rowOfRank];
 */
export function fileBackedArrays<const T extends readonly NumberArray[]>(arrays: T, directory: string | undefined): T | undefined {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const array of arrays) {
    // Each array starts on 8 bytes, the widest element, from the page-aligned start of the file.
    const padding = (8 - (at % 8)) % 8;
    if (padding > 0) parts.push(new Uint8Array(padding));
    at += padding;
    offsets.push(at);
    parts.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    at += array.byteLength;
  }
  const mapped = fileBacked(parts, directory);
  if (!mapped || mapped.byteOffset % 8 !== 0) return undefined;
  return arrays.map((array, i) => {
    const view = array.constructor as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => NumberArray;
    return new view(mapped.buffer, mapped.byteOffset + offsets[i]!, array.length);
  }) as unknown as T;
}
