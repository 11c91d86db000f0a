import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import {
  AppShell,
  Avatar,
  Box,
  Anchor,
  Burger,
  Center,
  CloseButton,
  Group,
  Loader,
  Menu,
  NavLink,
  Paper,
  ScrollArea,
  Text,
  UnstyledButton,
  useMatches,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconAffiliate,
  IconArchive,
  IconBell,
  IconBuildingStore,
  IconCash,
  IconChevronDown,
  IconHistory,
  IconLogout,
  IconSchool,
  IconSettings,
  IconTicket,
  IconUserCog,
  IconUsers,
  IconBox,
  type Icon,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  isAdmin,
  isClinic,
  isDoctor,
  isInstructor,
  isSupervisor,
  personDisplayName,
  sessionRoles,
} from '@dentflow/domain';
import { useProfile } from '../../features/profile/api/get-profile';
import { useLogout } from '../../features/auth/api/logout';
import { BrandMark } from '../components/brand-mark';
import { LanguageSwitcher } from '../components/language-switcher';
import { RouteTransition } from '../components/route-transition';
import { StartupGate } from '../startup/startup-gate';
import { CartMenu } from '../../features/shop/components/cart-menu';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { LiveStatus } from '../../lib/live/live-status';
import { CaseListLinks } from './case-list-links';

interface SidebarLink {
  to: string;
  labelKey: string;
  icon: Icon;
  /** Which roles see the link; every main route carries the public rule. */
  visible: (roles: readonly string[]) => boolean;
}

const everyone = () => true;

/** Links beyond the pinned case statuses, shown to the roles that work there. */
const SIDEBAR_LINKS: SidebarLink[] = [
  { to: '/shop', labelKey: 'nav.shop', icon: IconBuildingStore, visible: isDoctor },
  { to: '/archive', labelKey: 'nav.archive', icon: IconArchive, visible: everyone },
  { to: '/notifications', labelKey: 'nav.notifications', icon: IconBell, visible: everyone },
  { to: '/students', labelKey: 'nav.students', icon: IconSchool, visible: isInstructor },
  { to: '/partners', labelKey: 'admin:partners.nav', icon: IconAffiliate, visible: isClinic },
  { to: '/users', labelKey: 'nav.users', icon: IconUsers, visible: isSupervisor },
  { to: '/payments', labelKey: 'nav.payments', icon: IconCash, visible: isSupervisor },
  { to: '/coupoms', labelKey: 'nav.coupoms', icon: IconTicket, visible: isAdmin },
  { to: '/products', labelKey: 'nav.products', icon: IconBox, visible: isAdmin },
  { to: '/settings', labelKey: 'nav.settings', icon: IconSettings, visible: isAdmin },
  { to: '/audit', labelKey: 'admin:audit.nav', icon: IconHistory, visible: isAdmin },
];

function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: profile } = useProfile();
  const roles = sessionRoles(profile?.roles ?? []);

  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <nav aria-label={t('nav.main')}>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="xs" pb={4}>
          {t('nav.cases')}
        </Text>
        <CaseListLinks onNavigate={onNavigate} />
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
          {t('nav.more')}
        </Text>
        {SIDEBAR_LINKS.filter((link) => link.visible(roles)).map(
          ({ to, labelKey, icon: LinkIcon }) => (
            <NavLink
              key={to}
              component={Link}
              to={to}
              label={t(labelKey)}
              leftSection={<LinkIcon size={16} />}
              active={pathname === to || pathname.startsWith(`${to}/`)}
              onClick={onNavigate}
            />
          ),
        )}
      </nav>
    </ScrollArea>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  const logout = useLogout();
  const general = profile?.dataGeneral;
  const name = general?.displayName || personDisplayName(general) || general?.email || '';
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');

  const signOut = () => logout.mutate();

  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('nav.userMenu')} data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar src={general?.avatar || null} radius="xl" size={34} color="dentflow">
              {initials}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
              {name}
            </Text>
            <Box visibleFrom="sm" style={{ display: 'flex' }}>
              <IconChevronDown size={14} />
            </Box>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/profile-settings" leftSection={<IconUserCog size={16} />}>
          {t('nav.profileSettings')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={signOut}
          disabled={logout.isPending}
        >
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** Main layout: vertical, sidebar, floating navbar, static footer, zoom-fade transition. */
/**
 * The cart sits with the shop: shown to those who may buy (clinic, doctor, admin).
 * Read inside the start-up gate, so it asks nothing before the session is restored.
 */
function ShopperCart() {
  const { data: profile } = useProfile();
  return isDoctor(sessionRoles(profile?.roles ?? [])) ? <CartMenu /> : null;
}

export function MainLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [navOpened, { toggle, close }] = useDisclosure(false);
  const narrow = useMatches({ base: true, sm: false });

  return (
    <StartupGate>
      <AppShell
        layout="alt"
        header={{ height: 76 }}
        navbar={{ width: 260, breakpoint: 'md', collapsed: { mobile: !navOpened } }}
        padding="md"
        bg="gray.0"
      >
        {/* Floating navbar: a card over the page, right of the full-height sidebar. */}
        <AppShell.Header withBorder={false} bg="transparent" px="md" pt="sm">
          <Paper shadow="sm" radius="md" px={{ base: 'xs', sm: 'md' }} h={56} withBorder>
            <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
              <Group gap="xs" wrap="nowrap">
                <Burger
                  opened={navOpened}
                  onClick={toggle}
                  hiddenFrom="md"
                  size="sm"
                  aria-label={t('nav.toggleNavigation')}
                  aria-expanded={navOpened}
                />
                <Anchor component={Link} to="/" aria-label={t('app.home')} hiddenFrom="md">
                  <BrandMark compact />
                </Anchor>
                <Text fw={600} visibleFrom="lg">
                  {t('app.tagline')}
                </Text>
              </Group>
              <Group gap={6} wrap="nowrap">
                <LiveStatus />
                <LanguageSwitcher compact={narrow} />
                <ShopperCart />
                <NotificationBell />
                <UserMenu />
              </Group>
            </Group>
          </Paper>
        </AppShell.Header>
        <AppShell.Navbar p="sm">
          <AppShell.Section mb="sm" h={52} style={{ display: 'flex', alignItems: 'center' }}>
            <Group justify="space-between" w="100%" wrap="nowrap">
              <Link to="/" style={{ textDecoration: 'none' }} aria-label={t('app.home')}>
                <BrandMark />
              </Link>
              <CloseButton hiddenFrom="md" onClick={close} aria-label={t('nav.closeNavigation')} />
            </Group>
          </AppShell.Section>
          <Sidebar onNavigate={close} />
        </AppShell.Navbar>
        <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
          <div style={{ flex: 1 }}>
            <Suspense
              fallback={
                <Center py="xl">
                  <Loader />
                </Center>
              }
            >
              <RouteTransition key={pathname}>
                <Outlet />
              </RouteTransition>
            </Suspense>
          </div>
          <Text component="footer" c="dimmed" size="xs" py="md" mt="xl">
            {t('app.footer', { year: new Date().getFullYear() })}
          </Text>
        </AppShell.Main>
      </AppShell>
    </StartupGate>
  );
}
