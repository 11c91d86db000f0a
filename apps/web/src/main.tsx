import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { App } from './app/app';
import { createAppRouter } from './app/router';
import { wireSession } from './app/session-wiring';
import { queryClient } from './lib/query-client';

const router = createAppRouter();
wireSession(queryClient, (path) => router.navigate(path, { replace: true }));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App router={router} queryClient={queryClient} />
  </StrictMode>,
);
