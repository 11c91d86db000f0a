import type { ComponentProps } from 'react';
import { Button } from '@mantine/core';
import { IconFocusCentered } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Canvas } from '@react-three/fiber';

/**
 * What the 3D viewer and the compare viewer's canvases share: drawn on demand (a still model
 * costs no frames), sharp on dense screens, and a drawing buffer kept so the end-to-end journeys
 * can read the pixels back and check the canvas is not blank.
 */
export const VIEWER_CANVAS_PROPS = {
  frameloop: 'demand',
  dpr: [1, 2],
  camera: { fov: 40, position: [0, 0, 100], near: 0.1, far: 10_000 },
  gl: { preserveDrawingBuffer: true, antialias: true },
} satisfies Partial<ComponentProps<typeof Canvas>>;

/** Puts the camera back where it framed the models first. */
export function ResetViewButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      size="xs"
      variant="default"
      leftSection={<IconFocusCentered size={16} />}
      onClick={onClick}
    >
      {t('files:stlViewer.reset')}
    </Button>
  );
}
