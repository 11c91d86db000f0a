import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  PAYMENT_OVERRIDE_REASON_MAX,
  type CaseAction,
  type CaseDetail,
  type CaseMoveBody,
} from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { showError, showSuccess } from '../../../lib/notify';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { TextDialog } from '../../../lib/ui/text-dialog';
import { useArchiveCase } from '../api/archive-case';
import { useMoveCase } from '../api/move-case';
import { useUnarchiveCase } from '../api/unarchive-case';
import type { ApproveValues } from './approve-dialog';

// The approval form (password, text, services) loads when the approval is started.
const ApproveDialog = lazy(() =>
  import('./approve-dialog').then((module) => ({ default: module.ApproveDialog })),
);

type Extra = 'archive' | 'unarchive';
type Pending =
  | { kind: 'move'; action: CaseAction }
  | { kind: 'extra'; action: Extra }
  | { kind: 'validateUnpaid' }
  | null;

/** Moves that cannot be undone by the same person, or that stop the work: red confirm button. */
const DANGEROUS: ReadonlySet<string> = new Set(['cancel', 'backToNew', 'archive']);

/**
 * The moves the server says this caller may make now (`detail.actions`) as buttons, plus archive
 * and un-archive from `detail.can`. Approve opens the approve dialog, request modification the
 * text dialog; every other move asks for confirmation first. A supervisor may validate a case
 * whose only failing check is payment (`validateUnpaid`), naming the reason in a dialog: the
 * services stay unpaid and the lab bills them later.
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

  const runMove = (action: CaseAction, extra: Omit<CaseMoveBody, 'action'> = {}) =>
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
  const mayValidateUnpaid = detail.can.includes('validateUnpaid');
  if (detail.actions.length === 0 && extras.length === 0 && !mayValidateUnpaid) return null;
  const unpaidNames = detail.services
    .filter((service) => detail.checks.unpaidServiceIds.includes(service.id))
    .map((service) => service.productName);
  const busy = move.isPending || archive.isPending || unarchive.isPending;
  // Moves and extras without a dialog of their own ask for confirmation.
  const confirming =
    pending?.kind === 'extra' ||
    (pending?.kind === 'move' &&
      pending.action !== 'approve' &&
      pending.action !== 'requestModification')
      ? pending
      : null;

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
        {mayValidateUnpaid && (
          <Button
            size="sm"
            variant="light"
            color="grape"
            onClick={() => setPending({ kind: 'validateUnpaid' })}
            disabled={busy}
          >
            {t('cases:actions.validateUnpaid.button')}
          </Button>
        )}
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

      {pending?.kind === 'move' && pending.action === 'approve' && (
        <Suspense fallback={null}>
          <ApproveDialog
            opened
            services={detail.services}
            loading={move.isPending}
            passwordError={passwordError}
            onSubmit={(values: ApproveValues) => runMove('approve', values)}
            onClose={close}
          />
        </Suspense>
      )}
      <TextDialog
        opened={pending?.kind === 'move' && pending.action === 'requestModification'}
        title={t('caseActions.requestModification', { ns: 'domain' })}
        label={t('cases:actions.modificationText')}
        submitLabel={t('caseActions.requestModification', { ns: 'domain' })}
        loading={move.isPending}
        onSubmit={(text) => runMove('requestModification', { text })}
        onClose={close}
      />
      <TextDialog
        opened={pending?.kind === 'validateUnpaid'}
        title={t('cases:actions.validateUnpaid.button')}
        label={t('cases:actions.validateUnpaid.reason')}
        submitLabel={t('cases:actions.validateUnpaid.button')}
        limit={PAYMENT_OVERRIDE_REASON_MAX}
        loading={move.isPending}
        onSubmit={(reason) => runMove('validate', { paymentOverride: { reason } })}
        onClose={close}
      >
        <Alert color="grape" variant="light">
          <Text size="sm">
            {unpaidNames.length > 0
              ? t('cases:actions.validateUnpaid.body', { names: unpaidNames.join(', ') })
              : t('cases:actions.validateUnpaid.bodyNoNames')}
          </Text>
          <Text size="sm" mt={4}>
            {t('cases:actions.validateUnpaid.note')}
          </Text>
        </Alert>
      </TextDialog>
      <ConfirmDialog
        opened={confirming !== null}
        title={confirming ? t(`domain:caseActions.${confirming.action}`) : ''}
        message={
          confirming
            ? t('cases:actions.confirm', { action: t(`domain:caseActions.${confirming.action}`) })
            : ''
        }
        confirmLabel={confirming ? t(`domain:caseActions.${confirming.action}`) : ''}
        danger={confirming ? DANGEROUS.has(confirming.action) : false}
        loading={busy}
        onConfirm={() => {
          if (!confirming) return;
          if (confirming.kind === 'move') runMove(confirming.action);
          else runExtra(confirming.action);
        }}
        onClose={close}
      />
    </>
  );
}
