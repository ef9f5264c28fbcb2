import { randomBytes } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Every file of ours starts with this, then the writing process's id: `.index-text-<pid>-<random>.tmp`. */
const FILE_PREFIX = ".index-text-";
const LEFTOVER = /^\.index-text-([0-9]{1,10})-[0-9a-f]{12}\.tmp$/;

/** Text is encoded into a buffer this large and written out when it fills. */
const STAGING_BYTES = 256 * 1024;
const utf8 = new TextEncoder();

/**
 * A file of the index's own written a piece at a time: then mapped read-only (`finish`; see
 * fileBacked, which writes its parts through one of these), or kept open and read at offsets
 * (`read`; see RankTexts). Text is encoded into a small staging buffer and written out as it
 * fills, so that building a large file (every broker's rendered detail: about 100 MB at 100,000
 * brokers) never holds more than that buffer besides it.
 *
 * The file is created owner-only under a random name that no one else's file can take ("wx"),
 * and unlinked when mapped, given up, or at once when kept open (`unlink`): the kernel keeps it
 * for as long as it is mapped or open, and no name of it is left behind. A write that fails (a
 * full or read-only disk) makes `finish` answer undefined and `read` false: the caller keeps to
 * the way it had before.
 *
 * @example
 * const writer = FileBackedWriter.open(directory);
 * const at = writer?.writeText("Acme Insurance"); // the text's offset in the file
 * const mapped = writer?.finish(); // the file's bytes, mapped; undefined if anything failed
 */
export class FileBackedWriter {
  private readonly staging = new Uint8Array(STAGING_BYTES);
  private staged = 0;
  private written = 0;
  private failed = false;

  private constructor(
    private fd: number | undefined,
    private readonly path: string,
  ) {}

  /** A writer of a new file in `directory`, or undefined when none can be made there. */
  static open(directory: string | undefined): FileBackedWriter | undefined {
    if (directory === undefined) return undefined;
    removeLeftovers(directory);
    const path = join(directory, `${FILE_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
    try {
      // "wx+": never someone else's file (and readable back: see read); 0600: the text is the directory's, the file ours alone.
      return new FileBackedWriter(openSync(path, "wx+", 0o600), path);
    } catch {
      removeQuietly(path);
      return undefined;
    }
  }

  /** Whether every write so far went to the file (else nothing will be read from it). */
  get intact(): boolean {
    return !this.failed && this.fd !== undefined;
  }

  /** Bytes written so far (the offset of what is written next). */
  get length(): number {
    return this.written + this.staged;
  }

  /** Appends `bytes`; answers the offset they start at. */
  write(bytes: Uint8Array): number {
    const at = this.length;
    if (this.staged + bytes.byteLength > STAGING_BYTES) this.flush();
    if (bytes.byteLength > STAGING_BYTES) this.writeOut(bytes);
    else {
      this.staging.set(bytes, this.staged);
      this.staged += bytes.byteLength;
    }
    return at;
  }

  /** Appends `text` as UTF-8; answers the offset it starts at. */
  writeText(text: string): number {
    // At most three bytes per UTF-16 unit: when it may not fit, the staged bytes go out first.
    if (this.staged + 3 * text.length > STAGING_BYTES) {
      this.flush();
      if (3 * text.length > STAGING_BYTES) return this.write(Buffer.from(text, "utf8"));
    }
    const at = this.length;
    this.staged += utf8.encodeInto(text, this.staging.subarray(this.staged)).written;
    return at;
  }

  /** The file's bytes, mapped read-only (the file is unlinked), or undefined if a write failed or nothing was written. */
  finish(): Buffer | undefined {
    try {
      this.flush();
      this.close();
      if (this.failed || this.written === 0) return undefined;
      const mapped = Bun.mmap(this.path, { shared: false });
      if (mapped.byteLength !== this.written) return undefined;
      return Buffer.from(mapped.buffer, mapped.byteOffset, mapped.byteLength);
    } catch {
      return undefined;
    } finally {
      removeQuietly(this.path);
    }
  }

  /**
   * Reads `into.byteLength` bytes written earlier, from `position` (staged ones are written out
   * first): for a file kept open and read at offsets rather than mapped (see RankTexts). False if
   * they cannot be read (a write failed, the file was given up).
   */
  read(into: Uint8Array, position: number): boolean {
    if (this.failed || this.fd === undefined || position + into.byteLength > this.length) return false;
    if (position + into.byteLength > this.written) this.flush();
    try {
      return readSync(this.fd, into, 0, into.byteLength, position) === into.byteLength;
    } catch {
      return false;
    }
  }

  /** Unlinks the file now, for one kept open for good (its descriptor keeps it; a crash leaves no name). */
  unlink(): void {
    removeQuietly(this.path);
  }

  /** Gives up the file (a newer version of the directory came first, or its reader is done with it). */
  abandon(): void {
    this.close();
    removeQuietly(this.path);
  }

  private flush(): void {
    if (this.staged === 0) return;
    this.writeOut(this.staging.subarray(0, this.staged));
    this.staged = 0;
  }

  private writeOut(bytes: Uint8Array): void {
    if (this.failed || this.fd === undefined) {
      this.failed = true;
      this.written += bytes.byteLength;
      return;
    }
    try {
      for (let at = 0; at < bytes.byteLength; ) at += writeSync(this.fd, bytes, at, bytes.byteLength - at);
    } catch {
      this.failed = true;
    }
    this.written += bytes.byteLength;
  }

  private close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      this.failed = true;
    }
    this.fd = undefined;
  }
}

/** Unlinking a mapped file is safe on Linux and macOS (the mapping keeps it); a file never made is fine too. */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Never created (the open failed first), or a platform that refuses: nothing more to do.
  }
}

/** The directories this process has looked for leftovers in: one or two (the database's), never anything from outside. */
const swept = new Set<string>();

/**
 * Removes the files of ours a process that no longer runs left in `directory`, once per
 * directory and process. A file has a name only while it is written (up to a few seconds: the
 * list items rendered after a load), but a process killed then leaves it behind, up to 100 MB
 * at 100,000 brokers, and nothing else would ever remove it. A file whose process still runs
 * (another server on the same database) is left alone; so is one whose process id was reused
 * since, the cautious side.
 */
function removeLeftovers(directory: string): void {
  if (swept.has(directory)) return;
  swept.add(directory);
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = LEFTOVER.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !running(Number(pid))) removeQuietly(join(directory, name));
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
