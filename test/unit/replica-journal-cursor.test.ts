import { describe, expect, test } from "bun:test";
import { JournalCursor } from "../../src/storage/pg/replicaJournalCursor.ts";

describe("JournalCursor (where a replica is in PostgreSQL's change journal)", () => {
  test("takes only numbers it has not taken, and reads on from the latest", () => {
    const cursor = new JournalCursor([3, 4, 5], 0);
    expect(cursor.readFrom()).toBe(5);
    expect(cursor.take([4, 5, 6, 7], 0)).toEqual([6, 7]);
    expect(cursor.latest()).toBe(7);
    expect(cursor.readFrom()).toBe(7);
  });

  test("a number skipped (a write not yet committed) is read again until it arrives", () => {
    const cursor = new JournalCursor([10], 0);
    expect(cursor.take([11, 13], 0)).toEqual([11, 13]);
    // 12 was taken by a transaction that commits later: the journal is read again from before it.
    expect(cursor.readFrom()).toBe(11);
    expect(cursor.take([13], 100)).toEqual([]);
    expect(cursor.take([12, 13, 14], 200)).toEqual([12, 14]);
    expect(cursor.readFrom()).toBe(14);
  });

  test("a gap never filled (a rolled-back write) is forgotten after a minute", () => {
    const cursor = new JournalCursor([1], 0);
    cursor.take([3], 0);
    expect(cursor.readFrom()).toBe(1);
    cursor.take([], 60_001);
    expect(cursor.readFrom()).toBe(3);
  });

  test("gaps seen in the snapshot a replica loaded from are watched too", () => {
    const cursor = new JournalCursor([5, 7, 8], 0);
    expect(cursor.readFrom()).toBe(5);
    expect(cursor.take([6, 7, 8], 1)).toEqual([6]);
  });

  test("an empty journal at load reads from the start", () => {
    const cursor = new JournalCursor([], 0);
    expect(cursor.readFrom()).toBe(0);
    expect(cursor.take([1, 2], 0)).toEqual([1, 2]);
  });

  test("too many gaps to watch overflow (the replica then reloads)", () => {
    const cursor = new JournalCursor([1], 0);
    cursor.take([5_000], 0);
    expect(cursor.overflowed()).toBe(true);
  });
});
