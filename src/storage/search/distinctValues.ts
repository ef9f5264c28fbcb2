/**
 * Values numbered by the text they come from, each distinct text made into its value once (a
 * broker's JSON list as stored, a team size, an office's place): 100,000 brokers share a few
 * thousand of them, so a load parses and keeps each once and the rows hold numbers.
 *
 * @example
 * const lists = new DistinctValues((json) => JSON.parse(json) as string[]);
 * lists.idOf('["Auto"]'); // 0
 * lists.idOf('["Auto"]'); // 0 again, parsed once
 * lists.value(0); // ["Auto"]
 */
export class DistinctValues<T> {
  private readonly values: T[] = [];
  private readonly ids = new Map<string, number>();

  constructor(private readonly make: (text: string) => T) {}

  idOf(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) this.ids.set(text, (id = this.values.push(this.make(text)) - 1));
    return id;
  }

  value(id: number): T {
    return this.values[id]!;
  }

  /** Once no more texts come (a load is over): the values stay, the texts they came from go. */
  forgetTexts(): void {
    this.ids.clear();
  }

  size(): number {
    return this.values.length;
  }
}
