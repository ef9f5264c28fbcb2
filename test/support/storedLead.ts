import type { StoredLead } from "../../src/storage/stores/leadStore.ts";

/** A lead row as the stores take it, for tests that write through a store directly: `ld_<workspaceId>_<n>`. */
export function storedLead(workspaceId: string, n: number, extra: Partial<StoredLead> = {}): StoredLead {
  return {
    id: `ld_${workspaceId}_${n}`,
    workspaceId,
    name: `Person ${n}`,
    email: `p${n}@example.com`,
    phone: "+14165550100",
    insuranceType: "auto",
    notes: null,
    brokerSlug: null,
    quoteId: null,
    source: "rest",
    status: "new",
    createdAt: 1_000,
    ...extra,
  };
}
