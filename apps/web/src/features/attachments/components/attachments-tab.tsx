import '@mantine/dropzone/styles.css';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Badge,
  Card,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  attachmentFileRejection,
  attachmentFileRule,
  chainsAwaitingNewVersion,
  isPlanner,
  isSupervisor,
  mayUploadAttachment,
  parseAttachmentName,
  sessionRoles,
  type AttachmentActor,
  type CaseDetail,
} from '@dentflow/domain';
import { showError } from '../../../lib/notify';
import { getStoredUser } from '../../../lib/session-storage';
import {
  attachmentNameFor,
  CASE_TAB_BUCKETS,
  formatBytes,
  viewerKind,
  type CaseTabBucket,
} from '../attachment-files';
import {
  caseAttachmentsQueryKey,
  useCaseAttachments,
  type CaseAttachment,
  type CaseAttachmentSlot,
} from '../api/list-case-attachments';
import { ImageViewer } from '../viewers/image-viewer';
import { stlLayersFor } from '../viewers/stl-scene';
import { canCompare } from '../viewers/plan-compare/compare-pair';
import { useAttachmentLabel } from '../attachment-label';
import { AttachmentCard } from './attachment-card';
import { LeaveGuard } from './use-leave-guard';
import { NewVersionTarget, PlanningChains } from './plan-versions';
import { UploadBox } from './upload-box';
import { UploadQueueList } from './upload-queue-list';
import { useUploadQueue, type UploadTransport } from './use-upload-queue';

// The 3D and DICOM viewers are heavy (three.js, dwv): their own chunks, loaded when opened.
const StlViewer = lazy(() =>
  import('../viewers/stl-viewer').then((m) => ({ default: m.StlViewer })),
);
const PlanCompareViewer = lazy(() =>
  import('../viewers/plan-compare/plan-compare-viewer').then((m) => ({
    default: m.PlanCompareViewer,
  })),
);
const DicomViewer = lazy(() =>
  import('../viewers/dicom-viewer').then((m) => ({ default: m.DicomViewer })),
);

type OpenViewer =
  | { kind: 'image'; id: number }
  | { kind: 'stl'; id: number; pinId?: number | null }
  | { kind: 'compare'; id: number }
  | { kind: 'dicom'; item: CaseAttachment }
  | null;

/** The caller's standing on the case for files (the server decides the same with the domain). */
export function attachmentActor(
  caseDetail: Pick<CaseDetail, 'ownerId'>,
  user: { id: number; roles: readonly string[] },
): AttachmentActor {
  const roles = sessionRoles(user.roles);
  if (isSupervisor(roles)) return 'supervisor';
  if (caseDetail.ownerId === user.id) return 'owner';
  if (isPlanner(roles)) return 'planner';
  return 'member';
}

/** Who the caller is to the viewer's pins (the viewer's chunk holds the pin rules). */
function pinningFor(caseDetail: CaseDetail, initialPinId: number | null) {
  const user = getStoredUser();
  if (!user) return null;
  return {
    actor: attachmentActor(caseDetail, user),
    userId: user.id,
    readOnly: caseDetail.readOnly,
    initialPinId,
  };
}

/** Which buckets the caller may send files to now (only hides what the server would refuse). */
export function uploadRights(
  caseDetail: Pick<CaseDetail, 'ownerId' | 'caseStatus' | 'caseArchived' | 'readOnly'>,
  user: { id: number; roles: readonly string[] } | null,
  items: readonly { bucketName: string; status: string; supersededAt?: string | null }[],
): Record<CaseTabBucket, boolean> {
  if (!user || caseDetail.readOnly) return { photoProtocol: false, exams: false, planning: false };
  const actor = attachmentActor(caseDetail, user);
  const state = {
    caseStatus: caseDetail.caseStatus,
    caseArchived: caseDetail.caseArchived,
    changeRequested: items.some(
      (item) =>
        item.bucketName === 'planning' && item.status === 'request_change' && !item.supersededAt,
    ),
  };
  return {
    photoProtocol: mayUploadAttachment(actor, 'photoProtocol', state),
    exams: mayUploadAttachment(actor, 'exams', state),
    planning: mayUploadAttachment(actor, 'planning', state),
  };
}

/** The case view's Attachments tab: slots by bucket, uploads with progress, actions, viewers. */
export function CaseAttachmentsTab(props: {
  caseDetail: CaseDetail;
  onChanged?: () => void;
  /** Tests replace the network steps of an upload. */
  transport?: UploadTransport;
}) {
  const { caseDetail } = props;
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const list = useCaseAttachments(caseDetail.id);
  const label = useAttachmentLabel();
  const [viewer, setViewer] = useState<OpenViewer>(null);
  /** The planner's choice of the chain a new planning upload answers (several awaiting one). */
  const [chosenTarget, setChosenTarget] = useState<number | null | undefined>(undefined);
  // The 3D viewer takes Esc while it measures or holds an unsaved pin (`StlViewer`).
  const viewerTakesEscape = useRef<(() => boolean) | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: caseAttachmentsQueryKey(caseDetail.id) });
    props.onChanged?.();
  };
  const queue = useUploadQueue({
    caseId: caseDetail.id,
    onUploaded: refresh,
    transport: props.transport,
  });
  const items = useMemo(
    () => (list.data?.items ?? []).filter((item) => item.status !== 'uploading'),
    [list.data],
  );
  // The server says where the caller may send files; the domain rule is the fallback.
  const rights = uploadRights(caseDetail, getStoredUser(), items);
  const serverBuckets = list.data?.uploadBuckets;
  const canUpload = (bucket: CaseTabBucket) =>
    !caseDetail.readOnly && (serverBuckets ? serverBuckets.includes(bucket) : rights[bucket]);
  const images = useMemo(() => items.filter((item) => viewerKind(item) === 'image'), [items]);
  const awaiting = useMemo(() => chainsAwaitingNewVersion(items), [items]);
  const awaitingIds = awaiting.map((chain) => chain.current!.id);
  // A planning upload answers the chain awaiting a change: the one, or the planner's choice.
  const replaceTarget =
    awaitingIds.length === 0
      ? null
      : chosenTarget !== undefined && (chosenTarget === null || awaitingIds.includes(chosenTarget))
        ? chosenTarget
        : awaitingIds[0]!;

  // A pin's link (from the chat) names the file and the pin: `?tab=attachments&file=&pin=`.
  const [params, setParams] = useSearchParams();
  const linkedFile = Number(params.get('file')) || null;
  const linkedPin = Number(params.get('pin')) || null;
  useEffect(() => {
    if (linkedFile === null || list.isPending) return;
    const item = items.find((candidate) => candidate.id === linkedFile);
    if (item && viewerKind(item) === 'stl')
      setViewer({ kind: 'stl', id: item.id, pinId: linkedPin });
  }, [linkedFile, linkedPin, items, list.isPending]);
  const closeViewer = () => {
    setViewer(null);
    if (linkedFile !== null) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('file');
          next.delete('pin');
          return next;
        },
        { replace: true },
      );
    }
  };
  // The dialog's close: on Esc the 3D viewer is asked first, and an Esc it takes keeps it open.
  // Asked at the moment of the key, so two quick Esc presses clear, then close.
  const closeViewerUnlessEscapeTaken = () => {
    const event = window.event;
    const isEscape = event instanceof KeyboardEvent && event.key === 'Escape';
    if (isEscape && viewerTakesEscape.current?.()) return;
    closeViewer();
  };

  const open = (item: CaseAttachment) => {
    const kind = viewerKind(item);
    if (kind === 'image') setViewer({ kind: 'image', id: item.id });
    else if (kind === 'stl') setViewer({ kind: 'stl', id: item.id });
    else if (kind === 'dicom') setViewer({ kind: 'dicom', item });
  };

  // The domain's per-kind types and sizes are checked here first, saving a refused round trip.
  const addFiles = (bucket: CaseTabBucket, files: File[], kind: string, slotId?: number) => {
    const accepted: { file: File; attachmentName: string; slotId?: number; replacesId?: number }[] =
      [];
    // Only one file can be a chain's next version; more files dropped at once are new files.
    let replacesId = bucket === 'planning' && slotId === undefined ? replaceTarget : null;
    for (const file of files) {
      const attachmentName = attachmentNameFor(bucket, kind, file.name);
      const parsed = parseAttachmentName(attachmentName);
      const rejection = parsed
        ? attachmentFileRejection(parsed.bucket, parsed.kind, {
            filename: file.name,
            filesize: file.size,
            mimetype: file.type || null,
          })
        : 'type';
      if (rejection) {
        const max = parsed ? attachmentFileRule(parsed.bucket, parsed.kind).maxBytes : 0;
        showError(
          new Error(
            t('files:upload.rejected', {
              name: file.name,
              reason:
                rejection === 'size'
                  ? t('files:upload.tooLarge', { max: formatBytes(max, i18n.language) })
                  : t('files:upload.wrongType'),
            }),
          ),
        );
      } else {
        accepted.push({ file, attachmentName, slotId, ...(replacesId ? { replacesId } : {}) });
        replacesId = null;
      }
    }
    if (accepted.length > 0) queue.add(accepted);
  };

  if (list.isPending) {
    return (
      <Stack>
        <Skeleton h={120} />
        <Skeleton h={120} />
      </Stack>
    );
  }
  if (list.isError) {
    return (
      <Alert color="red" title={t('feedback.error')}>
        {list.error.message}
      </Alert>
    );
  }

  const slots = list.data.slots;
  const imageIndex =
    viewer?.kind === 'image' ? images.findIndex((item) => item.id === viewer.id) : -1;

  return (
    <Stack>
      <LeaveGuard active={queue.busy} />
      {caseDetail.readOnly && (
        <Text size="sm" c="dimmed">
          {t('files:tab.readOnly')}
        </Text>
      )}
      {CASE_TAB_BUCKETS.map((bucket) => {
        const bucketItems = items.filter((item) => item.bucketName === bucket);
        const bucketSlots = slots.filter((slot) => slot.bucketName === bucket);
        const uploads = queue.items.filter((item) => item.attachmentName.split('.')[0] === bucket);
        const uploadHere = canUpload(bucket);
        return (
          <Paper
            key={bucket}
            withBorder
            radius="md"
            p="md"
            component="section"
            aria-labelledby={`bucket-${bucket}`}
          >
            <Stack gap="sm">
              <Group justify="space-between">
                <Title order={3} size="h4" id={`bucket-${bucket}`}>
                  {t(`domain:attachments.${bucket}.title`)}
                </Title>
                <Badge variant="light" color="gray">
                  {bucketItems.length}
                </Badge>
              </Group>
              {uploadHere && bucket === 'planning' && awaiting.length > 0 && (
                <NewVersionTarget
                  chains={awaiting}
                  value={replaceTarget}
                  onChange={setChosenTarget}
                />
              )}
              {uploadHere && (
                <UploadBox
                  bucket={bucket}
                  onFiles={(files, kind) => addFiles(bucket, files, kind)}
                />
              )}
              <UploadQueueList
                items={uploads}
                onCancel={queue.cancel}
                onRetry={queue.retry}
                onDismiss={queue.dismiss}
              />
              {bucketItems.length === 0 && bucketSlots.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('files:tab.empty')}
                </Text>
              ) : (
                <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="sm">
                  {bucketSlots.map((slot) => (
                    <EmptySlot
                      key={`slot-${slot.id ?? slot.attachmentType}`}
                      slot={slot}
                      label={label({
                        id: slot.id ?? 0,
                        bucketName: slot.bucketName,
                        attachmentType: slot.attachmentType,
                      })}
                      canUpload={uploadHere}
                      onFile={(file) => addFiles(bucket, [file], slot.attachmentType, slot.id)}
                    />
                  ))}
                  {bucket === 'planning' ? (
                    <PlanningChains
                      items={bucketItems}
                      readOnly={caseDetail.readOnly}
                      onOpen={open}
                      compareFrom={(item) =>
                        canCompare(items, item.id)
                          ? () => setViewer({ kind: 'compare', id: item.id })
                          : undefined
                      }
                      onChanged={refresh}
                    />
                  ) : (
                    bucketItems.map((item) => (
                      <AttachmentCard
                        key={item.id}
                        item={item}
                        readOnly={caseDetail.readOnly}
                        onOpen={open}
                        onChanged={refresh}
                      />
                    ))
                  )}
                </SimpleGrid>
              )}
            </Stack>
          </Paper>
        );
      })}

      {viewer?.kind === 'image' && imageIndex >= 0 && (
        <ImageViewer
          images={images.map((item) => ({
            id: item.id,
            url: item.url ?? '',
            label: label(item),
          }))}
          index={imageIndex}
          onIndexChange={(index) => setViewer({ kind: 'image', id: images[index]!.id })}
          onClose={closeViewer}
        />
      )}
      {(viewer?.kind === 'stl' || viewer?.kind === 'dicom' || viewer?.kind === 'compare') && (
        <Modal
          opened
          onClose={closeViewerUnlessEscapeTaken}
          fullScreen
          title={t(
            viewer.kind === 'stl'
              ? 'files:stlViewer.title'
              : viewer.kind === 'compare'
                ? 'files:planCompare.title'
                : 'files:dicomViewer.title',
          )}
          styles={{ body: { height: 'calc(100dvh - 60px)', padding: 0 } }}
        >
          <Suspense
            fallback={
              <Center h="100%">
                <Loader />
              </Center>
            }
          >
            {viewer.kind === 'stl' ? (
              <StlViewer
                layers={stlLayersFor(items, viewer.id).map((layer) => ({
                  ...layer,
                  label: label(layer.attachment),
                }))}
                openedId={viewer.id}
                pinning={pinningFor(caseDetail, viewer.pinId ?? null)}
                takesEscape={viewerTakesEscape}
              />
            ) : viewer.kind === 'compare' ? (
              <PlanCompareViewer files={items} openedId={viewer.id} />
            ) : (
              <DicomViewer
                attachmentId={viewer.item.id}
                filename={viewer.item.filename ?? 'exam.dcm'}
                mimetype={viewer.item.mimetype}
              />
            )}
          </Suspense>
        </Modal>
      )}
    </Stack>
  );
}

/** An empty required slot: its label, and a drop target for its file when the caller may send it. */
function EmptySlot(props: {
  slot: CaseAttachmentSlot;
  label: string;
  canUpload: boolean;
  onFile: (file: File) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card
      withBorder
      padding="sm"
      radius="md"
      data-testid="empty-slot"
      style={{ borderStyle: 'dashed' }}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Text fw={600} size="sm" lineClamp={2}>
            {props.label}
          </Text>
          <Badge size="sm" color="red" variant="light" style={{ flexShrink: 0 }}>
            {t('files:tab.required')}
          </Badge>
        </Group>
        {props.canUpload ? (
          <Dropzone
            onDrop={(files) => files[0] && props.onFile(files[0])}
            multiple={false}
            aria-label={t('files:upload.slotDropzone', { label: props.label })}
            p="xs"
          >
            <Group justify="center" gap={6} mih={88} style={{ pointerEvents: 'none' }}>
              <IconUpload size={20} stroke={1.5} />
              <Text size="xs">{t('files:upload.dropOne')}</Text>
            </Group>
          </Dropzone>
        ) : (
          <Center mih={88} bg="gray.0">
            <Text size="xs" c="dimmed">
              {t('files:tab.missing')}
            </Text>
          </Center>
        )}
      </Stack>
    </Card>
  );
}
