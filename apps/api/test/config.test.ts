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
    ['EMBEDDINGS_PROVIDER', 'huggingface'],
    ['EMBEDDINGS_URL', 'ftp://embeddings.example.com'],
    ['EMBEDDINGS_DIMENSIONS', '5000'],
    ['EMBEDDINGS_CACHE_BYTES', '1000'],
  ])('stops on a bad %s (%s) with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  it('embeds with the local model by default; the openai provider needs its URL and model, and no key ever shows in an error', () => {
    expect(loadConfig({})).toMatchObject({ EMBEDDINGS_PROVIDER: 'local', EMBEDDINGS_CACHE_BYTES: 32 * 1024 * 1024 });
    const secret = 'sk-do-not-print-this-0123456789';
    const missing = () => loadConfig({ EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_API_KEY: secret });
    expect(missing).toThrow(/EMBEDDINGS_URL: is required with EMBEDDINGS_PROVIDER=openai[^]*EMBEDDINGS_MODEL: is required/);
    expect(missing).not.toThrow(new RegExp(secret));
    const openai = loadConfig({ EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_URL: 'https://api.openai.com/v1/', EMBEDDINGS_MODEL: 'text-embedding-3-small', EMBEDDINGS_DIMENSIONS: '256' });
    expect(openai).toMatchObject({ EMBEDDINGS_DIMENSIONS: 256, EMBEDDINGS_SIMILARITY_FLOOR: 0.15, EMBEDDINGS_SIMILARITY_CEILING: 0.6 });
    expect(() => loadConfig({ EMBEDDINGS_SIMILARITY_FLOOR: '0.7', EMBEDDINGS_SIMILARITY_CEILING: '0.6' })).toThrow(/EMBEDDINGS_SIMILARITY_CEILING: must be above/);
  });

  it('treats an empty operator token as unset', () => {
    expect(loadConfig({ MEMORY_BANK_OPERATOR_TOKEN: '' }).MEMORY_BANK_OPERATOR_TOKEN).toBeUndefined();
  });
});
