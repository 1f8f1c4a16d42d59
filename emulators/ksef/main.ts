import { z } from 'zod';
import { startKsefEmulator } from './server';

const ZEnv = z.object({
  KSEF_EMULATOR_PORT: z.coerce.number().int().min(0).default(8181),
  KSEF_EMULATOR_HOST: z.string().default('127.0.0.1'),
  KSEF_EMULATOR_LIMITS: z.enum(['test', 'prod', 'off']).default('test'),
  KSEF_EMULATOR_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  KSEF_EMULATOR_SEED: z.coerce.number().int().default(1),
});

const env = ZEnv.parse(process.env);
const emulator = await startKsefEmulator({
  port: env.KSEF_EMULATOR_PORT,
  host: env.KSEF_EMULATOR_HOST,
  limits: env.KSEF_EMULATOR_LIMITS,
  processingDelayMs: env.KSEF_EMULATOR_DELAY_MS,
  seed: env.KSEF_EMULATOR_SEED,
});
console.log(`KSeF emulator listening on ${emulator.url} (limits ${env.KSEF_EMULATOR_LIMITS}, processing delay ${env.KSEF_EMULATOR_DELAY_MS} ms)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void emulator.close().then(() => process.exit(0));
  });
}
