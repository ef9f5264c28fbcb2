/** Head-count bands a broker's team size is given in (spec 2.2 `teamSize`, "a range label"). */
export const TEAM_SIZES = ["1-10", "11-50", "51-200", "201-500", "500+"] as const;
export type TeamSize = (typeof TEAM_SIZES)[number];
