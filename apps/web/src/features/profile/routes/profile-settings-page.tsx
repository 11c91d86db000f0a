import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Skeleton, Stack, Tabs, Title } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { profileGap } from '@dentflow/domain';
import { useTabStrip } from '../../../lib/ui/tab-strip';
import { useProfile } from '../api/get-profile';
import { AddressTab } from '../components/address-tab';
import { ConnectionsTab } from '../components/connections-tab';
import { GeneralTab } from '../components/general-tab';
import { InfoTab } from '../components/info-tab';
import { PasswordTab } from '../components/password-tab';
import { PrivacyTab } from '../components/privacy-tab';
import { RolesTab } from '../components/roles-tab';
import { EmailNotificationsTab } from '../../notifications/components/email-notifications-tab';

// The Security tab's code (QR codes included) loads when the tab opens.
const SecurityTab = lazy(() =>
  import('../../auth/components/security-tab').then((module) => ({ default: module.SecurityTab })),
);

const TABS = [
  'general',
  'address',
  'password',
  'security',
  'info',
  'roles',
  'connections',
  'notifications',
  'privacy',
] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: unknown): value is Tab => TABS.includes(value as Tab);

/** User settings, one tab per section; the tab is kept in the URL (`?tab=`). */
export function ProfileSettingsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { data: profile, isPlaceholderData } = useProfile();
  const requested = params.get('tab');
  const gap = profileGap(profile);
  const complete = gap === null;
  // An incomplete profile opens where the missing data is.
  const tab: Tab = isTab(requested) ? requested : (gap ?? 'general');

  // On a narrow screen the tab row scrolls: keep the open tab in view.
  const tabStrip = useTabStrip(tab);

  if (!profile || isPlaceholderData) {
    return (
      <Stack>
        <Title order={1} size="h2">
          {t('profile.title')}
        </Title>
        <Skeleton h={36} />
        <Skeleton h={240} />
      </Stack>
    );
  }

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('profile.title')}
      </Title>
      {!complete && (
        <Alert color="yellow" title={t('startup.completeProfileTitle')}>
          {t('profile.incompleteHint')}
        </Alert>
      )}
      {profile.registrationCoupon && (
        <Alert
          color="teal"
          icon={<IconTicket size={18} />}
          title={t('profile.registrationCouponTitle', { code: profile.registrationCoupon })}
          data-testid="registration-coupon"
        >
          {t('profile.registrationCoupon', { code: profile.registrationCoupon })}
        </Alert>
      )}
      <Tabs
        value={tab}
        onChange={(value) => {
          if (isTab(value)) setParams({ tab: value }, { replace: true });
        }}
        keepMounted={false}
      >
        <Tabs.List {...tabStrip} mb="lg">
          {TABS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {name === 'privacy' ? t('privacy.tab') : t(`profile.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="general">
          <GeneralTab profile={profile} />
        </Tabs.Panel>
        <Tabs.Panel value="address">
          <AddressTab profile={profile} />
        </Tabs.Panel>
        <Tabs.Panel value="password">
          <PasswordTab />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <Suspense fallback={<Skeleton h={160} />}>
            <SecurityTab />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="info">
          <InfoTab profile={profile} />
        </Tabs.Panel>
        <Tabs.Panel value="roles">
          <RolesTab profile={profile} />
        </Tabs.Panel>
        <Tabs.Panel value="connections">
          <ConnectionsTab profile={profile} />
        </Tabs.Panel>
        <Tabs.Panel value="notifications">
          <EmailNotificationsTab />
        </Tabs.Panel>
        <Tabs.Panel value="privacy">
          <PrivacyTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
