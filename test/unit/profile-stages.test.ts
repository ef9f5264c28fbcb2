import { expect, test } from "bun:test";
import { stagesOf, type CpuProfile } from "../../scripts/bench/profileStages.ts";

// The bench's per-stage breakdown of a miss (scripts/bench/missStages.ts) rests on this
// classifier: each sample goes to the deepest frame on its stack that names a stage.

const REPO = "file:///repo";

/** A profile of call chains (root first), each sampled for the given microseconds. */
function profileOf(chains: { frames: [name: string, url: string][]; micros: number }[]): CpuProfile {
  const nodes: { id: number; callFrame: { functionName: string; url: string }; children: number[] }[] = [{ id: 1, callFrame: { functionName: "(root)", url: "" }, children: [] }];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (const chain of chains) {
    let parent = nodes[0]!;
    for (const [functionName, url] of chain.frames) {
      const node = { id: nodes.length + 1, callFrame: { functionName, url }, children: [] };
      nodes.push(node);
      parent.children.push(node.id);
      parent = node;
    }
    samples.push(parent.id);
    timeDeltas.push(chain.micros);
  }
  return { nodes, samples, timeDeltas };
}

const door: [string, string][] = [
  ["fetchEntry", `${REPO}/src/server.ts`],
  ["handleRest", `${REPO}/src/adapters/rest/restHandler.ts`],
  ["callFrom", `${REPO}/src/router/invokeProcedure.ts`],
];

test("a detail read from the index's memory, its SQLite, its JSON and start-up each land where they belong", () => {
  const profile = profileOf([
    // The detail's fields decoded from the index: the index's stage, not the procedure around it.
    { frames: [...door, ["findBySlug", `${REPO}/src/storage/stores/brokerStore.ts`], ["row", `${REPO}/src/storage/search/detailColumns.ts`], ["utf8Slice", ""]], micros: 30 },
    // A SQLite step under the full-text search: the read, though the search index's file called it.
    { frames: [...door, ["ids", `${REPO}/src/storage/search/fullTextSearch.ts`], ["#iterate", "bun:sqlite"], ["all", ""]], micros: 20 },
    // The answer's JSON.stringify, called by the adapter itself, or by a rated answer's serializer (its own time too).
    { frames: [...door.slice(0, 2), ["stringify", ""]], micros: 4 },
    { frames: [...door.slice(0, 2), ["ratedAnswerJson", `${REPO}/src/schemas/ratedAnswerJson.ts`], ["stringify", ""]], micros: 4 },
    { frames: [...door.slice(0, 2), ["ratedAnswerJson", `${REPO}/src/schemas/ratedAnswerJson.ts`]], micros: 2 },
    // The index built before listening is start-up, whatever it calls.
    { frames: [["startApp", `${REPO}/src/app.ts`], ["warmUp", `${REPO}/src/app.ts`], ["load", `${REPO}/src/storage/search/detailColumns.ts`]], micros: 1_000 },
    { frames: [["(idle)", ""]], micros: 40 },
  ]);
  const { stages, idleShare } = stagesOf(profile, 10);
  const micros = Object.fromEntries(stages.map((s) => [s.stage, s.microsPerRequest]));
  expect(micros).toEqual({
    "SQLite read (statements, row values)": 2,
    "search index in memory (pages, details)": 3,
    "JSON.stringify of the answer": 1,
  });
  expect(stages.reduce((sum, s) => sum + s.share, 0)).toBeCloseTo(1, 9);
  expect(idleShare).toBeCloseTo(40 / 1_100, 9);
});
