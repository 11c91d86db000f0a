import { useState } from 'react';
import { Button, Checkbox, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  approveDialogSchema,
  canConfirmServiceSelection,
  initialServiceSelection,
  servicesToApprove,
  TEXT_DIALOG_DEFAULT_LIMIT,
  type CaseServiceDetail,
} from '@dentflow/domain';
import { translateErrorKey } from '../../../lib/i18n';
import { CountedTextarea } from '../../../lib/ui/counted-textarea';

export interface ApproveValues {
  password: string;
  text: string;
  serviceIds: number[];
}

/**
 * Approve dialog: the caller's password, a required comment with a counter (default limit
 * 100) that says why it is required, and the services to approve among those pending approval
 * (all preselected). No error shows before the user has done something.
 */
export function ApproveDialog(props: {
  opened: boolean;
  services: readonly CaseServiceDetail[];
  loading?: boolean;
  /** A server answer for the password (WRONG_PASSWORD). */
  passwordError?: string | null;
  limit?: number;
  onSubmit: (values: ApproveValues) => void;
  onClose: () => void;
}) {
  const { opened, onClose } = props;
  return (
    <ApproveModal key={opened ? 'open' : 'closed'} {...props} opened={opened} onClose={onClose} />
  );
}

function ApproveModal(props: Parameters<typeof ApproveDialog>[0]) {
  const { t } = useTranslation();
  const limit = props.limit ?? TEXT_DIALOG_DEFAULT_LIMIT;
  const candidates = servicesToApprove(props.services);
  const [password, setPassword] = useState('');
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<number[]>(() => initialServiceSelection(candidates));
  const [errors, setErrors] = useState<{ password?: string; text?: string }>({});
  // The empty-choice error waits for the user to untick or to try approving.
  const [selectionTouched, setSelectionTouched] = useState(false);
  const selectionOk = canConfirmServiceSelection(selected, candidates);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setSelectionTouched(true);
    const result = approveDialogSchema({ approving: true, limit }).safeParse({ password, text });
    if (!result.success) {
      const next: { password?: string; text?: string } = {};
      for (const issue of result.error.issues) {
        const field = issue.path[0] as 'password' | 'text';
        next[field] ??= translateErrorKey(issue.message);
      }
      setErrors(next);
      return;
    }
    if (!selectionOk) return;
    props.onSubmit({ password, text: result.data.text, serviceIds: selected });
  };

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t('cases:approve.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Checkbox.Group
            label={t('cases:approve.services')}
            description={t('cases:approve.servicesHint')}
            value={selected.map(String)}
            onChange={(values) => {
              setSelected(values.map(Number));
              setSelectionTouched(true);
            }}
            error={selectionOk || !selectionTouched ? null : t('cases:approve.chooseOne')}
          >
            <Stack gap={6} mt={6}>
              {candidates.map((service) => (
                <Checkbox key={service.id} value={String(service.id)} label={service.productName} />
              ))}
              {candidates.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('cases:approve.nothingPending')}
                </Text>
              )}
            </Stack>
          </Checkbox.Group>
          <CountedTextarea
            label={t('cases:approve.text')}
            description={t('cases:approve.textHint')}
            value={text}
            onChange={(value) => {
              setText(value);
              setErrors((e) => ({ ...e, text: undefined }));
            }}
            limit={limit}
            error={errors.text}
            required
          />
          <PasswordInput
            label={t('cases:approve.password')}
            description={t('cases:approve.passwordHint')}
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setErrors((e) => ({ ...e, password: undefined }));
            }}
            error={errors.password ?? props.passwordError}
            autoComplete="current-password"
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose} disabled={props.loading}>
              {t('cases:dialogs.cancel')}
            </Button>
            <Button type="submit" loading={props.loading} disabled={candidates.length === 0}>
              {t('caseActions.approve', { ns: 'domain' })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
