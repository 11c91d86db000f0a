import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRecoveryCode, isTotpCode } from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { translateErrorKey } from '../../../lib/i18n';
import { errorMessage, showSuccess } from '../../../lib/notify';
import { PasswordField } from '../../../lib/ui/password-field';
import {
  newAuthenticatorSecret,
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRegenerateRecoveryCodes,
  useTwoFactorStatus,
} from '../api/two-factor-settings';
import { AuthenticatorSetup } from './authenticator-setup';
import { RecoveryCodes } from './recovery-codes';
import { SecurityCodeField } from './security-code-field';

const codeError = (code: string, recovery: boolean) =>
  isTotpCode(code) || (recovery && isRecoveryCode(code))
    ? null
    : translateErrorKey('validation.twoFactorCode');

/** Profile → Security: two-factor sign-in on or off, and new recovery codes. */
export function SecurityTab() {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const enable = useEnableTwoFactor();
  const [enrolling, setEnrolling] = useState(false);
  const [enrolError, setEnrolError] = useState<string | null>(null);
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<'disable' | 'regenerate' | null>(null);

  if (status.isPending) return <Skeleton h={160} maw={640} />;
  if (status.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(status.error)}
      </Alert>
    );
  }
  const { enabled, required, recoveryCodesLeft, rememberedDevices } = status.data;

  if (shownCodes) {
    return (
      <Stack maw={640}>
        <RecoveryCodes codes={shownCodes} onDone={() => setShownCodes(null)} />
      </Stack>
    );
  }

  return (
    <Stack maw={640}>
      <Card withBorder>
        <Stack>
          <Group justify="space-between">
            <Title order={2} size="h4">
              {t('profile.security.title')}
            </Title>
            <Badge color={enabled ? 'green' : 'gray'} variant="light">
              {enabled ? t('profile.security.on') : t('profile.security.off')}
            </Badge>
          </Group>
          <Text size="sm">
            {enabled ? t('profile.security.statusOn') : t('profile.security.statusOff')}
          </Text>
          {enabled && (
            <>
              <Text size="sm">
                {t('profile.security.recoveryLeft', { count: recoveryCodesLeft })}
              </Text>
              <Text size="sm">{t('profile.security.devices', { count: rememberedDevices })}</Text>
            </>
          )}
          {required && <Alert color="blue">{t('profile.security.required')}</Alert>}
          {enabled ? (
            <Group>
              <Button variant="default" onClick={() => setDialog('regenerate')}>
                {t('profile.security.regenerate')}
              </Button>
              {!required && (
                <Button color="red" variant="light" onClick={() => setDialog('disable')}>
                  {t('profile.security.disable')}
                </Button>
              )}
            </Group>
          ) : enrolling ? (
            <>
              <Text size="sm">{t('auth.twoFactor.enrolIntro')}</Text>
              <AuthenticatorSetup
                queryKey={['twoFactor', 'profileSecret']}
                loadSecret={newAuthenticatorSecret}
                confirming={enable.isPending}
                error={enrolError}
                confirm={(code) =>
                  enable.mutate(code, {
                    onSuccess: ({ recoveryCodes }) => {
                      setEnrolling(false);
                      setEnrolError(null);
                      setShownCodes(recoveryCodes);
                      showSuccess(t('auth.twoFactor.enrolled'));
                    },
                    onError: (failure) => setEnrolError(errorMessage(failure)),
                  })
                }
              />
            </>
          ) : (
            <Group>
              <Button onClick={() => setEnrolling(true)}>{t('profile.security.enable')}</Button>
            </Group>
          )}
        </Stack>
      </Card>
      {dialog === 'disable' && <DisableDialog onClose={() => setDialog(null)} />}
      {dialog === 'regenerate' && (
        <RegenerateDialog
          onClose={() => setDialog(null)}
          onCodes={(codes) => {
            setDialog(null);
            setShownCodes(codes);
          }}
        />
      )}
    </Stack>
  );
}

/** Confirmation to turn two-factor off: the password and a current code. */
function DisableDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string | null; code?: string | null }>({});
  const [failure, setFailure] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const next = {
      password: password ? null : translateErrorKey('validation.required'),
      code: codeError(code, true),
    };
    setErrors(next);
    if (next.password || next.code) return;
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: () => {
          showSuccess(t('profile.security.disabled'));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'WRONG_PASSWORD') {
            setErrors({ password: error.message });
          } else setFailure(errorMessage(error));
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('profile.security.disableTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t('profile.security.disableBody')}</Text>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <PasswordField
            label={t('profile.security.password')}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
            required
          />
          <SecurityCodeField value={code} onChange={setCode} error={errors.code} recovery />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={disable.isPending}>
              {t('profile.security.cancel')}
            </Button>
            <Button type="submit" color="red" loading={disable.isPending}>
              {t('profile.security.disable')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Confirmation to replace the recovery codes: a current authenticator code. */
function RegenerateDialog(props: { onClose: () => void; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const regenerate = useRegenerateRecoveryCodes();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const invalid = codeError(code, false);
    setError(invalid);
    if (invalid) return;
    regenerate.mutate(code.trim(), {
      onSuccess: ({ recoveryCodes }) => props.onCodes(recoveryCodes),
      onError: (failure) => setError(errorMessage(failure)),
    });
  };

  return (
    <Modal opened onClose={props.onClose} title={t('profile.security.regenerateTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t('profile.security.regenerateBody')}</Text>
          <SecurityCodeField value={code} onChange={setCode} error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose} disabled={regenerate.isPending}>
              {t('profile.security.cancel')}
            </Button>
            <Button type="submit" loading={regenerate.isPending}>
              {t('profile.security.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
