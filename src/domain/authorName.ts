/**
 * Shortens a reviewer's name for display: first name and the initial of the last name
 * ("Marie Tremblay" → "Marie T.", "Jean-Luc de la Fontaine" → "Jean-Luc F.", "Cher" → "Cher").
 */
export function abbreviateAuthorName(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  const first = parts[0];
  if (!first) return "Anonymous";
  const last = parts.length > 1 ? parts[parts.length - 1] : undefined;
  const initial = last ? Array.from(last)[0]?.toUpperCase() : undefined;
  return initial ? `${first} ${initial}.` : first;
}
