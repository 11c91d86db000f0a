/**
 * A position the user chose to share ("use my location"), stored in `dataInfo.location` as
 * "latitude, longitude" in degrees with 5 decimals (about a metre: more than an address needs).
 */
export function formatLocation(latitude: number, longitude: number): string | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return `${latitude.toFixed(5)}, ${longitude.toFixed(5)}`;
}
