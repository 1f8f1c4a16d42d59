import { writeFileSync } from 'node:fs';
import { renderSdkFacts, SDK_FACTS_FILE } from './sdk-facts';

writeFileSync(SDK_FACTS_FILE, await renderSdkFacts());
