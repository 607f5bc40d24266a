// `node dist/sandbox.js [--port N] [--key K]... [--faults] [--corpus DIR] [--rate-limit N]
// [--keyless-rate-limit N] [--agent-speed N] [--wire production|spec] [--keyless-daily N] [--keyless-retry-after]
// [--license-keyed] [--license-keyless] [--passage-budget N] [--threads-disabled] [--deprecated PATH]...`: see sandbox/README.md.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startSandbox } from './server';
import { type SandboxOptions } from './serverParts';

const DEFAULT_PORT = 3002;

function num(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !Number.isFinite(n) || n < min)
    throw new Error(`--${name} must be a number >= ${min} (got ${JSON.stringify(v)})`);
  return n;
}

async function main(): Promise<void> {
  let opts: SandboxOptions;
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      options: {
        port: { type: 'string' },
        key: { type: 'string', multiple: true },
        faults: { type: 'boolean' },
        corpus: { type: 'string' },
        'rate-limit': { type: 'string' },
        'keyless-rate-limit': { type: 'string' },
        'agent-speed': { type: 'string' },
        wire: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        'keyless-daily': { type: 'string' },
        'keyless-retry-after': { type: 'boolean' },
        'license-keyless': { type: 'boolean' },
        'license-keyed': { type: 'boolean' },
        'passage-budget': { type: 'string' },
        'threads-disabled': { type: 'boolean' },
        deprecated: { type: 'string', multiple: true },
      },
    });
    if (values.help) {
      console.log(
        'usage: sandbox [--port N] [--key K]... [--faults] [--corpus DIR] [--rate-limit N] [--keyless-rate-limit N] [--agent-speed N] [--wire production|spec]' +
          ' [--keyless-daily N] [--keyless-retry-after] [--license-keyed] [--license-keyless] [--passage-budget N] [--threads-disabled] [--deprecated PATH]...',
      );
      return;
    }
    const port = num('port', values.port, 0) ?? DEFAULT_PORT;
    if (!Number.isInteger(port) || port > 65535)
      throw new Error(`--port must be an integer 0 to 65535 (got ${values.port})`);
    opts = {
      port,
      keys: values.key ?? [],
      faults: values.faults ?? false,
      quiet: false,
      rateLimit: num('rate-limit', values['rate-limit'], 0),
      keylessRateLimit: num('keyless-rate-limit', values['keyless-rate-limit'], 0),
      agentSpeed: num('agent-speed', values['agent-speed'], 0),
      keylessDaily: num('keyless-daily', values['keyless-daily'], 0),
      keylessRetryAfterHeader: values['keyless-retry-after'] ?? false,
      licenseKeyed: values['license-keyed'] === true,
      licenseKeyless: values['license-keyless'] === true,
      passageBudget: num('passage-budget', values['passage-budget'], 1),
      threadsDisabled: values['threads-disabled'] ?? false,
      deprecated: values.deprecated ?? [],
    };
    for (const p of opts.deprecated ?? [])
      if (!p.startsWith('/'))
        throw new Error(`--deprecated takes a path prefix starting with / (got ${JSON.stringify(p)})`);
    if (values.corpus !== undefined) opts.corpusDir = resolve(values.corpus);
    if (values.wire !== undefined) {
      if (values.wire !== 'production' && values.wire !== 'spec')
        throw new Error(`--wire must be production or spec (got ${JSON.stringify(values.wire)})`);
      opts.wire = values.wire;
    }
  } catch (e) {
    console.error(`sandbox: ${(e as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const sandbox = await startSandbox(opts);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error((e as Error)?.message ?? String(e));
  process.exit(1);
});
