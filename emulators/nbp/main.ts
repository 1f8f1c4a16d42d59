import { startNbpEmulator } from './server';

const port = Number(process.env.NBP_EMULATOR_PORT ?? 8182);
const emulator = await startNbpEmulator({ port, host: process.env.NBP_EMULATOR_HOST ?? '127.0.0.1' });
console.log(`NBP emulator listening at ${emulator.url} (set NBP_BASE_URL to it)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void emulator.close().then(() => process.exit(0)));
}
