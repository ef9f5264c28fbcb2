/**
 * Where a visitor sees an office on a map: OpenStreetMap (no key, no tracking script), at the
 * office's coordinates when the directory has them, else a search for its address. Built here,
 * once, so the widget never assembles a URL from directory text.
 */
export interface MappableOffice {
  address: string;
  city: string;
  province: string;
  postalCode: string;
  latitude: number | null;
  longitude: number | null;
}

export function officeMapUrl(office: MappableOffice): string {
  if (office.latitude !== null && office.longitude !== null) {
    const lat = office.latitude.toFixed(5);
    const lon = office.longitude.toFixed(5);
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
  }
  const query = `${office.address}, ${office.city}, ${office.province} ${office.postalCode}, Canada`;
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`;
}
