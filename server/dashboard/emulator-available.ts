import { createEmulatorControl } from '../../emulators/ksef/control-client';
import { ksefBaseUrl } from '../submission/ksef-clients';

/** Whether the KSeF test environment URL is the local emulator (dev and e2e): only it answers /control. */
export async function isKsefEmulator(): Promise<boolean> {
  const url = new URL(ksefBaseUrl('test'));
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return false; // never probe a real KSeF
  const control = createEmulatorControl(url.href);
  return Promise.race([
    control.counters().then(() => true, () => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000).unref()),
  ]);
}
