import type { ImportEvent } from "./importEvent.ts";
import { MAX_REPORTED_ERRORS } from "./importLimits.ts";
import type { RowError } from "./rowError.ts";

/** What a writer counts as it stores records. */
export interface WriteCounts {
  created: number;
  updated: number;
  unchanged: number;
  unpublished: number;
}

/**
 * The report of one import, the CLI's `--json` answer: the writer's counts, the records refused
 * (`failed`) and every row error and duplicate report in file order, the first
 * MAX_REPORTED_ERRORS of them (`errorsOmitted` counts the rest).
 */
export interface ImportSummary extends WriteCounts {
  failed: number;
  errors: RowError[];
  errorsOmitted: number;
}

/** Tallies the reader's side of the summary as a writer passes it each event. */
export class ImportTally {
  private failed = 0;
  private readonly errors: RowError[] = [];
  private errorsOmitted = 0;

  observe(event: ImportEvent<unknown>): void {
    if (event.kind === "failed") {
      this.failed++;
      this.report(event.errors);
    } else if (event.duplicate) this.report([event.duplicate]);
  }

  summary(writes: WriteCounts): ImportSummary {
    return { ...writes, failed: this.failed, errors: [...this.errors], errorsOmitted: this.errorsOmitted };
  }

  private report(errors: readonly RowError[]) {
    for (const error of errors) {
      if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push(error);
      else this.errorsOmitted++;
    }
  }
}
