import { useEffect, useRef, useState } from 'react';
import {
  Box,
  Button,
  Center,
  FileButton,
  Group,
  Image,
  Progress,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconPhoto, IconTrash, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { showError } from '../../../lib/notify';
import {
  PRODUCT_IMAGE_ACCEPT,
  PRODUCT_IMAGE_MAX_BYTES,
  productImageRejection,
  uploadProductImage,
} from '../api/upload-product-image';
import type { ImageChange } from './product-form-values';

const MAX_MB = Math.round(PRODUCT_IMAGE_MAX_BYTES / (1024 * 1024));

/** A local preview of the chosen file (jsdom and old browsers have no object URLs). */
const previewOf = (file: File): string | null =>
  typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;

/**
 * File upload box for the product image: images only, checked here and again by the
 * server; the file is sent at once as a temporary upload (with progress and a preview), and
 * becomes the product's image only when the form is saved.
 */
export function ProductImageField(props: {
  /** The product's current image, or null. */
  currentUrl: string | null;
  change: ImageChange;
  onChange: (change: ImageChange) => void;
  onUploadingChange: (uploading: boolean) => void;
}) {
  const { currentUrl, change, onChange, onUploadingChange } = props;
  const { t } = useTranslation();
  const [preview, setPreview] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  // A closed form stops its upload and frees the preview.
  useEffect(() => () => abortRef.current?.abort(), []);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const setUploading = (value: number | null) => {
    setPercent(value);
    onUploadingChange(value !== null);
  };

  const choose = async (file: File | null) => {
    if (!file) return;
    const rejection = productImageRejection(file);
    if (rejection) {
      showError(
        new Error(
          t(
            rejection === 'type'
              ? 'admin:products.image.wrongType'
              : 'admin:products.image.tooLarge',
            {
              size: MAX_MB,
            },
          ),
        ),
      );
      return;
    }
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setPreview(previewOf(file));
    setUploading(0);
    try {
      const id = await uploadProductImage(file, setPercent, controller.signal);
      if (controller.signal.aborted) return;
      onChange({ kind: 'upload', id });
      setUploading(null);
    } catch (error) {
      if (controller.signal.aborted) return;
      setPreview(null);
      setUploading(null);
      showError(error);
    }
  };

  const remove = () => {
    abortRef.current?.abort();
    setPreview(null);
    setUploading(null);
    // Without a current image there is nothing to remove: the product keeps having none.
    onChange(currentUrl ? { kind: 'remove' } : { kind: 'keep' });
  };

  const shown =
    change.kind === 'remove' ? null : (preview ?? (change.kind === 'keep' ? currentUrl : null));
  const hasImage = shown !== null || change.kind === 'upload' || percent !== null;

  let status: string;
  if (percent !== null) status = t('admin:products.image.uploading', { percent });
  else if (change.kind === 'upload') status = t('admin:products.image.ready');
  else if (change.kind === 'remove') status = t('admin:products.image.willRemove');
  else status = t('admin:products.image.hint', { size: MAX_MB });

  return (
    <Group gap="md" wrap="nowrap" align="flex-start">
      <Box
        w={96}
        h={96}
        style={{
          flexShrink: 0,
          borderRadius: 'var(--mantine-radius-md)',
          border: '1px solid var(--mantine-color-gray-3)',
          overflow: 'hidden',
        }}
      >
        {shown ? (
          <Image src={shown} alt={t('admin:products.image.preview')} w={96} h={96} fit="cover" />
        ) : (
          <Center h="100%" c="dimmed">
            <IconPhoto size={32} aria-hidden />
            <VisuallyHidden>{t('admin:products.image.none')}</VisuallyHidden>
          </Center>
        )}
      </Box>
      <Stack gap={6} style={{ minWidth: 0 }}>
        <Text size="sm" fw={500}>
          {t('admin:products.image.label')}
        </Text>
        <Group gap="xs">
          <FileButton
            onChange={(file) => void choose(file)}
            accept={PRODUCT_IMAGE_ACCEPT}
            inputProps={{ 'aria-label': t('admin:products.image.label') }}
          >
            {(buttonProps) => (
              <Button
                {...buttonProps}
                size="xs"
                variant="light"
                leftSection={<IconUpload size={14} />}
                loading={percent !== null}
              >
                {hasImage ? t('admin:products.image.replace') : t('admin:products.image.choose')}
              </Button>
            )}
          </FileButton>
          {hasImage && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={14} />}
              onClick={remove}
            >
              {t('admin:products.image.remove')}
            </Button>
          )}
          {change.kind === 'remove' && currentUrl && (
            <Button size="xs" variant="subtle" onClick={() => onChange({ kind: 'keep' })}>
              {t('admin:products.image.undoRemove')}
            </Button>
          )}
        </Group>
        {percent !== null && (
          <Progress
            value={percent}
            size="sm"
            aria-label={t('admin:products.image.uploading', { percent })}
          />
        )}
        <Text size="xs" c="dimmed" aria-live="polite">
          {status}
        </Text>
      </Stack>
    </Group>
  );
}
