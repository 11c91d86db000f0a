import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { lazyRoute } from './lazy-route';
import { PublicLayout } from './layouts/public-layout';
import { RequireAuth } from './guards/require-auth';
import { WithSessionOrPublic } from './guards/with-session-or-public';
import { RouteError } from './components/route-error';
import { SIGNED_IN_ROUTES_ID, type EarlyStartHandle } from './startup/early-start';

// Every page is its own chunk; the public layout stays small (login bundle budget).
const LoginPage = lazyRoute(() => import('../features/auth/routes/login-page'), 'LoginPage');
const ForgotPasswordPage = lazyRoute(
  () => import('../features/auth/routes/forgot-password-page'),
  'ForgotPasswordPage',
);
const RegisterPage = lazyRoute(
  () => import('../features/auth/routes/register-page'),
  'RegisterPage',
);
const ResetPasswordPage = lazyRoute(
  () => import('../features/auth/routes/reset-password-page'),
  'ResetPasswordPage',
);
const VerifyPage = lazyRoute(() => import('../features/auth/routes/verify-page'), 'VerifyPage');
const PaymentReturnPage = lazyRoute(
  () => import('../features/payments/routes/payment-return-page'),
  'PaymentReturnPage',
);
const PaymentQueuePage = lazyRoute(
  () => import('../features/payments/routes/payment-queue-page'),
  'PaymentQueuePage',
);
const CertificatePage = lazyRoute(
  () => import('../features/approvals/routes/certificate-page'),
  'CertificatePage',
);
const NotFoundPage = lazyRoute(
  () => import('../features/errors/routes/not-found-page'),
  'NotFoundPage',
);
const NotAuthorizedPage = lazyRoute(
  () => import('../features/errors/routes/not-authorized-page'),
  'NotAuthorizedPage',
);
const AreaInPreparation = lazyRoute(
  () => import('./components/area-in-preparation'),
  'AreaInPreparation',
);
const MainLayout = lazyRoute(() => import('./layouts/main-layout'), 'MainLayout');
const CasesPage = lazyRoute(() => import('../features/cases/routes/cases-page'), 'CasesPage');
const NewCasePage = lazyRoute(
  () => import('../features/cases/routes/new-case-page'),
  'NewCasePage',
);
const CasePage = lazyRoute(() => import('../features/cases/routes/case-page'), 'CasePage');
const ArchivePage = lazyRoute(() => import('../features/cases/routes/archive-page'), 'ArchivePage');
const ProfileSettingsPage = lazyRoute(
  () => import('../features/profile/routes/profile-settings-page'),
  'ProfileSettingsPage',
);
const CouponsPage = lazyRoute(
  () => import('../features/coupons/routes/coupons-page'),
  'CouponsPage',
);
const ProductsPage = lazyRoute(
  () => import('../features/products/routes/products-page'),
  'ProductsPage',
);
const SettingsPage = lazyRoute(
  () => import('../features/settings/routes/settings-page'),
  'SettingsPage',
);
const NotificationsPage = lazyRoute(
  () => import('../features/notifications/routes/notifications-page'),
  'NotificationsPage',
);
const StudentsPage = lazyRoute(
  () => import('../features/students/routes/students-page'),
  'StudentsPage',
);
const PartnersPage = lazyRoute(
  () => import('../features/partners/routes/partners-page'),
  'PartnersPage',
);
const AuditPage = lazyRoute(() => import('../features/audit/routes/audit-page'), 'AuditPage');
const UsersPage = lazyRoute(() => import('../features/users/routes/users-page'), 'UsersPage');
const UserPage = lazyRoute(() => import('../features/users/routes/user-page'), 'UserPage');
const ShopPage = lazyRoute(() => import('../features/shop/routes/shop-page'), 'ShopPage');
const ShopItemPage = lazyRoute(
  () => import('../features/shop/routes/shop-item-page'),
  'ShopItemPage',
);
const CheckoutPage = lazyRoute(
  () => import('../features/shop/routes/checkout-page'),
  'CheckoutPage',
);

/** The case list's page of cases, asked for as soon as the session is there (early start). */
const caseListHandle: EarlyStartHandle = {
  prefetch: (queryClient, params, search, session) =>
    Promise.all([import('../features/cases/api/list-cases'), session]).then(
      ([{ prefetchCaseList }]) => prefetchCaseList(queryClient, params.filter, search),
    ),
};

/** Main routes whose screens arrive with later issues: an honest "being prepared" state. */
const AREAS_IN_PREPARATION: { path: string; titleKey: string }[] = [];

export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: 'login', element: <LoginPage /> },
          { path: 'forgotPassword', element: <ForgotPasswordPage /> },
          { path: 'register/:coupom?', element: <RegisterPage /> },
          { path: 'resetPassword/:token', element: <ResetPasswordPage /> },
          { path: 'verify/:token?', element: <VerifyPage /> },
          { path: 'error/404', element: <NotFoundPage /> },
          { path: 'error/not-authorized', element: <NotAuthorizedPage /> },
          // Public: anyone checks a certificate code, signed in or not (decision 028).
          { path: 'certificate/:code?', element: <CertificatePage /> },
        ],
      },
      {
        // The providers' return pages: in the main layout with a session, else in the public one
        // with the payment's status only (a login comes back here for the details).
        element: (
          <WithSessionOrPublic
            signedIn={
              <RequireAuth>
                <MainLayout />
              </RequireAuth>
            }
            anonymous={<PublicLayout />}
          />
        ),
        children: [
          { path: 'notification/pagseguro', element: <PaymentReturnPage provider="pagseguro" /> },
          { path: 'notification/paypal', element: <PaymentReturnPage provider="paypal" /> },
        ],
      },
      {
        id: SIGNED_IN_ROUTES_ID,
        element: (
          <RequireAuth>
            <MainLayout />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Navigate to="/cases/new" replace /> },
          { path: 'cases', element: <Navigate to="/cases/new" replace /> },
          // The static path wins over the filter parameter (react-router ranks it higher).
          { path: 'cases/create', element: <NewCasePage /> },
          { path: 'cases/:filter', element: <CasesPage />, handle: caseListHandle },
          { path: 'case/:id', element: <CasePage /> },
          { path: 'archive', element: <ArchivePage /> },
          { path: 'profile-settings', element: <ProfileSettingsPage /> },
          { path: 'notifications', element: <NotificationsPage /> },
          { path: 'shop', element: <ShopPage /> },
          { path: 'shop/item/:item_id', element: <ShopItemPage /> },
          { path: 'shop/checkout', element: <CheckoutPage /> },
          { path: 'products', element: <ProductsPage /> },
          // /settings; the optional segment names the section (product categories first).
          { path: 'settings/:section?', element: <SettingsPage /> },
          { path: 'coupoms', element: <CouponsPage /> },
          { path: 'payments', element: <PaymentQueuePage /> },
          // Supervisors read users, admins change them.
          { path: 'users', element: <UsersPage /> },
          { path: 'users/:id', element: <UserPage /> },
          // The audit log search, admins only.
          { path: 'audit', element: <AuditPage /> },
          // A clinic's linked partners; admins manage the links.
          { path: 'partners', element: <PartnersPage /> },
          // An instructor's students and invitations.
          { path: 'students', element: <StudentsPage /> },
          ...AREAS_IN_PREPARATION.map(({ path, titleKey }) => ({
            path,
            element: <AreaInPreparation titleKey={titleKey} />,
          })),
          // Unknown paths of the main layout go to the root.
          { path: '*', element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
