'use client';
import { useI18n } from '../i18n';
import type { KsefActions, KsefStatus } from './use-ksef-actions';

/** Connects test mode to the KSeF emulator, with a token or a certificate; shown only where the emulator is offered. */
export function EmulatorCard({ data, actions: { emulator, busy } }: { data: KsefStatus; actions: KsefActions }) {
  const k = useI18n().t.ksef;
  if (!data?.emulator) return null;
  return (
    <section className="card" aria-labelledby="emulator-h">
      <h2 id="emulator-h">{k.emulatorTitle}</h2>
      <p>{k.emulatorIntro}</p>
      {data.sellerNip ? null : <p className="warn">{k.needSeller}</p>}
      <div className="actions">
        <button type="button" className="primary" onClick={() => emulator.mutate({ kind: 'token' })} disabled={busy || !data.sellerNip}>
          {k.emulatorButton}
        </button>
        <button type="button" onClick={() => emulator.mutate({ kind: 'certificate' })} disabled={busy || !data.sellerNip}>
          {k.emulatorCertButton}
        </button>
      </div>
    </section>
  );
}
