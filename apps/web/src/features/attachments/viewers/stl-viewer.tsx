import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import {
  Alert,
  Box,
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
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Canvas } from '@react-three/fiber';
import { BufferGeometry } from 'three';
import { useTranslation } from 'react-i18next';
import { loadStl } from './load-stl';
import { ResetViewButton, VIEWER_CANVAS_PROPS } from './viewer-canvas';
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
import { type Vec3Tuple } from './pin-geometry';
import { PinList, PinNoteForm } from './pin-panel';
import { type StlLayer } from './stl-scene';
import {
  Scene,
  type Marker,
  type Pick,
  type SceneModel,
  type ViewerTool,
} from './stl-viewer-scene';

export type LabelledStlLayer = StlLayer & { label: string };

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
  takesEscape,
}: {
  layers: readonly LabelledStlLayer[];
  /**
   * Set by the viewer to what Esc does in it now: clear a measurement or an unsaved pin and
   * answer true, else answer false. The dialog around it asks before it closes on Esc.
   */
  takesEscape?: RefObject<(() => boolean) | null>;
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

  // Esc clears the measurement (and drops an unsaved pin) before it closes anything. Set at each
  // commit, before the next key can arrive: a second Esc right after the first finds the
  // measurement gone and closes the dialog.
  useLayoutEffect(() => {
    if (!takesEscape) return;
    takesEscape.current = () => {
      if (measure.length === 0 && draft === null) return false;
      setMeasure([]);
      setDraft(null);
      return true;
    };
    return () => {
      takesEscape.current = null;
    };
  }, [takesEscape, measure.length, draft]);

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
          <ResetViewButton onClick={() => setResets((count) => count + 1)} />
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
            {...VIEWER_CANVAS_PROPS}
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
