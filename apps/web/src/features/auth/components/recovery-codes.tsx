import { Alert, Button, CopyButton, Group, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The recovery codes, shown once: a list to copy or write down, then `onDone`. */
export function RecoveryCodes(props: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('auth.twoFactor.recoveryTitle')}
      </Title>
      <Alert color="yellow">{t('auth.twoFactor.recoveryIntro')}</Alert>
      <List
        aria-label={t('auth.twoFactor.recoveryListLabel')}
        data-testid="recovery-codes"
        listStyleType="none"
        styles={{ root: { columns: 2, fontFamily: 'monospace', fontSize: 16 } }}
      >
        {props.codes.map((code) => (
          <List.Item key={code}>
            <Text ff="monospace">{code}</Text>
          </List.Item>
        ))}
      </List>
      <Group justify="space-between">
        <CopyButton value={props.codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? t('auth.twoFactor.copied') : t('auth.twoFactor.copy')}
            </Button>
          )}
        </CopyButton>
        <Button onClick={props.onDone}>{t('auth.twoFactor.continue')}</Button>
      </Group>
    </Stack>
  );
}
