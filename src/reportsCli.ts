// `npm run reports`: the operators' view of DATA_DIR/reports.jsonl (see src/reports/cli.ts).
import { ConfigError, loadConfig } from './config/load.js';
import { runReportsCli } from './reports/cli.js';

try {
  const { DATA_DIR } = loadConfig(process.env);
  process.exitCode = await runReportsCli(process.argv.slice(2), DATA_DIR, {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
