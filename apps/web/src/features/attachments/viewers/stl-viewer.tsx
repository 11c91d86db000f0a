import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import {
  Alert,
  Box,
  Button,
  ColorSwatch,
  Flex,
  Group,
  Loader,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconFocusCentered } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Canvas, useFrame, useThree } from '@react-three/fiber';
import {
  BufferGeometry,
  DoubleSide,
  Float32BufferAttribute,
  Line,
  LineBasicMaterial,
  Raycaster,
  TOUCH,
  Vector2,
  Vector3,
  type Mesh,
  type PerspectiveCamera,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { useTranslation } from 'react-i18next';
import { loadStl } from './load-stl';
import {
  distanceMm,
  formatDistanceMm,
  isPinnableFile,
  mayPin,
  mayResolvePin,
  type AttachmentActor,
  type Pin,
  type PinCamera,
} from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';
import { showError, showSuccess } from '../../../lib/notify';
import { createPin, filePinsQueryKey, setPinResolved, useFilePins } from '../api/pins';
import { isTap } from './gestures';
import {
  faceNormalToModel,
  modelToWorld,
  roundMm,
  worldToModel,
  type Vec3Tuple,
} from './pin-geometry';
import { PinList, PinNoteForm } from './pin-panel';
import { frameBox, unionBox, type StlLayer } from './stl-scene';

export type LabelledStlLayer = StlLayer & { label: string };

const IDENTITY_ELEMENTS = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
/** How long the camera takes to fly to a pin. */
const FLIGHT_MS = 450;
const PIN_COLOR = '#e03131';
const SELECTED_PIN_COLOR = '#f08c00';
const RESOLVED_PIN_COLOR = '#868e96';
const MEASURE_COLOR = '#d9480f';

/** Who the caller is to the pins of the planning model shown. */
interface StlPinning {
  actor: AttachmentActor;
  userId: number;
  /** The case is read only for the caller (no pins dropped). */
  readOnly: boolean;
  /** Open at this pin's camera (a link from the chat). */
  initialPinId?: number | null;
}

type Loaded = { geometry: BufferGeometry } | { error: true };

interface SceneModel {
  id: number;
  geometry: BufferGeometry;
  color: string;
  opacity: number;
  visible: boolean;
}

export type ViewerTool = 'orbit' | 'pin' | 'measure';

/** A point picked on a model: where (scene and model coordinates), its face, and the camera. */
interface Pick {
  layerId: number;
  world: Vec3Tuple;
  point: Vec3Tuple;
  normal: Vec3Tuple;
  camera: PinCamera;
}

/** A marker to draw: a pin (model coordinates of its layer) or a measuring point (scene). */
interface Marker {
  key: string;
  /** Model coordinates of `layerId`'s model, or scene coordinates when null. */
  at: Vec3Tuple;
  layerId: number | null;
  color: string;
  opacity: number;
  scale: number;
}

const tuple = (vector: { x: number; y: number; z: number }): Vec3Tuple => [
  vector.x,
  vector.y,
  vector.z,
];

/**
 * The models, lights and orbit controls; frames the visible models on load and on reset. With
 * a picking tool a tap (never a drag or two fingers: those orbit and zoom) picks the point of
 * the model under it; markers, the measuring line and camera flights are drawn here too.
 */
function Scene(props: {
  models: SceneModel[];
  frameKey: string;
  onDrawn: () => void;
  tool: ViewerTool;
  /** The layers a tap may pick (pin: the pinned planning file; measure: every visible one). */
  pickable: readonly number[];
  onPick: (pick: Pick) => void;
  markers: readonly Marker[];
  /** The measuring line's ends (scene coordinates) and the label kept over its middle. */
  line: readonly [Vec3Tuple, Vec3Tuple] | null;
  lineLabel: RefObject<HTMLDivElement | null>;
  /** A camera to fly to (model coordinates of `flight.layerId`), new on each request. */
  flight: { camera: PinCamera; layerId: number; key: string } | null;
  onFlown: (key: string) => void;
}) {
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
  const meshes = useRef(new Map<number, Mesh>());
  const matrixOf = (layerId: number) =>
    meshes.current.get(layerId)?.matrixWorld.elements ?? IDENTITY_ELEMENTS;

  // On a picking tool one finger no longer orbits (a tap picks); two fingers orbit and zoom.
  useEffect(() => {
    const picking = props.tool !== 'orbit';
    controls.touches = {
      ONE: picking ? (null as unknown as TOUCH) : TOUCH.ROTATE,
      TWO: picking ? TOUCH.DOLLY_ROTATE : TOUCH.DOLLY_PAN,
    };
  }, [controls, props.tool]);

  // Taps: pointer down and up on the canvas, with the most pointers held in between.
  const pickRef = useRef({ tool: props.tool, pickable: props.pickable, onPick: props.onPick });
  pickRef.current = { tool: props.tool, pickable: props.pickable, onPick: props.onPick };
  useEffect(() => {
    const element = gl.domElement;
    const held = new Set<number>();
    let press: { downAt: number; x: number; y: number; pointers: number } | null = null;
    const down = (event: PointerEvent) => {
      held.add(event.pointerId);
      if (held.size === 1) {
        press = { downAt: event.timeStamp, x: event.clientX, y: event.clientY, pointers: 1 };
      } else if (press) press.pointers = Math.max(press.pointers, held.size);
    };
    const up = (event: PointerEvent) => {
      held.delete(event.pointerId);
      if (!press || held.size > 0) return;
      const trace = {
        downAt: press.downAt,
        upAt: event.timeStamp,
        down: { x: press.x, y: press.y },
        up: { x: event.clientX, y: event.clientY },
        pointers: press.pointers,
      };
      press = null;
      const { tool, pickable, onPick } = pickRef.current;
      if (tool === 'orbit' || !isTap(trace)) return;
      const rect = element.getBoundingClientRect();
      const ndc = new Vector2(
        ((event.clientX - rect.left) / rect.width) * 2 - 1,
        -((event.clientY - rect.top) / rect.height) * 2 + 1,
      );
      const raycaster = new Raycaster();
      raycaster.setFromCamera(ndc, camera);
      const targets = pickable.flatMap((id) => {
        const mesh = meshes.current.get(id);
        return mesh && mesh.visible ? [mesh] : [];
      });
      const [hit] = raycaster.intersectObjects(targets, false);
      if (!hit?.face) return;
      const layerId = [...meshes.current].find(([, mesh]) => mesh === hit.object)?.[0];
      if (layerId === undefined) return;
      const matrix = hit.object.matrixWorld.elements;
      onPick({
        layerId,
        world: tuple(hit.point),
        point: roundMm(worldToModel(matrix, tuple(hit.point))),
        normal: roundMm(faceNormalToModel(tuple(hit.face.normal))),
        camera: {
          position: roundMm(worldToModel(matrix, tuple(camera.position))),
          target: roundMm(worldToModel(matrix, tuple(controls.target))),
        },
      });
    };
    const cancel = (event: PointerEvent) => {
      held.delete(event.pointerId);
      if (held.size === 0) press = null;
    };
    element.addEventListener('pointerdown', down);
    element.addEventListener('pointerup', up);
    element.addEventListener('pointercancel', cancel);
    return () => {
      element.removeEventListener('pointerdown', down);
      element.removeEventListener('pointerup', up);
      element.removeEventListener('pointercancel', cancel);
    };
  }, [gl, camera, controls]);
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

  // A flight to a pin's camera: a short ease from where the camera is.
  const { flight, onFlown } = props;
  useEffect(() => {
    if (!flight) return;
    const matrix = matrixOf(flight.layerId);
    const toPosition = new Vector3(...modelToWorld(matrix, flight.camera.position as Vec3Tuple));
    const toTarget = new Vector3(...modelToWorld(matrix, flight.camera.target as Vec3Tuple));
    const fromPosition = camera.position.clone();
    const fromTarget = controls.target.clone();
    const started = performance.now();
    let frame = 0;
    const step = () => {
      const k = Math.min((performance.now() - started) / FLIGHT_MS, 1);
      const eased = 1 - (1 - k) ** 3;
      camera.position.lerpVectors(fromPosition, toPosition, eased);
      controls.target.lerpVectors(fromTarget, toTarget, eased);
      controls.update();
      invalidate();
      if (k < 1) frame = requestAnimationFrame(step);
      else onFlown(flight.key);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
    // A flight starts on its own request only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flight?.key]);

  // The measuring line, and its label kept over the line's middle on every drawn frame.
  const line = useMemo(() => {
    if (!props.line) return null;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new Float32BufferAttribute(props.line.flat(), 3));
    return new Line(geometry, new LineBasicMaterial({ color: '#d9480f', depthTest: false }));
  }, [props.line]);
  useEffect(() => () => line?.geometry.dispose(), [line]);
  useEffect(() => invalidate(), [props.markers, line, invalidate]);
  const { lineLabel } = props;
  useFrame(() => {
    const label = lineLabel.current;
    if (!label || !props.line) return;
    const [a, b] = props.line;
    const middle = new Vector3((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
    middle.project(camera);
    label.style.left = `${((middle.x + 1) / 2) * size.width}px`;
    label.style.top = `${((1 - middle.y) / 2) * size.height}px`;
  });
  const radius = useMemo(() => {
    const box = unionBox(models.map((model) => model.geometry.boundingBox));
    return box
      ? Math.hypot(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z) / 2
      : 10;
  }, [models]);

  return (
    <>
      {props.markers.map((marker) => (
        <mesh
          key={marker.key}
          position={
            marker.layerId === null ? marker.at : modelToWorld(matrixOf(marker.layerId), marker.at)
          }
          scale={(radius / 70) * marker.scale}
          renderOrder={3}
        >
          <sphereGeometry args={[1, 16, 12]} />
          <meshBasicMaterial
            color={marker.color}
            transparent={marker.opacity < 1}
            opacity={marker.opacity}
            depthTest={false}
          />
        </mesh>
      ))}
      {line && <primitive object={line} renderOrder={2} />}
      <ambientLight intensity={0.45} />
      <hemisphereLight args={['#ffffff', '#667788', 0.7]} />
      <directionalLight position={[1, 1.5, 2]} intensity={1.1} />
      <directionalLight position={[-1.5, -1, -2]} intensity={0.5} />
      {models.map((model) => (
        <mesh
          key={model.id}
          ref={(mesh: Mesh | null) => {
            if (mesh) meshes.current.set(model.id, mesh);
            else meshes.current.delete(model.id);
          }}
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
 * fingers / right button) and reset. Tools: Pin (tap the planning model, write a note: it goes to
 * the case chat) and Measure (tap two points: the distance in mm; Esc clears). The canvas carries
 * `data-testid="stl-canvas"`, `data-loaded="true"` once the models are drawn and
 * `data-view="pin:{id}"` once it has flown to a pin (the end-to-end journeys check them).
 */
export function StlViewer({
  layers,
  openedId = null,
  pinning = null,
  onEscapeUse,
}: {
  layers: readonly LabelledStlLayer[];
  /**
   * Whether Esc is the viewer's now (it clears a measurement or an unsaved pin): the dialog
   * around it does not close on that Esc.
   */
  onEscapeUse?: (used: boolean) => void;
  /** The file the viewer was opened for: its pins when it is an STL planning file. */
  openedId?: number | null;
  pinning?: StlPinning | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [loaded, setLoaded] = useState<Record<number, Loaded>>({});
  const [visible, setVisible] = useState<Record<number, boolean>>(() =>
    Object.fromEntries(layers.map((layer) => [layer.id, layer.visible])),
  );
  const [resets, setResets] = useState(0);
  const [tool, setTool] = useState<ViewerTool>('orbit');
  const [draft, setDraft] = useState<Pick | null>(null);
  const [measure, setMeasure] = useState<Pick[]>([]);
  const [selectedPin, setSelectedPin] = useState<number | null>(null);
  const [flight, setFlight] = useState<{ camera: PinCamera; layerId: number; key: string } | null>(
    null,
  );
  const openedAtPin = useRef(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const lineLabel = useRef<HTMLDivElement>(null);
  const layerIds = layers.map((layer) => layer.id).join(',');
  // Pins go on the opened file when it is an STL planning file, else on the planning model shown.
  const pinned =
    layers.find((layer) => layer.id === openedId && isPinnableFile(layer.attachment)) ??
    layers.find((layer) => isPinnableFile(layer.attachment));
  const pinLayer = pinning && pinned ? pinned.id : null;
  const canPin = pinning !== null && !pinning.readOnly && mayPin(pinning.actor);
  const mayResolve = (pin: Pin) =>
    pinning !== null && mayResolvePin(pinning.actor, { authorId: pin.author.id }, pinning.userId);
  const pins = useFilePins(pinLayer);
  const pinItems = useMemo(() => pins.data?.items ?? [], [pins.data]);

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

  const flyTo = (pin: Pin) => {
    setSelectedPin(pin.id);
    setFlight({
      camera: pin.camera,
      layerId: pin.attachmentId,
      key: `pin:${pin.id}:${Date.now()}`,
    });
  };
  // A link from the chat opens at its pin once the models are drawn and the pins are in.
  useEffect(() => {
    if (openedAtPin.current || pending > 0 || !pinning?.initialPinId) return;
    const pin = pinItems.find((item) => item.id === pinning.initialPinId);
    if (!pin) return;
    openedAtPin.current = true;
    flyTo(pin);
  }, [pending, pinItems, pinning?.initialPinId]);

  // Esc clears the measurement (and drops an unsaved pin) before it closes anything.
  const escapeUsed = measure.length > 0 || draft !== null;
  useEffect(() => {
    onEscapeUse?.(escapeUsed);
    if (!escapeUsed) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMeasure([]);
      setDraft(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [escapeUsed, onEscapeUse]);

  const save = useMutation({
    mutationFn: (note: string) =>
      createPin(pinLayer!, {
        point: draft!.point,
        normal: draft!.normal,
        camera: draft!.camera,
        note,
      }),
    onSuccess: (pin) => {
      setDraft(null);
      setSelectedPin(pin.id);
      showSuccess(t('files:pins.saved'));
      void queryClient.invalidateQueries({ queryKey: filePinsQueryKey(pin.attachmentId) });
    },
  });
  const resolve = useMutation({
    mutationFn: ({ pin, resolved }: { pin: Pin; resolved: boolean }) =>
      setPinResolved(pin.id, resolved),
    onSuccess: (pin) =>
      queryClient.invalidateQueries({ queryKey: filePinsQueryKey(pin.attachmentId) }),
    onError: showError,
  });

  const onPick = (pick: Pick) => {
    if (tool === 'pin') {
      save.reset();
      setDraft(pick);
    } else if (tool === 'measure') {
      setMeasure((current) => (current.length >= 2 ? [pick] : [...current, pick]));
    }
  };
  const pickable =
    tool === 'pin'
      ? pinLayer !== null
        ? [pinLayer]
        : []
      : models.filter((model) => model.visible).map((model) => model.id);

  const markers: Marker[] = [
    ...pinItems.map((pin) => ({
      key: `pin-${pin.id}`,
      at: pin.point as Vec3Tuple,
      layerId: pin.attachmentId,
      color:
        pin.id === selectedPin
          ? SELECTED_PIN_COLOR
          : pin.resolvedAt
            ? RESOLVED_PIN_COLOR
            : PIN_COLOR,
      opacity: pin.resolvedAt ? 0.45 : 1,
      scale: pin.id === selectedPin ? 1.4 : 1,
    })),
    ...(draft
      ? [
          {
            key: 'draft',
            at: draft.world,
            layerId: null,
            color: SELECTED_PIN_COLOR,
            opacity: 1,
            scale: 1.4,
          },
        ]
      : []),
    ...measure.map((pick, index) => ({
      key: `measure-${index}`,
      at: pick.world,
      layerId: null,
      color: MEASURE_COLOR,
      opacity: 1,
      scale: 0.7,
    })),
  ];
  const [first, second] = measure;
  const line = useMemo(
    () => (first && second ? ([first.world, second.world] as const) : null),
    [first, second],
  );
  const distance =
    first && second
      ? formatDistanceMm(distanceMm(first.point, second.point), currentLanguage())
      : null;

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
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            size="xs"
            value={tool}
            aria-label={t('files:stlViewer.tools.label')}
            onChange={(value) => {
              setTool(value as ViewerTool);
              setDraft(null);
            }}
            data={[
              { value: 'orbit', label: t('files:stlViewer.tools.orbit') },
              ...(pinLayer !== null && canPin
                ? [{ value: 'pin', label: t('files:stlViewer.tools.pin') }]
                : []),
              { value: 'measure', label: t('files:stlViewer.tools.measure') },
            ]}
          />
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFocusCentered size={16} />}
            onClick={() => setResets((count) => count + 1)}
          >
            {t('files:stlViewer.reset')}
          </Button>
        </Group>
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
      <Flex direction={{ base: 'column', sm: 'row' }} style={{ flex: 1, minHeight: 0 }}>
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
            style={{ cursor: tool === 'orbit' ? 'grab' : 'crosshair' }}
          >
            <Scene
              models={models}
              frameKey={frameKey}
              onDrawn={markDrawn}
              tool={tool}
              pickable={pickable}
              onPick={onPick}
              markers={markers}
              line={line}
              lineLabel={lineLabel}
              flight={flight}
              onFlown={(key) => {
                if (canvas.current)
                  canvas.current.dataset.view = key.split(':').slice(0, 2).join(':');
              }}
            />
          </Canvas>
          {distance && (
            <Box
              ref={lineLabel}
              pos="absolute"
              px={6}
              py={2}
              bg="white"
              data-testid="measure-label"
              aria-live="polite"
              aria-label={t('files:stlViewer.tools.measureLabel', { distance })}
              style={{
                transform: 'translate(-50%, -130%)',
                borderRadius: 4,
                border: `1px solid ${MEASURE_COLOR}`,
                pointerEvents: 'none',
                fontSize: 13,
                fontWeight: 600,
                whiteSpace: 'nowrap',
              }}
            >
              {distance}
            </Box>
          )}
          {draft && (
            <Box pos="absolute" top={12} right={12}>
              <PinNoteForm
                onSubmit={(note) => save.mutate(note)}
                onCancel={() => setDraft(null)}
                submitting={save.isPending}
                error={save.error ? save.error.message : null}
              />
            </Box>
          )}
          {pending > 0 && (
            <Group pos="absolute" top={12} left={12} gap={6}>
              <Loader size="xs" />
              <Text size="xs">{t('files:viewers.loading')}</Text>
            </Group>
          )}
          <Text pos="absolute" bottom={8} left={12} size="xs" c="dimmed" visibleFrom="sm">
            {tool === 'pin'
              ? t('files:pins.pickHint')
              : tool === 'measure'
                ? t('files:stlViewer.tools.measureHint')
                : t('files:stlViewer.help')}
          </Text>
          <Text pos="absolute" bottom={8} left={12} size="xs" c="dimmed" hiddenFrom="sm">
            {tool === 'orbit' ? t('files:stlViewer.helpTouch') : t('files:stlViewer.helpTools')}
          </Text>
        </Box>
        {pinLayer !== null && (
          <Box
            w={{ base: '100%', sm: 300 }}
            mah={{ base: 220, sm: '100%' }}
            style={{
              borderLeft: '1px solid var(--mantine-color-default-border)',
              overflow: 'auto',
            }}
            aria-labelledby="stl-pins-title"
            component="section"
          >
            <Title order={2} size="h6" px="sm" pt="sm" id="stl-pins-title">
              {t('files:pins.title')}
            </Title>
            <PinList
              pins={pinItems}
              selectedId={selectedPin}
              mayResolve={mayResolve}
              onSelect={flyTo}
              onResolve={(pin, resolved) => resolve.mutate({ pin, resolved })}
              busyId={resolve.isPending ? (resolve.variables?.pin.id ?? null) : null}
            />
          </Box>
        )}
      </Flex>
    </Stack>
  );
}
