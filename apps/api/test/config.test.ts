import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/memory_bank', PORT: 8787, LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: 10_000 });
    expect(config.MEMORY_BANK_OPERATOR_TOKEN).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://localhost/db'],
    ['DATABASE_URL', 'mysql://localhost'],
    ['DATABASE_POOL_SIZE', '0'],
    ['LOG_LEVEL', 'loud'],
    ['MEMORY_BANK_OPERATOR_TOKEN', 'short'],
    ['PUBLIC_URL', 'not a url'],
    ['PUBLIC_URL', 'http://memory.example.com'],
    ['REQUEST_TIMEOUT_MS', '-1'],
    ['SHUTDOWN_DRAIN_MS', '-1'],
    ['SHUTDOWN_DRAIN_MS', 'ten seconds'],
  ])('stops on a bad %s (%s) with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  it('treats an empty operator token as unset', () => {
    expect(loadConfig({ MEMORY_BANK_OPERATOR_TOKEN: '' }).MEMORY_BANK_OPERATOR_TOKEN).toBeUndefined();
  });
});
