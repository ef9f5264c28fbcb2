import { z } from "zod";

export const reviewSchema = z.object({
  id: z.number().int(),
  brokerId: z.number().int(),
  authorName: z.string().describe('First name and last initial, e.g. "Marie T."'),
  rating: z.number().int().min(1).max(5),
  title: z.string(),
  body: z.string().describe("Plain text written by a customer: render it as text, never as HTML"),
  createdAt: z.string().describe("ISO 8601 UTC with milliseconds, e.g. 2025-03-04T17:22:05.120Z"),
});
export type Review = z.infer<typeof reviewSchema>;
