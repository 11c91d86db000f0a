/** Pure helpers of the DICOM viewer (tested without a browser canvas). */

export const DICOM_TOOLS = ['Scroll', 'WindowLevel', 'ZoomAndPan'] as const;
export type DicomTool = (typeof DICOM_TOOLS)[number];

/** dwv reads a zip of a series from a file named .zip, a single image from .dcm (or no extension). */
export function dicomFileName(filename: string, mimetype?: string | null): string {
  const lower = filename.toLowerCase();
  if (lower.endsWith('.zip') || lower.endsWith('.dcm')) return filename;
  if (mimetype === 'application/zip' || mimetype === 'application/x-zip-compressed') {
    return `${filename}.zip`;
  }
  return `${filename}.dcm`;
}

/**
 * A DOM id dwv can use: no characters an id selector chokes on (React's useId has some), and no
 * `-layer-`, which dwv puts between the group id and the layer index of its own ids.
 */
export const dicomContainerId = (reactId: string) =>
  `dicomview${reactId.replace(/[^a-zA-Z0-9_]/g, '').replace(/layer/gi, 'l')}`;
