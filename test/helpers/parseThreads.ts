import { inject } from 'vitest';
import { loadParseTaskFrom } from '../../src/catalog/pageParser.js';

// Each test file's setup: the parse threads its apps start load their task from the run's build
// (programBuildSetup.ts), as a deployment's threads load dist/, not from the TypeScript sources.
loadParseTaskFrom(inject('parseTaskBuild'));
