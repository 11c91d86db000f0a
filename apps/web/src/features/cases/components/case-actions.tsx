import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type CaseAction, type CaseDetail } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { showError, showSuccess } from '../../../lib/notify';
import { useArchiveCase } from '../api/archive-case';
import { useMoveCase } from '../api/move-case';
import { useUnarchiveCase } from '../api/unarchive-case';
import { ApproveDialog, type ApproveValues } from './approve-dialog';
import { ConfirmDialog } from './confirm-dialog';
import { TextDialog } from './text-dialog';

type Extra = 'archive' | 'unarchive';
type Pending = { kind: 'move'; action: CaseAction } | { kind: 'extra'; action: Extra } | null;

/** Moves that cannot be undone by the same person, or that stop the work: red confirm button. */
const DANGEROUS: ReadonlySet<string> = new Set(['cancel', 'backToNew', 'archive']);

/**
 * The moves the server says this caller may make now (`detail.actions`) as buttons, plus archive
 * and un-archive from `detail.can`. Approve opens the approve dialog, request modification the
 * text dialog; every other move asks for confirmation first.
 */
export function CaseActions({ detail }: { detail: CaseDetail }) {
  const { t } = useTranslation();
  const move = useMoveCase(detail.id);
  const archive = useArchiveCase();
  const unarchive = useUnarchiveCase();
  const [pending, setPending] = useState<Pending>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const close = () => {
    setPending(null);
    setPasswordError(null);
  };

  const done = (label: string) => {
    showSuccess(t('cases:actions.done', { action: label }));
    close();
  };

  const runMove = (
    action: CaseAction,
    extra: { password?: string; text?: string; serviceIds?: number[] } = {},
  ) =>
    move.mutate(
      { action, ...extra },
      {
        onSuccess: () => done(t(`domain:caseActions.${action}`)),
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'WRONG_PASSWORD') {
            setPasswordError(error.message);
            return;
          }
          showError(error);
          close();
        },
      },
    );

  const runExtra = (action: Extra) => {
    const mutation = action === 'archive' ? archive : unarchive;
    mutation.mutate(detail.id, {
      onSuccess: () => done(t(`domain:caseActions.${action}`)),
      onError: (error) => {
        showError(error);
        close();
      },
    });
  };

  const extras = (['archive', 'unarchive'] as const).filter((action) =>
    detail.can.includes(action),
  );
  if (detail.actions.length === 0 && extras.length === 0) return null;
  const busy = move.isPending || archive.isPending || unarchive.isPending;

  return (
    <>
      <Group gap="xs" data-testid="case-actions">
        {detail.actions.map((action) => (
          <Button
            key={action}
            size="sm"
            variant={DANGEROUS.has(action) ? 'light' : 'filled'}
            color={DANGEROUS.has(action) ? 'red' : undefined}
            onClick={() => setPending({ kind: 'move', action })}
            disabled={busy}
          >
            {t(`domain:caseActions.${action}`)}
          </Button>
        ))}
        {extras.map((action) => (
          <Button
            key={action}
            size="sm"
            variant="default"
            onClick={() => setPending({ kind: 'extra', action })}
            disabled={busy}
          >
            {t(`domain:caseActions.${action}`)}
          </Button>
        ))}
      </Group>

      <ApproveDialog
        opened={pending?.kind === 'move' && pending.action === 'approve'}
        services={detail.services}
        loading={move.isPending}
        passwordError={passwordError}
        onSubmit={(values: ApproveValues) => runMove('approve', values)}
        onClose={close}
      />
      <TextDialog
        opened={pending?.kind === 'move' && pending.action === 'requestModification'}
        title={t('caseActions.requestModification', { ns: 'domain' })}
        label={t('cases:actions.modificationText')}
        submitLabel={t('caseActions.requestModification', { ns: 'domain' })}
        loading={move.isPending}
        onSubmit={(text) => runMove('requestModification', { text })}
        onClose={close}
      />
      <ConfirmDialog
        opened={
          pending !== null &&
          !(
            pending.kind === 'move' &&
            (pending.action === 'approve' || pending.action === 'requestModification')
          )
        }
        title={pending ? t(`domain:caseActions.${pending.action}`) : ''}
        message={
          pending
            ? t('cases:actions.confirm', { action: t(`domain:caseActions.${pending.action}`) })
            : ''
        }
        confirmLabel={pending ? t(`domain:caseActions.${pending.action}`) : ''}
        danger={pending ? DANGEROUS.has(pending.action) : false}
        loading={busy}
        onConfirm={() => {
          if (!pending) return;
          if (pending.kind === 'move') runMove(pending.action);
          else runExtra(pending.action);
        }}
        onClose={close}
      />
    </>
  );
}
