import { z } from "zod";
import { brokerId } from "./broker.ts";

export const reviewSchema = z.object({
  id: z.string().describe("The review's id, an opaque string"),
  brokerId,
  rating: z.number().int().min(1).max(5),
  title: z.string(),
  content: z.string().describe("The review text, plain text written by a customer: render it as text, never as HTML"),
  authorName: z.string().describe('First name and last initial, e.g. "Marie T."'),
  createdAt: z.string().describe("ISO 8601 UTC with milliseconds, e.g. 2025-03-04T17:22:05.120Z"),
});
export type Review = z.infer<typeof reviewSchema>;
