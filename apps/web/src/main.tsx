import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/focus.css';
import { App } from './app/app';
import { createAppRouter, routes } from './app/router';
import { startEarly } from './app/startup/early-start';
import { wireSession } from './app/session-wiring';
import { queryClient } from './lib/query-client';
import { i18nReady } from './lib/i18n';

const router = createAppRouter();
wireSession(queryClient, (path) => router.navigate(path, { replace: true }));
// A returning user's page: its chunks, the session and its data start now, beside the catalogue.
startEarly(queryClient, routes);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The texts of the starting language load as a chunk of their own; render once they are there.
void i18nReady
  .catch(() => undefined)
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    ),
  );
