/**
 * A broker's picture path, declared once: the embed procedures write it into their answers and
 * the static adapter (src/adapters/static/brokerPhoto.ts) answers it. Built from its two fixed
 * parts, so the path written and the path matched cannot differ.
 */
const PHOTO_PREFIX = "/api/v1/embed/brokers/";
const PHOTO_SUFFIX = "/photo.svg";

/** The route as the capability table, the access log and method refusals name it. */
export const BROKER_PHOTO_ROUTE = `${PHOTO_PREFIX}:slug${PHOTO_SUFFIX}`;

/** Where the app serves a broker's monogram: absolute, so a partner page can use it as is. */
export function brokerPhotoUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}${PHOTO_PREFIX}${encodeURIComponent(slug)}${PHOTO_SUFFIX}`;
}

/** The slug when the path is a broker photo's (one non-empty segment between the parts), else undefined. */
export function brokerPhotoSlug(pathname: string): string | undefined {
  if (!pathname.startsWith(PHOTO_PREFIX) || !pathname.endsWith(PHOTO_SUFFIX)) return undefined;
  const segment = pathname.slice(PHOTO_PREFIX.length, pathname.length - PHOTO_SUFFIX.length);
  if (segment === "" || segment.includes("/")) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
