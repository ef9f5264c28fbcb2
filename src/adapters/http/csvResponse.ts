/** A CSV file answer (the leads export): a download, never cached, never sniffed as HTML. */
export function csvResponse(file: { filename: string; csv: string; truncated: boolean }, headers: HeadersInit = {}): Response {
  return new Response(file.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      // The filename is ours (leads-YYYY-MM-DD.csv), never the caller's text.
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "X-Export-Truncated": String(file.truncated),
      ...headers,
    },
  });
}
