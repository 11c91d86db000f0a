import { Divider, Stack } from '@mantine/core';
import { PrivacyDataExport } from './privacy-data-export';
import { PrivacyDeleteAccount } from './privacy-delete-account';

/** Profile → Privacy: the personal data download and the account's deletion. */
export function PrivacyTab() {
  return (
    <Stack maw={640} gap="lg">
      <PrivacyDataExport />
      <Divider />
      <PrivacyDeleteAccount />
    </Stack>
  );
}
