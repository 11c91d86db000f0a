import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ATTACHMENT_ACTIONS, isOneOf, type AttachmentAction } from '@dentflow/domain';
import { showError, showSuccess } from '../../../lib/notify';
import { approveAttachment } from '../api/approve-attachment';
import { cancelChangeRequest } from '../api/cancel-change-request';
import { deleteAttachment } from '../api/delete-attachment';
import { publishAttachment } from '../api/publish-attachment';
import { requestChange } from '../api/request-change';
import { unpublishAttachment } from '../api/unpublish-attachment';
import { RequestChangeDialog } from './request-change-dialog';

const ACTION_COLORS: Record<AttachmentAction, string> = {
  publish: 'dentflow',
  unpublish: 'gray',
  approve: 'green',
  requestChange: 'orange',
  cancelChangeRequest: 'gray',
  delete: 'red',
};

type Run = { action: AttachmentAction; text?: string };

function perform(attachmentId: number, { action, text }: Run): Promise<unknown> {
  switch (action) {
    case 'publish':
      return publishAttachment(attachmentId);
    case 'unpublish':
      return unpublishAttachment(attachmentId);
    case 'approve':
      return approveAttachment(attachmentId);
    case 'requestChange':
      return requestChange(attachmentId, text ?? '');
    case 'cancelChangeRequest':
      return cancelChangeRequest(attachmentId);
    case 'delete':
      return deleteAttachment(attachmentId);
  }
}

/**
 * One button per action the server allows this caller on this file (the `actions` of the list),
 * in the domain's order; unknown names are ignored. Request change asks for a text; delete asks
 * for a confirmation first.
 */
export function AttachmentActions(props: {
  attachmentId: number;
  actions: readonly string[];
  /** The case is read-only for this caller: no buttons at all. */
  readOnly?: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'requestChange' | 'delete' | null>(null);
  const mutation = useMutation({
    mutationFn: (run: Run) => perform(props.attachmentId, run),
    onSuccess: (_result, run) => {
      setDialog(null);
      showSuccess(t(`files:actions.done.${run.action}`));
      props.onDone();
    },
    onError: (error) => showError(error),
  });
  if (props.readOnly) return null;
  const actions = ATTACHMENT_ACTIONS.filter((action) => isOneOf(props.actions, action));
  if (actions.length === 0) return null;

  const click = (action: AttachmentAction) => {
    if (action === 'requestChange' || action === 'delete') setDialog(action);
    else mutation.mutate({ action });
  };

  return (
    <>
      <Group gap={6}>
        {actions.map((action) => (
          <Button
            key={action}
            size="compact-xs"
            variant="light"
            color={ACTION_COLORS[action]}
            loading={mutation.isPending && mutation.variables?.action === action}
            disabled={mutation.isPending}
            onClick={() => click(action)}
          >
            {t(`domain:attachmentActions.${action}`)}
          </Button>
        ))}
      </Group>
      <RequestChangeDialog
        opened={dialog === 'requestChange'}
        onClose={() => setDialog(null)}
        submitting={mutation.isPending}
        onSubmit={(text) => mutation.mutate({ action: 'requestChange', text })}
      />
      <Modal
        opened={dialog === 'delete'}
        onClose={() => setDialog(null)}
        title={t('files:delete.title')}
        centered
      >
        <Stack>
          <Text size="sm">{t('files:delete.message')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(null)}>
              {t('files:common.cancel')}
            </Button>
            <Button
              color="red"
              loading={mutation.isPending}
              onClick={() => mutation.mutate({ action: 'delete' })}
            >
              {t('files:delete.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
