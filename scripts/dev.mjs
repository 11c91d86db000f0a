// `npm run dev`: the API with reload (tsx watch, port 3000) and the Vite dev server (port 5173,
// proxying /api to the API). Stops both on Ctrl-C.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@dentflow/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@dentflow/web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((child) =>
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  }),
);
