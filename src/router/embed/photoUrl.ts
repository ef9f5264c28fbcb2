/** Where the app serves a broker's monogram: absolute, so a partner page can use it as is. */
export function brokerPhotoUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}/api/v1/embed/brokers/${encodeURIComponent(slug)}/photo.svg`;
}
