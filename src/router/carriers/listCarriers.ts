import { z } from "zod";
import { PROVINCE_CODES } from "../../domain/provinces.ts";
import { foldText } from "../../domain/text.ts";
import { insuranceTypeFilter, provinceFilter } from "../../schemas/filters.ts";
import { scopedProcedure } from "../trpc.ts";

export const listCarriersInput = z
  .object({
    province: provinceFilter.describe("Only carriers writing in this province or territory (code or name)"),
    insuranceType: insuranceTypeFilter.describe("Only carriers writing this line, e.g. Auto, Home, Life; case-insensitive"),
  })
  .optional();

export const carrierSchema = z.object({
  slug: z.string().describe("Stable id, used as carrierSlug in quotes"),
  name: z.string(),
  lines: z.array(z.string()).describe("Insurance lines it writes"),
  provinces: z.array(z.enum(PROVINCE_CODES)).describe("Where it writes them"),
});

export const listCarriersOutput = z.object({
  data: z.array(carrierSchema).describe("Carriers of the catalogue, alphabetical by name"),
  total: z.number().int(),
});

/** The carrier catalogue quotes are drawn from (30 carriers operating in Canada), optionally filtered. */
export const listCarriers = scopedProcedure("brokers:read")
  .input(listCarriersInput)
  .output(listCarriersOutput)
  .query(({ ctx, input }) => {
    const data = ctx.services.carriers
      .list()
      .filter((c) => !input?.province || c.provinces.includes(input.province))
      .filter((c) => !input?.insuranceType || c.lines.some((line) => foldText(line) === input.insuranceType))
      .map((c) => ({ slug: c.slug, name: c.name, lines: [...c.lines], provinces: [...c.provinces] }));
    return { data, total: data.length };
  });
