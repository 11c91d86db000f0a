import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  ColorSwatch,
  Group,
  Loader,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  SimpleGrid,
  Slider,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { BufferAttribute, BufferGeometry } from 'three';
import { useTranslation } from 'react-i18next';
import { languageTag, isLanguage } from '@dentflow/domain';
import { loadStl } from '../load-stl';
import { ResetViewButton } from '../viewer-canvas';
import { STL_COLORS } from '../stl-scene';
import { createCameraLink } from './camera-sync';
import { DEVIATION_RANGES_MM, deviationColors, legendGradient, legendTicks } from './color-scale';
import {
  comparablePlans,
  defaultCompareWith,
  jawScans,
  orderPair,
  type CompareCandidate,
} from './compare-pair';
import { CompareCanvas, type CompareModel } from './compare-scene';
import { useDeviation } from './use-deviation';

type Mode = 'side' | 'overlay' | 'deviation';
type Loaded = { geometry: BufferGeometry } | { error: true };

/** Older grey-blue, newer amber: apart for every common colour-vision deficiency. */
const OLDER_COLOR = '#7d93b2';
const NEWER_COLOR = '#f0a020';
/** The scans under the plan: see-through so the plan stays in front. */
const SCAN_OPACITY = 0.35;

/** Downloads each requested STL once while the viewer is open; frees them when it closes. */
function useStlFiles(ids: readonly number[]): Record<number, Loaded> {
  const [loaded, setLoaded] = useState<Record<number, Loaded>>({});
  const [open] = useState(() => ({
    requests: new Map<number, AbortController>(),
    geometries: [] as BufferGeometry[],
  }));
  useEffect(() => {
    for (const id of ids) {
      if (open.requests.has(id)) continue;
      const controller = new AbortController();
      open.requests.set(id, controller);
      loadStl(id, controller.signal).then(
        (geometry) => {
          if (controller.signal.aborted) {
            geometry.dispose();
            return;
          }
          open.geometries.push(geometry);
          setLoaded((current) => ({ ...current, [id]: { geometry } }));
        },
        () => {
          if (!controller.signal.aborted) {
            setLoaded((current) => ({ ...current, [id]: { error: true } }));
          }
        },
      );
    }
  }, [ids, open]);
  useEffect(
    () => () => {
      // Only on close: a file once loaded stays for the pairs picked later.
      for (const controller of open.requests.values()) controller.abort();
      open.requests.clear();
      for (const geometry of open.geometries.splice(0)) geometry.dispose();
    },
    [open],
  );
  return loaded;
}

const geometryOf = (entry: Loaded | undefined) =>
  entry && 'geometry' in entry ? entry.geometry : null;

/** The newer plan's geometry with the map's colours (it shares positions and normals). */
function useColouredGeometry(
  newer: BufferGeometry | null,
  distances: Float32Array | null,
  rangeMm: number,
): BufferGeometry | null {
  const coloured = useMemo(() => {
    if (!newer || !distances) return null;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', newer.getAttribute('position'));
    geometry.setAttribute('normal', newer.getAttribute('normal'));
    geometry.setAttribute('color', new BufferAttribute(deviationColors(distances, rangeMm), 3));
    geometry.boundingBox = newer.boundingBox?.clone() ?? null;
    return geometry;
  }, [newer, distances, rangeMm]);
  useEffect(
    () => () => {
      if (!coloured) return;
      // Frees only the colours: positions and normals belong to the newer plan.
      coloured.deleteAttribute('position');
      coloured.deleteAttribute('normal');
      coloured.dispose();
    },
    [coloured],
  );
  return coloured;
}

/**
 * Compare viewer (lazy chunk): the opened planning STL and another (by default its previous
 * version) side by side with linked cameras, overlaid in two colours, or as a deviation map of
 * the newer against the older, with the case's jaw scans under them on request.
 */
export function PlanCompareViewer<T extends CompareCandidate>(props: {
  files: readonly T[];
  openedId: number;
}) {
  const { t, i18n } = useTranslation();
  const plans = useMemo(() => comparablePlans(props.files), [props.files]);
  const scans = useMemo(() => jawScans(props.files), [props.files]);
  const [otherId, setOtherId] = useState(() => defaultCompareWith(props.files, props.openedId));
  const [mode, setMode] = useState<Mode>('side');
  const [showScans, setShowScans] = useState(false);
  const [shown, setShown] = useState({ older: true, newer: true });
  const [opacity, setOpacity] = useState({ older: 1, newer: 0.7 });
  const [rangeMm, setRangeMm] = useState<number>(DEVIATION_RANGES_MM[0]);
  const [resets, setResets] = useState(0);
  const link = useMemo(() => createCameraLink(), []);

  const opened = plans.find((file) => file.id === props.openedId);
  const other = plans.find((file) => file.id === otherId);
  const pair = opened && other ? orderPair(opened, other) : null;
  const wantedIds = useMemo(
    () => [
      ...(pair ? [pair.older.id, pair.newer.id] : []),
      ...(showScans ? scans.map((scan) => scan.id) : []),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [pair?.older.id, pair?.newer.id, showScans, scans],
  );
  const loaded = useStlFiles(wantedIds);
  const older = pair ? geometryOf(loaded[pair.older.id]) : null;
  const newer = pair ? geometryOf(loaded[pair.newer.id]) : null;
  const deviation = useDeviation(older, newer, mode === 'deviation');
  const distances = deviation.status === 'done' ? deviation.result.distances : null;
  const coloured = useColouredGeometry(newer, distances, rangeMm);

  const locale = isLanguage(i18n.language) ? languageTag(i18n.language) : i18n.language;
  const mm = (value: number, digits = 2) =>
    value.toLocaleString(locale, { maximumFractionDigits: digits });
  const nameOf = (file: CompareCandidate) => {
    const name = file.filename ?? `#${file.id}`;
    return file.version
      ? t('files:planCompare.versionName', { version: file.version, name })
      : name;
  };

  const failed = wantedIds.filter((id) => {
    const entry = loaded[id];
    return entry && 'error' in entry;
  });
  const pairLoading = !!pair && (!older || !newer) && failed.length === 0;
  const scanModels: CompareModel[] = showScans
    ? scans.flatMap((scan) => {
        const geometry = geometryOf(loaded[scan.id]);
        const role = scan.attachmentType === 'lowerJawStl' ? 'lowerJaw' : 'upperJaw';
        return geometry
          ? [
              {
                key: `scan-${scan.id}`,
                geometry,
                color: STL_COLORS[role],
                opacity: SCAN_OPACITY,
                visible: true,
                under: true,
              },
            ]
          : [];
      })
    : [];
  const flat = (side: 'older' | 'newer', geometry: BufferGeometry | null, overlay: boolean) =>
    geometry
      ? [
          {
            key: side,
            geometry,
            color: side === 'older' ? OLDER_COLOR : NEWER_COLOR,
            opacity: overlay ? opacity[side] : 1,
            visible: overlay ? shown[side] : true,
          } satisfies CompareModel,
        ]
      : [];
  const frameOn = [older, newer];
  const loadedKey = `${older?.uuid}:${newer?.uuid}#${resets}`;

  const otherOptions = plans
    .filter((file) => file.id !== props.openedId)
    .map((file) => ({ value: String(file.id), label: nameOf(file) }));
  const ticks = legendTicks(rangeMm);

  return (
    <Stack h="100%" gap={0} data-testid="plan-compare">
      <Group px="md" py="xs" gap="md" justify="space-between" wrap="wrap">
        <Group gap="md" wrap="wrap" align="flex-end">
          <SegmentedControl
            value={mode}
            onChange={(value) => setMode(value as Mode)}
            aria-label={t('files:planCompare.mode')}
            data={(['side', 'overlay', 'deviation'] as const).map((value) => ({
              value,
              label: t(`files:planCompare.modes.${value}`),
            }))}
          />
          <Select
            size="xs"
            w={240}
            label={t('files:planCompare.compareWith', { name: opened ? nameOf(opened) : '' })}
            data={otherOptions}
            value={otherId === null ? null : String(otherId)}
            onChange={(value) => value && setOtherId(Number(value))}
            allowDeselect={false}
          />
          <Switch
            checked={showScans}
            onChange={(event) => setShowScans(event.currentTarget.checked)}
            disabled={scans.length === 0}
            label={t('files:planCompare.showScans')}
            description={scans.length === 0 ? t('files:planCompare.noScans') : undefined}
          />
        </Group>
        <ResetViewButton onClick={() => setResets((count) => count + 1)} />
      </Group>

      {mode === 'overlay' && pair && (
        <Group px="md" pb="xs" gap="xl" wrap="wrap">
          {(['older', 'newer'] as const).map((side) => (
            <Group key={side} gap="sm" wrap="nowrap">
              <Switch
                checked={shown[side]}
                onChange={(event) => {
                  const checked = event.currentTarget.checked;
                  setShown((current) => ({ ...current, [side]: checked }));
                }}
                label={
                  <Group gap={6} wrap="nowrap">
                    <ColorSwatch color={side === 'older' ? OLDER_COLOR : NEWER_COLOR} size={14} />
                    <Text size="sm">
                      {t(`files:planCompare.${side}`, { name: nameOf(pair[side]) })}
                    </Text>
                  </Group>
                }
              />
              <Slider
                w={120}
                min={0.1}
                max={1}
                step={0.05}
                value={opacity[side]}
                onChange={(value) => setOpacity((current) => ({ ...current, [side]: value }))}
                label={(value) => `${Math.round(value * 100)}%`}
                thumbLabel={t('files:planCompare.opacityOf', { name: nameOf(pair[side]) })}
              />
            </Group>
          ))}
        </Group>
      )}

      {!pair && (
        <Text c="dimmed" p="md">
          {t('files:planCompare.nothing')}
        </Text>
      )}
      {failed.length > 0 && (
        <Alert color="red" mx="md" mb="xs" py={6}>
          {t('files:viewers.loadFailed', {
            names: failed
              .map((id) => props.files.find((file) => file.id === id))
              .map((file) => (file ? nameOf(file) : ''))
              .join(', '),
          })}
        </Alert>
      )}
      {mode === 'deviation' && deviation.status === 'failed' && (
        <Alert color="red" mx="md" mb="xs" py={6}>
          {t('files:planCompare.deviationFailed')}
        </Alert>
      )}

      {pair && (
        <Box pos="relative" style={{ flex: 1, minHeight: 240, touchAction: 'none' }} bg="gray.1">
          {mode === 'side' && (
            <SimpleGrid cols={2} spacing={2} h="100%">
              {(['older', 'newer'] as const).map((side) => (
                <Box key={side} pos="relative" h="100%">
                  <CompareCanvas
                    view={side}
                    label={t('files:planCompare.canvasOf', { name: nameOf(pair[side]) })}
                    models={[...scanModels, ...flat(side, side === 'older' ? older : newer, false)]}
                    frameOn={frameOn}
                    frameKey={loadedKey}
                    ready={!!older && !!newer}
                    link={link}
                  />
                  <Paper pos="absolute" top={8} right={8} px={8} py={2} withBorder>
                    <Group gap={6} wrap="nowrap">
                      <ColorSwatch color={side === 'older' ? OLDER_COLOR : NEWER_COLOR} size={12} />
                      <Text size="xs">
                        {t(`files:planCompare.${side}`, { name: nameOf(pair[side]) })}
                      </Text>
                    </Group>
                  </Paper>
                </Box>
              ))}
            </SimpleGrid>
          )}
          {mode === 'overlay' && (
            <CompareCanvas
              view="overlay"
              label={t('files:planCompare.canvasOverlay')}
              models={[...scanModels, ...flat('older', older, true), ...flat('newer', newer, true)]}
              frameOn={frameOn}
              frameKey={loadedKey}
              ready={!!older && !!newer}
            />
          )}
          {mode === 'deviation' && (
            <CompareCanvas
              view="deviation"
              label={t('files:planCompare.canvasDeviation', { name: nameOf(pair.newer) })}
              models={[
                ...scanModels,
                ...(coloured
                  ? [
                      {
                        key: 'deviation',
                        geometry: coloured,
                        color: 'vertex',
                        opacity: 1,
                        visible: true,
                      } satisfies CompareModel,
                    ]
                  : flat('newer', newer, false)),
              ]}
              frameOn={frameOn}
              frameKey={loadedKey}
              ready={!!coloured}
            />
          )}

          {pairLoading && (
            <Group pos="absolute" top={12} left={12} gap={6}>
              <Loader size="xs" />
              <Text size="xs">{t('files:viewers.loading')}</Text>
            </Group>
          )}
          {mode === 'deviation' && deviation.status === 'running' && (
            <Paper pos="absolute" top={12} left={12} p="xs" w={260} withBorder shadow="xs">
              <Text size="xs" mb={4}>
                {t('files:planCompare.computing', {
                  percent: Math.round(deviation.fraction * 100),
                })}
              </Text>
              <Progress
                value={deviation.fraction * 100}
                size="sm"
                aria-label={t('files:planCompare.computingLabel')}
              />
            </Paper>
          )}
          {mode === 'deviation' && deviation.status === 'done' && (
            <Paper
              pos="absolute"
              bottom={36}
              right={12}
              p="xs"
              withBorder
              shadow="xs"
              data-testid="deviation-legend"
            >
              <Stack gap={6}>
                <Text size="xs" fw={600}>
                  {t('files:planCompare.legendTitle', { name: nameOf(pair.older) })}
                </Text>
                <Box w={220}>
                  <Box h={12} style={{ background: legendGradient(), borderRadius: 2 }} />
                  <Box pos="relative" h={16}>
                    {ticks.map((tick) => (
                      <Text
                        key={tick.value}
                        size="10px"
                        pos="absolute"
                        top={2}
                        left={`${tick.position * 100}%`}
                        style={{
                          transform: `translateX(${tick.position === 1 ? '-100%' : tick.position === 0 ? '0' : '-50%'})`,
                          whiteSpace: 'nowrap',
                        }}
                      >
                        {tick.orMore ? `${mm(tick.value)}+` : mm(tick.value)}
                      </Text>
                    ))}
                  </Box>
                </Box>
                <Text size="xs" c="dimmed">
                  {t('files:planCompare.largest', { value: mm(deviation.result.max) })}
                </Text>
                <SegmentedControl
                  size="xs"
                  value={String(rangeMm)}
                  onChange={(value) => setRangeMm(Number(value))}
                  aria-label={t('files:planCompare.range')}
                  data={DEVIATION_RANGES_MM.map((value) => ({
                    value: String(value),
                    label: t('files:planCompare.rangeValue', { value: mm(value) }),
                  }))}
                />
              </Stack>
            </Paper>
          )}
          <Text pos="absolute" bottom={8} left={12} size="xs" c="dimmed" visibleFrom="sm">
            {mode === 'side' ? t('files:planCompare.helpLinked') : t('files:stlViewer.help')}
          </Text>
          <Text pos="absolute" bottom={8} left={12} size="xs" c="dimmed" hiddenFrom="sm">
            {t('files:stlViewer.helpTouch')}
          </Text>
        </Box>
      )}
    </Stack>
  );
}
