import { z } from "zod";

/**
 * What the console's "Copy embed code" needs from the server (GET /console/api/embed-preview):
 * the widget's address as partners' pages must write it (PUBLIC_URL, else the address the
 * console was reached at), and an embed key for previewing the widget on this origin.
 */
export const embedPreviewSchema = z.object({
  widgetUrl: z.string().describe("The script URL for the snippet: PUBLIC_URL/widget.js, else this request's origin"),
  previewKey: z.string().nullable().describe("An embed key of this server's own origins for the live preview (no leads:write); null when none can be made"),
});
export type EmbedPreview = z.infer<typeof embedPreviewSchema>;
