import { computeDeviation } from './deviation';
import type { DeviationReply, DeviationRequest } from './use-deviation';

// The deviation map runs here, off the page's thread: a full arch takes about a second, which
// would freeze the viewer's controls and the progress bar.
self.addEventListener('message', (event: MessageEvent<DeviationRequest>) => {
  const reply = (message: DeviationReply, transfer: Transferable[] = []) =>
    self.postMessage(message, { transfer });
  try {
    let reported = 0;
    const result = computeDeviation(event.data.older, event.data.newer, (fraction) => {
      // Each message costs a round of the page's event loop: whole percents are enough.
      if (fraction - reported >= 0.01 || fraction === 1) {
        reported = fraction;
        reply({ type: 'progress', fraction });
      }
    });
    reply({ type: 'done', result }, [result.distances.buffer]);
  } catch {
    reply({ type: 'failed' });
  }
});
