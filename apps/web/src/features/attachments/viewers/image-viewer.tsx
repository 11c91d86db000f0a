import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Box, Group, Modal, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconZoomReset } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  clampZoom,
  createDoubleTapDetector,
  DOUBLE_TAP_ZOOM,
  pinchZoom,
  stepIndex,
  swipeDirection,
} from './gestures';

export interface ViewerImage {
  id: number;
  url: string;
  label: string;
}

interface Transform {
  scale: number;
  x: number;
  y: number;
}
const IDENTITY: Transform = { scale: 1, x: 0, y: 0 };

/**
 * Full-screen photo viewer: arrows and swipes move between the photos; pinch and double-tap
 * (two taps within 500 ms) zoom; a zoomed photo pans with one finger or the mouse.
 */
export function ImageViewer(props: {
  images: readonly ViewerImage[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { images, index, onIndexChange } = props;
  const image = images[index];
  const [transform, setTransform] = useState<Transform>(IDENTITY);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{
    start: { x: number; y: number };
    origin: Transform;
    pinchDistance?: number;
    moved: boolean;
  } | null>(null);
  const doubleTap = useRef(createDoubleTapDetector());

  const go = (step: 1 | -1) => {
    if (images.length < 2) return;
    setTransform(IDENTITY);
    onIndexChange(stepIndex(index, images.length, step));
  };
  const goRef = useRef(go);
  goRef.current = go;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowRight') goRef.current(1);
      else if (event.key === 'ArrowLeft') goRef.current(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };

  const onPointerDown = (event: React.PointerEvent) => {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    gesture.current = {
      start: { x: event.clientX, y: event.clientY },
      origin: transform,
      pinchDistance: pointers.current.size === 2 ? distance() : undefined,
      moved: pointers.current.size > 1,
    };
  };
  const onPointerMove = (event: React.PointerEvent) => {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const current = gesture.current;
    if (current.pinchDistance && pointers.current.size === 2) {
      const scale = pinchZoom(current.origin.scale, current.pinchDistance, distance());
      setTransform({ ...current.origin, scale });
      current.moved = true;
      return;
    }
    const dx = event.clientX - current.start.x;
    const dy = event.clientY - current.start.y;
    if (Math.hypot(dx, dy) > 8) current.moved = true;
    if (current.origin.scale > 1) {
      setTransform({ ...current.origin, x: current.origin.x + dx, y: current.origin.y + dy });
    }
  };
  const onPointerUp = (event: React.PointerEvent) => {
    const current = gesture.current;
    const wasPinch = pointers.current.size > 1;
    pointers.current.delete(event.pointerId);
    if (!current || wasPinch) return;
    gesture.current = null;
    const dx = event.clientX - current.start.x;
    const dy = event.clientY - current.start.y;
    if (!current.moved) {
      if (doubleTap.current({ time: event.timeStamp, x: event.clientX, y: event.clientY })) {
        setTransform((now) =>
          now.scale > 1 ? IDENTITY : { scale: clampZoom(DOUBLE_TAP_ZOOM), x: 0, y: 0 },
        );
      }
      return;
    }
    if (current.origin.scale <= 1) {
      const direction = swipeDirection(dx, dy);
      if (direction) go(direction === 'next' ? 1 : -1);
    }
  };
  const onWheel = (event: React.WheelEvent) => {
    const scale = clampZoom(transform.scale * (event.deltaY < 0 ? 1.15 : 1 / 1.15));
    setTransform(scale === 1 ? IDENTITY : { ...transform, scale });
  };

  return (
    <Modal
      opened={Boolean(image)}
      onClose={props.onClose}
      fullScreen
      title={
        image ? (
          <Text fw={600} truncate>
            {image.label} · {index + 1}/{images.length}
          </Text>
        ) : null
      }
      styles={{ body: { height: 'calc(100dvh - 60px)', padding: 0 } }}
      closeButtonProps={{ 'aria-label': t('files:common.close') }}
    >
      {image && (
        <Box
          pos="relative"
          h="100%"
          bg="dark.8"
          style={{ overflow: 'hidden', touchAction: 'none', userSelect: 'none' }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onWheel={onWheel}
          data-testid="image-viewer-stage"
          data-zoom={transform.scale}
        >
          <img
            src={image.url}
            alt={image.label}
            draggable={false}
            style={{
              width: '100%',
              height: '100%',
              objectFit: 'contain',
              transform: `translate(${transform.x}px, ${transform.y}px) scale(${transform.scale})`,
              transition: gesture.current ? 'none' : 'transform 120ms ease-out',
            }}
          />
          <Group pos="absolute" bottom={16} left={0} right={0} justify="center" gap="sm">
            {images.length > 1 && (
              <ActionIcon
                size="xl"
                radius="xl"
                variant="white"
                aria-label={t('files:imageViewer.previous')}
                onPointerDown={(event) => event.stopPropagation()}
                onClick={() => go(-1)}
              >
                <IconChevronLeft />
              </ActionIcon>
            )}
            {transform.scale > 1 && (
              <ActionIcon
                size="xl"
                radius="xl"
                variant="white"
                aria-label={t('files:imageViewer.resetZoom')}
                onPointerDown={(event) => event.stopPropagation()}
                onClick={() => setTransform(IDENTITY)}
              >
                <IconZoomReset />
              </ActionIcon>
            )}
            {images.length > 1 && (
              <ActionIcon
                size="xl"
                radius="xl"
                variant="white"
                aria-label={t('files:imageViewer.next')}
                onPointerDown={(event) => event.stopPropagation()}
                onClick={() => go(1)}
              >
                <IconChevronRight />
              </ActionIcon>
            )}
          </Group>
        </Box>
      )}
    </Modal>
  );
}
