import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, ColorSwatch, Group, Loader, Stack, Switch, Text } from '@mantine/core';
import { IconFocusCentered } from '@tabler/icons-react';
import { Canvas, useThree } from '@react-three/fiber';
import { DoubleSide, type BufferGeometry, type PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { useTranslation } from 'react-i18next';
import { loadStl } from './load-stl';
import { frameBox, unionBox, type StlLayer } from './stl-scene';

export type LabelledStlLayer = StlLayer & { label: string };

type Loaded = { geometry: BufferGeometry } | { error: true };

interface SceneModel {
  id: number;
  geometry: BufferGeometry;
  color: string;
  opacity: number;
  visible: boolean;
}

/** The models, lights and orbit controls; frames the visible models on load and on reset. */
function Scene(props: { models: SceneModel[]; frameKey: string; onDrawn: () => void }) {
  const camera = useThree((state) => state.camera) as PerspectiveCamera;
  const gl = useThree((state) => state.gl);
  const invalidate = useThree((state) => state.invalidate);
  const size = useThree((state) => state.size);
  const controls = useMemo(() => {
    const created = new OrbitControls(camera, gl.domElement);
    created.enablePan = true;
    created.screenSpacePanning = true;
    return created;
  }, [camera, gl]);
  useEffect(() => {
    const render = () => invalidate();
    controls.addEventListener('change', render);
    return () => {
      controls.removeEventListener('change', render);
      controls.dispose();
    };
  }, [controls, invalidate]);

  const { models, frameKey, onDrawn } = props;
  useEffect(() => {
    const shown = models.filter((model) => model.visible);
    const box = unionBox(
      (shown.length ? shown : models).map((model) => model.geometry.boundingBox),
    );
    if (!box) return;
    const framing = frameBox(box, camera.fov, size.width / Math.max(size.height, 1));
    camera.position.set(framing.position.x, framing.position.y, framing.position.z);
    camera.near = framing.near;
    camera.far = framing.far;
    camera.up.set(0, 1, 0);
    camera.updateProjectionMatrix();
    controls.target.set(framing.target.x, framing.target.y, framing.target.z);
    controls.minDistance = framing.distance / 20;
    controls.maxDistance = framing.distance * 10;
    controls.update();
    invalidate();
    // Drawn once the frame after this change has been painted.
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(onDrawn);
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
    // Framing follows the loaded set and the reset button, not every toggle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [frameKey]);

  return (
    <>
      <ambientLight intensity={0.45} />
      <hemisphereLight args={['#ffffff', '#667788', 0.7]} />
      <directionalLight position={[1, 1.5, 2]} intensity={1.1} />
      <directionalLight position={[-1.5, -1, -2]} intensity={0.5} />
      {models.map((model) => (
        <mesh
          key={model.id}
          geometry={model.geometry}
          visible={model.visible}
          renderOrder={model.opacity < 1 ? 1 : 0}
        >
          <meshStandardMaterial
            color={model.color}
            roughness={0.55}
            metalness={0.05}
            side={DoubleSide}
            transparent={model.opacity < 1}
            opacity={model.opacity}
            depthWrite={model.opacity >= 1}
          />
        </mesh>
      ))}
    </>
  );
}

/**
 * 3D viewer (lazy chunk): both jaws together in their own colours, each with a toggle, the
 * planning over the scans; orbit (one finger / left button), zoom (pinch / wheel), pan (two
 * fingers / right button) and reset. The canvas carries `data-testid="stl-canvas"` and
 * `data-loaded="true"` once the models are drawn (the end-to-end journey checks it).
 */
export function StlViewer({ layers }: { layers: readonly LabelledStlLayer[] }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Record<number, Loaded>>({});
  const [visible, setVisible] = useState<Record<number, boolean>>(() =>
    Object.fromEntries(layers.map((layer) => [layer.id, layer.visible])),
  );
  const [resets, setResets] = useState(0);
  const canvas = useRef<HTMLCanvasElement>(null);
  const layerIds = layers.map((layer) => layer.id).join(',');

  useEffect(() => {
    const controller = new AbortController();
    const geometries: BufferGeometry[] = [];
    for (const layer of layers) {
      loadStl(layer.id, controller.signal).then(
        (geometry) => {
          geometries.push(geometry);
          if (controller.signal.aborted) geometry.dispose();
          else setLoaded((current) => ({ ...current, [layer.id]: { geometry } }));
        },
        () => {
          if (!controller.signal.aborted) {
            setLoaded((current) => ({ ...current, [layer.id]: { error: true } }));
          }
        },
      );
    }
    return () => {
      controller.abort();
      for (const geometry of geometries) geometry.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [layerIds]);

  const models: SceneModel[] = layers.flatMap((layer) => {
    const entry = loaded[layer.id];
    return entry && 'geometry' in entry
      ? [
          {
            id: layer.id,
            geometry: entry.geometry,
            color: layer.color,
            opacity: layer.opacity,
            visible: visible[layer.id] ?? true,
          },
        ]
      : [];
  });
  const pending = layers.filter((layer) => !loaded[layer.id]).length;
  const failed = layers.filter((layer) => {
    const entry = loaded[layer.id];
    return entry && 'error' in entry;
  });
  const frameKey = `${models.map((model) => model.id).join(',')}#${resets}#${pending}`;

  const markDrawn = () => {
    if (canvas.current && pending === 0 && models.length > 0)
      canvas.current.dataset.loaded = 'true';
  };
  useEffect(() => {
    if (canvas.current && pending > 0) canvas.current.dataset.loaded = 'false';
  }, [pending]);

  return (
    <Stack h="100%" gap={0} data-testid="stl-viewer">
      <Group px="md" py="xs" gap="md" justify="space-between" wrap="wrap">
        <Group gap="md" wrap="wrap">
          {layers.map((layer) => (
            <Switch
              key={layer.id}
              checked={visible[layer.id] ?? true}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setVisible((current) => ({ ...current, [layer.id]: checked }));
              }}
              disabled={!loaded[layer.id] || 'error' in loaded[layer.id]!}
              label={
                <Group gap={6} wrap="nowrap">
                  <ColorSwatch color={layer.color} size={14} />
                  <Text size="sm">{t(`files:stlViewer.roles.${layer.role}`)}</Text>
                  {!loaded[layer.id] && <Loader size={12} />}
                </Group>
              }
              aria-label={t('files:stlViewer.toggle', { name: layer.label })}
            />
          ))}
        </Group>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconFocusCentered size={16} />}
          onClick={() => setResets((count) => count + 1)}
        >
          {t('files:stlViewer.reset')}
        </Button>
      </Group>
      {failed.length > 0 && (
        <Alert color="red" mx="md" mb="xs" py={6}>
          {t('files:viewers.loadFailed', { names: failed.map((layer) => layer.label).join(', ') })}
        </Alert>
      )}
      {layers.length === 0 && (
        <Text c="dimmed" p="md">
          {t('files:stlViewer.nothing')}
        </Text>
      )}
      <Box pos="relative" style={{ flex: 1, minHeight: 240, touchAction: 'none' }} bg="gray.1">
        <Canvas
          ref={canvas}
          frameloop="demand"
          dpr={[1, 2]}
          camera={{ fov: 40, position: [0, 0, 100], near: 0.1, far: 10_000 }}
          // The end-to-end test reads the pixels back to check the canvas is not blank.
          gl={{ preserveDrawingBuffer: true, antialias: true }}
          onCreated={({ gl }) => {
            gl.domElement.dataset.testid = 'stl-canvas';
            gl.domElement.dataset.loaded = 'false';
          }}
          aria-label={t('files:stlViewer.canvas')}
          role="img"
        >
          <Scene models={models} frameKey={frameKey} onDrawn={markDrawn} />
        </Canvas>
        {pending > 0 && (
          <Group pos="absolute" top={12} left={12} gap={6}>
            <Loader size="xs" />
            <Text size="xs">{t('files:viewers.loading')}</Text>
          </Group>
        )}
        <Text pos="absolute" bottom={8} left={12} size="xs" c="dimmed" visibleFrom="sm">
          {t('files:stlViewer.help')}
        </Text>
        <Text pos="absolute" bottom={8} left={12} size="xs" c="dimmed" hiddenFrom="sm">
          {t('files:stlViewer.helpTouch')}
        </Text>
      </Box>
    </Stack>
  );
}
