import { useEffect, useId, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Center,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Slider,
  Stack,
  Text,
} from '@mantine/core';
import { IconFocusCentered } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { App, AppOptions, Index, ToolConfig, ViewConfig, type ViewController } from 'dwv';
import { getAttachment } from '../api/get-attachment';
import { DICOM_TOOLS, dicomContainerId, dicomFileName, type DicomTool } from './dicom-view';

interface SliceState {
  index: number;
  count: number;
}

function activeController(app: App): ViewController | undefined {
  return app.getActiveLayerGroup()?.getActiveViewLayer()?.getViewController();
}

function readSlice(app: App): SliceState | null {
  const controller = activeController(app);
  if (!controller) return null;
  const dim = controller.getScrollDimIndex();
  const count = controller.getImageSize().get(dim);
  const index = controller.getCurrentIndex().get(dim) ?? 0;
  return { index, count };
}

/**
 * DICOM viewer (lazy chunk, dwv): one .dcm image or a zip of a series. Tools: scroll through the
 * slices (drag, wheel or the slider), window/level (drag, or a preset), zoom and pan (wheel, drag,
 * pinch); reset. The wrapper carries `data-testid="dicom-viewer"` and `data-loaded`.
 */
export function DicomViewer(props: {
  attachmentId: number;
  filename: string;
  mimetype?: string | null;
}) {
  const { t } = useTranslation();
  const containerId = dicomContainerId(useId());
  const appRef = useRef<App | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [progress, setProgress] = useState(0);
  const [tool, setTool] = useState<DicomTool>('Scroll');
  const [slice, setSlice] = useState<SliceState | null>(null);
  const [presets, setPresets] = useState<string[]>([]);
  const [preset, setPreset] = useState<string | null>(null);

  useEffect(() => {
    const app = new App();
    appRef.current = app;
    const options = new AppOptions({ '*': [new ViewConfig(containerId)] });
    options.tools = Object.fromEntries(DICOM_TOOLS.map((name) => [name, new ToolConfig()]));
    app.init(options);
    let disposed = false;

    app.addEventListener('loadprogress', (event: { loaded: number; total: number }) => {
      if (event.total > 0) setProgress(Math.round((event.loaded / event.total) * 100));
    });
    app.addEventListener('load', () => {
      if (disposed) return;
      app.setTool('Scroll');
      setSlice(readSlice(app));
      const controller = activeController(app);
      setPresets(controller?.getWindowLevelPresetsNames() ?? []);
      setPreset(controller?.getCurrentWindowPresetName() || null);
      setState('ready');
    });
    app.addEventListener('positionchange', () => {
      if (!disposed) setSlice(readSlice(app));
    });
    app.addEventListener('error', () => {
      if (!disposed) setState('error');
    });
    const onResize = () => app.onResize();
    window.addEventListener('resize', onResize);

    const controller = new AbortController();
    (async () => {
      const { url } = await getAttachment(props.attachmentId);
      if (!url) throw new Error('no url');
      const response = await fetch(url, { signal: controller.signal });
      if (!response.ok) throw new Error(`download failed (${response.status})`);
      const blob = await response.blob();
      if (disposed) return;
      // dwv picks its loader from the file name (zip of a series, or one DICOM image).
      app.loadFiles([new File([blob], dicomFileName(props.filename, props.mimetype))]);
    })().catch(() => {
      if (!disposed) setState('error');
    });

    return () => {
      disposed = true;
      controller.abort();
      window.removeEventListener('resize', onResize);
      app.abortAllLoads();
      app.reset();
      appRef.current = null;
    };
  }, [containerId, props.attachmentId, props.filename, props.mimetype]);

  const chooseTool = (value: string) => {
    const next = value as DicomTool;
    setTool(next);
    appRef.current?.setTool(next);
  };
  const goToSlice = (value: number) => {
    const app = appRef.current;
    const controller = app && activeController(app);
    if (!controller) return;
    const values = controller.getCurrentIndex().getValues();
    values[controller.getScrollDimIndex()] = value;
    controller.setCurrentIndex(new Index(values));
  };
  const choosePreset = (name: string | null) => {
    const app = appRef.current;
    const controller = app && activeController(app);
    if (!controller || !name) return;
    controller.setWindowLevelPreset(name);
    setPreset(name);
  };
  const reset = () => {
    appRef.current?.resetDisplay();
    setSlice(appRef.current ? readSlice(appRef.current) : null);
  };

  return (
    <Stack h="100%" gap={0} data-testid="dicom-viewer" data-loaded={state === 'ready'}>
      <Group px="md" py="xs" gap="sm" justify="space-between" wrap="wrap">
        <SegmentedControl
          size="xs"
          value={tool}
          onChange={chooseTool}
          disabled={state !== 'ready'}
          data={DICOM_TOOLS.map((name) => ({
            value: name,
            label: t(`files:dicomViewer.tools.${name}`),
          }))}
          aria-label={t('files:dicomViewer.tool')}
        />
        <Group gap="sm" wrap="wrap">
          {presets.length > 0 && (
            <Select
              size="xs"
              w={160}
              data={presets}
              value={preset}
              onChange={choosePreset}
              aria-label={t('files:dicomViewer.preset')}
              placeholder={t('files:dicomViewer.preset')}
            />
          )}
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFocusCentered size={16} />}
            onClick={reset}
            disabled={state !== 'ready'}
          >
            {t('files:dicomViewer.reset')}
          </Button>
        </Group>
      </Group>
      {slice && slice.count > 1 && (
        <Group px="md" pb="xs" gap="sm" wrap="nowrap">
          <Text size="xs" style={{ flexShrink: 0 }}>
            {t('files:dicomViewer.slice', { index: slice.index + 1, count: slice.count })}
          </Text>
          <Slider
            style={{ flex: 1 }}
            min={0}
            max={slice.count - 1}
            value={slice.index}
            onChange={goToSlice}
            label={(value) => value + 1}
            aria-label={t('files:dicomViewer.sliceSlider')}
          />
        </Group>
      )}
      {state === 'error' && (
        <Alert color="red" mx="md" mb="xs">
          {t('files:dicomViewer.failed')}
        </Alert>
      )}
      <Box pos="relative" bg="black" style={{ flex: 1, minHeight: 240, touchAction: 'none' }}>
        <div id={containerId} style={{ position: 'absolute', inset: 0 }} />
        {state === 'loading' && (
          <Center pos="absolute" inset={0} style={{ pointerEvents: 'none' }}>
            <Stack align="center" gap={4}>
              <Loader color="gray" />
              <Text size="xs" c="gray.4">
                {t('files:viewers.loadingPercent', { percent: progress })}
              </Text>
            </Stack>
          </Center>
        )}
      </Box>
    </Stack>
  );
}
