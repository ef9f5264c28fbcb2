/** A database URL with its password taken out, for printing (a command's output, a hint). */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "postgres://…";
  }
}
