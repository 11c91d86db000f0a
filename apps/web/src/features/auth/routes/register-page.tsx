import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  dataGeneralUpdateSchema,
  emailSchema,
  nickNameSchema,
  passwordSchema,
  MESSAGE,
} from '@dentflow/domain';
import { ApiError } from '../../../lib/api-client';
import { fieldRule } from '../../../lib/form';
import { currentLanguage, translateErrorKey } from '../../../lib/i18n';
import { useNicknameAvailability } from '../../../lib/nickname-availability';
import { showError, showSuccess } from '../../../lib/notify';
import { NicknameInput } from '../../../lib/ui/nickname-input';
import { InvitationBanner } from '../../students/components/invitation-banner';
import { useRegister, type RegisterInput } from '../api/register';
import { TermsDialog } from '../components/terms-dialog';
import { PasswordField } from '../../../lib/ui/password-field';

export function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { coupom } = useParams();
  // An instructor's invitation link (`/register?invite=…`): the new account becomes their student.
  const invite = useSearchParams()[0].get('invite')?.trim() || null;
  const registerMutation = useRegister();
  const [termsOpen, setTermsOpen] = useState(false);
  const [termsRead, setTermsRead] = useState(false);

  const form = useForm({
    initialValues: {
      email: '',
      fname: '',
      lname: '',
      nickName: '',
      password: '',
      confirmPassword: '',
      coupom: coupom ?? '',
      terms: false,
    },
    validate: {
      email: fieldRule(emailSchema),
      // The same name rules as the profile's general data.
      fname: fieldRule(dataGeneralUpdateSchema.shape.fname),
      lname: fieldRule(dataGeneralUpdateSchema.shape.lname),
      nickName: fieldRule(nickNameSchema),
      password: fieldRule(passwordSchema),
      confirmPassword: (value, values) =>
        value === values.password ? null : translateErrorKey(MESSAGE.confirmed),
      terms: (value) => (value ? null : translateErrorKey(MESSAGE.termsRequired)),
    },
  });
  const nicknameStatus = useNicknameAvailability(form.values.nickName);

  const submit = form.onSubmit((values) => {
    if (nicknameStatus === 'taken') return;
    const input: RegisterInput & { invite?: string } = {
      email: values.email.trim(),
      password: values.password,
      fname: values.fname.trim(),
      lname: values.lname.trim(),
      nickName: values.nickName.trim(),
      terms: values.terms,
      coupom: values.coupom.trim() || undefined,
      language: currentLanguage(),
      // The server ignores a link that is no longer usable.
      ...(invite ? { invite } : {}),
    };
    registerMutation.mutate(input, {
      onSuccess: () => {
        showSuccess(t('auth.register.success'));
        void navigate('/verify', { state: { registeredEmail: values.email.trim() } });
      },
      onError: (error) => {
        if (error instanceof ApiError) {
          if (error.code === 'EMAIL_TAKEN') form.setFieldError('email', error.message);
          else if (error.code === 'NICKNAME_TAKEN') form.setFieldError('nickName', error.message);
          else if (error.code === 'INVALID_COUPON') form.setFieldError('coupom', error.message);
          else form.setErrors(error.fields);
        }
        showError(error);
      },
    });
  });

  return (
    <Stack>
      <div>
        <Title order={1} size="h2">
          {t('auth.register.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('auth.register.subtitle')}
        </Text>
      </div>
      <InvitationBanner token={invite} />
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('auth.register.email')}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('profile.general.fname')}
              autoComplete="given-name"
              required
              {...form.getInputProps('fname')}
            />
            <TextInput
              label={t('profile.general.lname')}
              autoComplete="family-name"
              required
              {...form.getInputProps('lname')}
            />
          </SimpleGrid>
          <NicknameInput
            label={t('profile.general.nickName')}
            required
            status={nicknameStatus}
            {...form.getInputProps('nickName')}
          />
          <PasswordField
            label={t('auth.register.password')}
            description={t('auth.passwordPolicy')}
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <PasswordField
            label={t('auth.register.confirmPassword')}
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <TextInput label={t('auth.register.coupon')} {...form.getInputProps('coupom')} />
          <Stack gap={4}>
            <Group gap="xs">
              <Button
                variant="light"
                size="xs"
                onClick={() => {
                  setTermsOpen(true);
                  setTermsRead(true);
                }}
              >
                {t('auth.register.readTerms')}
              </Button>
            </Group>
            <Checkbox
              label={t('auth.register.terms')}
              description={termsRead ? undefined : t('auth.register.termsMustOpen')}
              disabled={!termsRead}
              {...form.getInputProps('terms', { type: 'checkbox' })}
            />
          </Stack>
          <Button
            type="submit"
            loading={registerMutation.isPending}
            disabled={nicknameStatus === 'taken'}
            fullWidth
          >
            {t('auth.register.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        {t('auth.register.haveAccount')}{' '}
        <Anchor component={Link} to="/login">
          {t('auth.register.login')}
        </Anchor>
      </Text>
      <TermsDialog opened={termsOpen} onClose={() => setTermsOpen(false)} />
    </Stack>
  );
}
