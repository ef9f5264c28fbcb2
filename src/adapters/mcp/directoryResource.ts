import type { Principal } from "../../auth/admitRequest.ts";
import type { BrokerDetail } from "../../schemas/broker.ts";
import type { BrokerStore } from "../../storage/stores/brokerStore.ts";
import { StreamedText } from "./streamedText.ts";

/**
 * What one read of broker://directory costs against the key's rate limit: the whole directory
 * (about 1 KB per broker: 100 MB at 100,000) against a page of 20 for a search, so ten units
 * rather than one; never more than the key's whole budget, so a small key can still read it.
 */
export const DIRECTORY_READ_UNITS = 10;

export function directoryReadUnits(principal: Principal): number {
  return Math.max(1, Math.min(DIRECTORY_READ_UNITS, principal.rateLimitPerMinute ?? DIRECTORY_READ_UNITS));
}

/**
 * broker://directory: every published broker with its profile, offices and ratings, as one
 * JSON document `{generatedAt, brokers: [...], total}`, ordered by id. It is written chunk by
 * chunk straight into the response at the client's pace (see StreamedText), so memory stays
 * at about a megabyte whatever the size of the directory and however slowly the client reads. `total` comes last because it counts what was
 * actually written, even if the directory changed during a long read.
 */
export function directoryText(store: BrokerStore, now: number, release: () => void): StreamedText {
  const version = store.version();
  return new StreamedText(
    function* () {
      yield `{"generatedAt":${JSON.stringify(new Date(now).toISOString())},"brokers":[`;
      let total = 0;
      for (const chunk of store.publishedDetailChunks()) {
        let text = "";
        for (const broker of chunk) text += (total++ === 0 ? "" : ",") + JSON.stringify(broker);
        yield text;
      }
      yield `],"total":${total}}`;
    },
    (bytes) => {
      if (store.version() === version) sizeState(store).measured = { version, bytes };
    },
    release,
  );
}

interface SizeState {
  /** The exact size of the last complete read, valid while the directory has not changed. */
  measured?: { version: number; bytes: number };
  estimate?: { version: number; brokers: number; bytes: number };
}

/** Per store (one per database), so that servers sharing a process never mix figures. */
const sizes = new WeakMap<BrokerStore, SizeState>();

function sizeState(store: BrokerStore): SizeState {
  let state = sizes.get(store);
  if (!state) sizes.set(store, (state = {}));
  return state;
}

/**
 * How big the document is, for resources/list: exact once it has been read at this version,
 * else estimated from the broker count and the mean size of a sample. Kept per version.
 */
export function directorySize(store: BrokerStore): { brokers: number; bytes: number; exact: boolean } {
  const version = store.version();
  const state = sizeState(store);
  let estimate = state.estimate;
  if (estimate?.version !== version) {
    const brokers = store.countPublished();
    const sample: BrokerDetail[] = store.publishedDetailChunks(50).next().value ?? [];
    const sampleBytes = sample.reduce((sum, broker) => sum + Buffer.byteLength(JSON.stringify(broker)) + 1, 0);
    const perBroker = sample.length > 0 ? sampleBytes / sample.length : 0;
    estimate = state.estimate = { version, brokers, bytes: Math.round(64 + brokers * perBroker) };
  }
  if (state.measured?.version === version) return { brokers: estimate.brokers, bytes: state.measured.bytes, exact: true };
  return { brokers: estimate.brokers, bytes: estimate.bytes, exact: false };
}

export function humanSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
