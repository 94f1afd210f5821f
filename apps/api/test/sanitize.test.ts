import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { createSanitizer, MAX_STRING_BYTES, type Sanitized } from '../src/hooks/sanitize';
import { SECRET_KINDS } from '../src/hooks/secret-patterns';
import { ALL_SECRETS, embedSecrets, findSurvivingSecrets, SECRET_CORPUS, SECRET_FIELDS } from './fixtures/secrets';

const sanitizer = createSanitizer();
const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const EMPTY_REPORT = { redactions: {}, truncations: 0, truncatedBytes: 0 };

/** Sanitizing the output again must change nothing and count nothing. */
function expectFixedPoint<T>(result: Sanitized<T>, s = sanitizer): void {
  const again = s.sanitize(result.value);
  expect(again.value).toEqual(result.value);
  expect(again.report).toEqual(EMPTY_REPORT);
}

function sanitizeText(text: string): Sanitized<string> {
  const result = sanitizer.sanitize(text);
  expectFixedPoint(result);
  return result;
}


describe('secret corpus', () => {
  it('covers every kind with realistic contexts', () => {
    expect(new Set(SECRET_CORPUS.map((sample) => sample.kind))).toEqual(new Set(SECRET_KINDS));
    expect(SECRET_KINDS.length).toBeGreaterThanOrEqual(40);
    expect(SECRET_CORPUS.length + SECRET_FIELDS.length).toBeGreaterThanOrEqual(25);
    for (const sample of SECRET_CORPUS) expect(sample.context).toContain(sample.secret);
    expect(new Set(ALL_SECRETS).size).toBe(ALL_SECRETS.length);
  });

  it.each(SECRET_CORPUS.map((sample, i) => ({ ...sample, name: `${sample.kind} #${i}` })))('redacts $name in context', (sample) => {
    const { value, report } = sanitizeText(sample.context);
    expect(findSurvivingSecrets(value)).toEqual([]);
    expect(value).toContain(`[REDACTED:${sample.kind}]`);
    expect(report.redactions[sample.kind]).toBeGreaterThanOrEqual(1);
    expect(sanitizer.redactText(sample.context)).toBe(value);
  });

  it('redacts every secret of a nested harness payload, and only the secrets', () => {
    const payload = embedSecrets();
    const before = JSON.stringify(payload);
    expect(findSurvivingSecrets(before)).toHaveLength(ALL_SECRETS.length);

    const result = sanitizer.sanitize(payload);
    const text = JSON.stringify(result.value);
    expect(findSurvivingSecrets(text)).toEqual([]);
    expect(JSON.stringify(payload)).toBe(before); // the input is not touched
    expect(result.value).toMatchObject({
      session_id: payload.session_id,
      transcript_path: payload.transcript_path,
      cwd: '/home/dev/app',
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_use_id: payload.tool_use_id,
      permission_mode: 'default',
      tool_input: { timeout: 120000, env: { NODE_ENV: 'production' } },
      tool_response: { interrupted: false, cache: { '[REDACTED:github_token]': 'valid', tokens: 1234 } },
    });
    expect(result.report.redactions.secret_field).toBe(2 * SECRET_FIELDS.length);
    for (const kind of SECRET_KINDS) expect(result.report.redactions[kind], kind).toBeGreaterThanOrEqual(1);
    expectFixedPoint(result);
  });

  it.each([
    ['JSON-encoded', (payload: unknown) => JSON.stringify(payload)],
    ['pretty-printed', (payload: unknown) => JSON.stringify(payload, null, 2)],
    ['JSON-encoded twice', (payload: unknown) => JSON.stringify(JSON.stringify(payload))],
  ])('redacts every secret of the payload %s into a single string', (_, encode) => {
    const result = sanitizer.sanitize({ prompt: encode(embedSecrets()) });
    expect(findSurvivingSecrets(result.value.prompt)).toEqual([]);
    expectFixedPoint(result);
  });

  it('reports exactly the markers it leaves, as the ledger rebuild counts them', () => {
    for (const value of [embedSecrets(), { text: '{"token": "Bearer abc123def456", "x": "TOKEN=abc.eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig123"}' }]) {
      const { value: out, report } = sanitizer.sanitize(value);
      const counted: Record<string, number> = {};
      for (const [, kind] of JSON.stringify(out).matchAll(/\[REDACTED:([a-z0-9_]+)\]/g)) counted[kind!] = (counted[kind!] ?? 0) + 1;
      expect(report.redactions).toEqual(counted);
    }
  });

  it('finds a surviving fragment of a multi-line secret', () => {
    const pem = SECRET_CORPUS.find((sample) => sample.kind === 'private_key')!;
    const oneLine = pem.secret.split('\n')[3]!;
    expect(findSurvivingSecrets(`leaked: ${oneLine}`)).toEqual([pem.secret]);
    expect(findSurvivingSecrets('nothing to see')).toEqual([]);
  });
});

describe('what a redaction keeps', () => {
  it.each([
    ['curl -H "Authorization: Bearer abc123def456" https://x', 'curl -H "Authorization: Bearer [REDACTED:bearer]" https://x'],
    ['retrying with Bearer 9f8e7d6c5b4a3 now', 'retrying with Bearer [REDACTED:bearer] now'],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic [REDACTED:authorization_header]'],
    ['authorization: abc123', 'authorization: [REDACTED:authorization_header]'],
    ["-H 'X-Api-Key: abc123'", "-H 'X-Api-Key: [REDACTED:api_key_header]'"],
    ['postgres://app:s3cret@db:5432/x', 'postgres://app:[REDACTED:url_credentials]@db:5432/x'],
    ['redis://:hunter22@cache:6379/0', 'redis://:[REDACTED:url_credentials]@cache:6379/0'],
    ['https://bob:p@ss@w0rd@git.example.com/x.git', 'https://bob:[REDACTED:url_credentials]@git.example.com/x.git'],
    ['export FOO_TOKEN=abc123', 'export FOO_TOKEN=[REDACTED:assignment]'],
    ['PASSWORD=hunter2\nUSER=app', 'PASSWORD=[REDACTED:assignment]\nUSER=app'],
    ['DB_PASSWORD: hunter2', 'DB_PASSWORD: [REDACTED:assignment]'],
    ['API_KEY="abc def"', 'API_KEY="[REDACTED:assignment]"'],
    ['{"client_secret": "abc", "id": 1}', '{"client_secret": "[REDACTED:assignment]", "id": 1}'],
    ['connect(password=pw123, host=h)', 'connect(password=[REDACTED:assignment], host=h)'],
    ['https://x.test/cb?token=abc123&page=2', 'https://x.test/cb?token=[REDACTED:assignment]&page=2'],
    ['a <private>x</private> b <private>y</private> c', 'a [REDACTED:private] b [REDACTED:private] c'],
    ['notes:\n<PRIVATE>line 1\nline 2</Private>\nend', 'notes:\n[REDACTED:private]\nend'],
    ['tell no one <private>the rest is mine', 'tell no one [REDACTED:private]'],
    ['password: "it\'s fine"', 'password: "[REDACTED:assignment]"'],
    ['PASSWORD=abc\\def next', 'PASSWORD=[REDACTED:assignment] next'],
    [String.raw`{\"db_password\": \"hunter22\", \"a\": 1}`, String.raw`{\"db_password\": \"[REDACTED:assignment]\", \"a\": 1}`],
    [String.raw`DB_PASSWORD=xyz\nDB_NAME=app`, String.raw`DB_PASSWORD=[REDACTED:assignment]\nDB_NAME=app`],
    [String.raw`HTTP/1.1\r\nAuthorization: Basic dXNlcjpwYXNz\r\nAccept: */*`, String.raw`HTTP/1.1\r\nAuthorization: Basic [REDACTED:authorization_header]\r\nAccept: */*`],
    [String.raw`tokens:\nghp_${'a1B2c3D4e5'.repeat(4)}\n`, String.raw`tokens:\n[REDACTED:github_token]\n`],
    ['x\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBase64Body+/=\n-----END EC PRIVATE KEY-----\ny', 'x\n[REDACTED:private_key]\ny'],
    ['$ head -2 key.pem\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n$ ls', '$ head -2 key.pem\n[REDACTED:private_key]$ ls'],
  ])('%j', (input, expected) => {
    expect(sanitizeText(input).value).toBe(expected);
  });

  it('prefers the specific kind over the generic context', () => {
    const key = `sk-proj-${'Ab1'.repeat(20)}`;
    expect(sanitizeText(`OPENAI_API_KEY=${key}`)).toEqual({ value: 'OPENAI_API_KEY=[REDACTED:openai_key]', report: { ...EMPTY_REPORT, redactions: { openai_key: 1 } } });
    const mbk = `mbk_${'a1B2-_'.repeat(6)}x9Z3`;
    expect(sanitizeText(`Authorization: Bearer ${mbk}`).value).toBe('Authorization: Bearer [REDACTED:memory_bank_key]');
  });
});

describe('objects, arrays and keys', () => {
  it('walks nested objects and arrays, and passes other values through', () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    const input = { n: 1, f: 1.5, b: true, z: null, list: [[`x ${token}`], { deep: [{ deeper: token }] }, 7], s: 'plain text' };
    const { value, report } = sanitizer.sanitize(input);
    expect(value).toEqual({
      n: 1, f: 1.5, b: true, z: null,
      list: [['x [REDACTED:github_token]'], { deep: [{ deeper: '[REDACTED:github_token]' }] }, 7],
      s: 'plain text',
    });
    expect(report.redactions).toEqual({ github_token: 2 });
    expect(input.list[0]).toEqual([`x ${token}`]);
    expect(sanitizer.sanitize(42).value).toBe(42);
    expect(sanitizer.sanitize(null).value).toBeNull();
    expect(sanitizer.sanitize(`use ${token}`).value).toBe('use [REDACTED:github_token]');
  });

  it('redacts secrets in object keys, keeping keys that collide apart', () => {
    const a = `xoxb-${'1234567890'}-${'abcdefABCDEF'}`;
    const b = `xoxb-${'0987654321'}-${'ABCDEFabcdef'}`;
    const { value, report } = sanitizer.sanitize({ [a]: 1, [b]: 2, ok: 3 });
    expect(value).toEqual({ '[REDACTED:slack_token]': 1, '[REDACTED:slack_token]~2': 2, ok: 3 });
    expect(report.redactions).toEqual({ slack_token: 2 });
    expectFixedPoint({ value, report });
  });

  it('keeps a "__proto__" key an own property', () => {
    const input = JSON.parse('{"__proto__": {"password": "x"}, "a": 1}') as Record<string, unknown>;
    const { value } = sanitizer.sanitize(input);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"password":"[REDACTED:secret_field]"},"a":1}');
  });

  it('copes with nesting deeper than the call stack', () => {
    const depth = 50_000;
    const input: unknown = JSON.parse(`${'['.repeat(depth)}"PASSWORD=hunter2"${']'.repeat(depth)}`);
    const { value, report } = sanitizer.sanitize(input);
    let inner: unknown = value;
    for (let i = 0; i < depth; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe('PASSWORD=[REDACTED:assignment]');
    expect(report.redactions).toEqual({ assignment: 1 });
  });
});

describe('secret-named fields', () => {
  const TARGETS = [
    'password', 'api_key', 'apiKey', 'API_KEY', 'secret', 'client_secret', 'clientSecret', 'token', 'access_token', 'refresh_token',
    'id_token', 'authorization', 'Authorization', 'private_key', 'privateKey', 'aws_secret_access_key', 'GITHUB_TOKEN',
    'OPENAI_API_KEY', 'DB_PASSWORD', 'PGPASSWORD', 'STRIPE_SECRET', 'x-api-key', 'passphrase', 'MY_SERVICE_KEY', 'auth',
  ];
  const NON_TARGETS = [
    'session_id', 'tool_use_id', 'transcript_path', 'hook_event_name', 'tool_name', 'sessionID', 'callID', 'input_tokens',
    'output_tokens', 'max_tokens', 'token_count', 'tokens', 'cwd', 'prompt', 'permission_mode', 'key', 'keys', 'sort_key',
    'sortKey', 'primaryKey', 'public_key', 'PUBLIC_KEY', 'tokenizer', 'token_type', 'keyboard', 'monkey', 'secret_name',
    'password_hash', 'idempotency_key', 'api_key_id', 'description', 'model',
  ];

  it.each(TARGETS)('redacts the string value of %s', (field) => {
    const { value, report } = sanitizer.sanitize({ [field]: 'plain-looking value', other: 'kept' });
    expect(value).toEqual({ [field]: '[REDACTED:secret_field]', other: 'kept' });
    expect(report.redactions).toEqual({ secret_field: 1 });
    expectFixedPoint({ value, report });
  });

  it.each(NON_TARGETS)('leaves %s alone', (field) => {
    const input = { [field]: 'plain-looking value' };
    expect(sanitizer.sanitize(input)).toEqual({ value: input, report: EMPTY_REPORT });
  });

  it('only redacts strings, and walks into objects under a secret name', () => {
    const input = { max_tokens: 4096, token: 5, password: null, secret: { label: 'plain', apiKey: 'k-123' }, api_key: '' };
    const { value, report } = sanitizer.sanitize(input);
    expect(value).toEqual({ max_tokens: 4096, token: 5, password: null, secret: { label: 'plain', apiKey: '[REDACTED:secret_field]' }, api_key: '' });
    expect(report.redactions).toEqual({ secret_field: 1 });
  });
});

describe('truncation', () => {
  function parse(text: string): { head: string; removed: number; tail: string } {
    const match = /^([\s\S]*)…\[truncated (\d+) bytes\]…([\s\S]*)$/.exec(text);
    expect(match, 'truncation marker').not.toBeNull();
    return { head: match![1]!, removed: Number(match![2]), tail: match![3]! };
  }
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  it('cuts the middle of a long string to the byte limit, keeping both ends', () => {
    const original = `${'head '.repeat(20_000)}${'tail '.repeat(20_000)}`;
    const { value, report } = sanitizeText(original);
    expect(utf8Bytes(value)).toBeLessThanOrEqual(MAX_STRING_BYTES);
    expect(utf8Bytes(value)).toBeGreaterThan(MAX_STRING_BYTES - 200);
    const { head, removed, tail } = parse(value);
    expect(original.startsWith(head) && original.endsWith(tail)).toBe(true);
    expect(utf8Bytes(head) + removed + utf8Bytes(tail)).toBe(utf8Bytes(original));
    expect(Math.abs(utf8Bytes(head) - utf8Bytes(tail))).toBeLessThan(64);
    expect(report).toEqual({ redactions: {}, truncations: 1, truncatedBytes: removed });
  });

  it('leaves a string of exactly the limit alone and cuts one byte more', () => {
    const exact = 'é'.repeat(MAX_STRING_BYTES / 2);
    expect(sanitizer.sanitize(exact)).toEqual({ value: exact, report: EMPTY_REPORT });
    const over = sanitizeText(`${exact}x`);
    expect(over.report.truncations).toBe(1);
    expect(utf8Bytes(over.value)).toBeLessThanOrEqual(MAX_STRING_BYTES);
  });

  it.each([0, 1, 2, 3])('never splits a multi-byte character or surrogate pair (offset %i)', (offset) => {
    const original = `${'x'.repeat(offset)}${'😀é€a𝄞'.repeat(12_000)}`;
    const { value, report } = sanitizeText(original);
    expect(utf8Bytes(value)).toBeLessThanOrEqual(MAX_STRING_BYTES);
    expect(LONE_SURROGATE.test(value)).toBe(false);
    expect(value).not.toContain('\uFFFD');
    const { head, removed, tail } = parse(value);
    expect(original.startsWith(head) && original.endsWith(tail)).toBe(true);
    expect(utf8Bytes(head) + removed + utf8Bytes(tail)).toBe(utf8Bytes(original));
    expect(report.truncatedBytes).toBe(removed);
  });

  it('honours a smaller limit and counts every truncated string', () => {
    const small = createSanitizer({ maxStringBytes: 1000 });
    const { value, report } = small.sanitize({ a: 'a'.repeat(5000), b: ['😀'.repeat(2000)], c: 'short' });
    expect(utf8Bytes(value.a)).toBeLessThanOrEqual(1000);
    expect(utf8Bytes(value.b[0]!)).toBeLessThanOrEqual(1000);
    expect(value.c).toBe('short');
    expect(report.truncations).toBe(2);
    expect(report.truncatedBytes).toBe(parse(value.a).removed + parse(value.b[0]!).removed);
    expectFixedPoint({ value, report }, small);
  });

  it('redacts before it cuts, and counts only the markers that remain', () => {
    const key = (i: number) => `AKIA${String(i).padStart(16, 'Q')}`;
    const filler = 'lorem ipsum dolor sit amet\n'.repeat(4000);
    const original = `${key(1)} ${filler}${key(2)} ${filler}${key(3)}`;
    const { value, report } = sanitizeText(original);
    expect(value).not.toMatch(/AKIA/);
    expect(value.startsWith('[REDACTED:aws_access_key_id] lorem')).toBe(true);
    expect(value.endsWith('amet\n[REDACTED:aws_access_key_id]')).toBe(true);
    expect(report.redactions).toEqual({ aws_access_key_id: 2 });
    expect(report.truncations).toBe(1);
  });

  it('does not truncate in redactText', () => {
    const long = 'z'.repeat(MAX_STRING_BYTES * 2);
    expect(sanitizer.redactText(long)).toBe(long);
  });
});

describe('idempotency', () => {
  it('is a fixed point on markers, truncation markers and everything the corpus produces', () => {
    expectFixedPoint(sanitizer.sanitize(embedSecrets()));
    expectFixedPoint(sanitizer.sanitize(SECRET_CORPUS.map((sample) => sample.context).join('\n')));
    expectFixedPoint(sanitizer.sanitize({ password: '[REDACTED:assignment]', list: ['TOKEN=[REDACTED:jwt]', 'Bearer [REDACTED:bearer]'] }));
    expectFixedPoint(sanitizer.sanitize({ text: `${'q'.repeat(40_000)} PASSWORD=hunter2 ${'r'.repeat(40_000)}` }));
  });

  it('stays a fixed point when a cut lands next to something secret-shaped', () => {
    // Runs of token characters cut anywhere: whatever the cut exposes is redacted at once.
    for (const unit of ['xsk-Ab1Cd2Ef3Gh4Ij5Kl6Mn7', 'tokenPASSWORD=', 'AKIAQQQQQQQQQQQQQQQQQ']) {
      for (let shift = 0; shift < 5; shift++) {
        const result = sanitizer.sanitize(`${'y'.repeat(shift)}${unit.repeat(Math.ceil(70_000 / unit.length))}`);
        expect(utf8Bytes(result.value)).toBeLessThanOrEqual(MAX_STRING_BYTES);
        expectFixedPoint(result);
      }
    }
  });
});

describe('operator patterns', () => {
  const acme = createSanitizer({
    extraPatterns: [
      { kind: 'acme_token', pattern: /acme_[a-z0-9]{32}/g },
      { kind: 'employee_id', pattern: /\bEMP\d{3}\b/gi },
      { kind: 'acme_block', pattern: /BEGIN ACME[\s\S]*?END ACME/g },
    ],
  });

  it('applies them with their kind, across lines and in short strings', () => {
    const token = `acme_${'0a1b2c3d'.repeat(4)}`;
    const { value, report } = acme.sanitize({ a: `deploy with ${token}`, b: 'emp042', c: 'x\nBEGIN ACME\nsecret\nEND ACME\ny', d: 'EMP12345' });
    expect(value).toEqual({ a: 'deploy with [REDACTED:acme_token]', b: '[REDACTED:employee_id]', c: 'x\n[REDACTED:acme_block]\ny', d: 'EMP12345' });
    expect(report.redactions).toEqual({ acme_token: 1, employee_id: 1, acme_block: 1 });
    expectFixedPoint({ value, report }, acme);
  });

  it('never rewrites a marker, and survives patterns that match nothing, or markers', () => {
    const odd = /REDACTED|truncated|\d+ bytes|x*/g;
    const hostile = createSanitizer({ extraPatterns: [{ kind: 'odd', pattern: odd }, { kind: 'nog', pattern: /zz\d/ }], maxStringBytes: 2000 });
    const result = hostile.sanitize({ a: 'PASSWORD=hunter2 and xx zz9', b: 'Q'.repeat(5000) });
    expect(result.value.a).toBe('PASSWORD=[REDACTED:assignment] and [REDACTED:odd] [REDACTED:nog]');
    expect(result.value.b).toMatch(/^Q+…\[truncated \d+ bytes\]…Q+$/);
    expect(result.report).toEqual({ redactions: { assignment: 1, odd: 1, nog: 1 }, truncations: 1, truncatedBytes: expect.any(Number) });
    expect(odd.lastIndex).toBe(0);
    expectFixedPoint(result, hostile);
  });
});

describe('no false positives', () => {
  const CLEAN = [
    'function add(a: number, b: number): number {\n  return a + b;\n}',
    'interface Session { token: string; password?: string; apiKey: string | undefined }',
    'const token = getToken();\nconst secret = await vault.read(path);\nconst { apiKey } = options;',
    "if (password !== confirmPassword) throw new Error('passwords differ');",
    'headers: { authorization: `Bearer ${token}` },',
    "const headers = { Authorization: 'Bearer ' + accessToken };",
    'items.map((item) => <li key={item.id}>{item.name}</li>)',
    'monkey = 3; turkey: "roast"; sortKey: "createdAt"; primaryKey: true',
    'apiKey: process.env.OPENAI_API_KEY,\ntoken: config.github.token,',
    'process.env.API_KEY',
    'os.environ["OPENAI_API_KEY"]',
    'export GITHUB_TOKEN=$(gh auth token)',
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'API_KEY=<your-key-here>\nPASSWORD=${DB_PASSWORD}\nSECRET=%APP_SECRET%',
    'WHERE token = ? AND password = :password',
    'max_tokens=4096 input_tokens: 12, output_tokens: 34, token_count=3',
    '{"input_tokens": 12, "max_tokens": 4096, "token_count": 3, "cache_key": "abc"}',
    '/home/dev/app/src/hooks/secret-patterns.ts:42:7',
    'C:\\Users\\dev\\AppData\\Local\\token-cache\\index.json',
    'https://example.com/a?b=c',
    'https://example.com:8443/path/to?q=1&sort=desc#section',
    'ssh://git@github.com/acme/api.git and git@github.com:acme/api.git',
    'mailto:alice@example.com, bob@example.org',
    'commit 3f2a9c1e5b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a\nMerge: 9b1c2d3 4e5f6a7',
    'request 0f8fad5b-d9cb-469f-a165-70867728950e failed',
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'Reset your password in settings. The token expired; ask for a new secret key.',
    'Bearer authentication (RFC 6750) sends the token in the Authorization header.',
    'The bearer of this letter is a friend.',
    'task-list desk-top risk-assessment-2025 sk-fading-circle-spinner sk-1234',
    'arn:aws:iam::123456789012:role/ExampleRole arn:aws:s3:::acme-backups/*',
    'The AKIA prefix marks long-term keys; xoxb tokens belong to bots; mbk_ keys are ours.',
    'eyJhbGciOiJIUzI1NiJ9 is just a header',
    `inside words: nghp_${'a1B2c3D4e5'.repeat(4)} Tsk-ant-${'x9'.repeat(12)} unAuthorization: x`,
    '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----',
    '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----',
    'password: string;\ntoken?: string;\nsecret: boolean = false',
    'aws_secret_access_key = <secret>\naws_access_key_id = $AWS_ACCESS_KEY_ID',
    // Ids and hashes that share an alphabet (and sometimes a prefix) with tokens.
    'mem_01JD3W6Q8Z9K2M4N5P6R7S8T9V ws_01JD3W6Q8Z9K2M4N5P6R7S8T9V 01JD3W6Q8Z9K2M4N5P6R7S8T9V',
    'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 d41d8cd98f00b204e9800998ecf8427e',
    'SKU 4711, SK-1234, SKETCH; 5f3a2b1c9d8e7f60a1b2c3d4e5f60718-usage, key-value store, key-3f2a9c1e',
    'hf_hub_download(repo_id="gpt2") npm_config_cache=/tmp/npm lin_api_url dapi_client secret_santa_2025',
    'git rev-parse HEAD -> 3f2a9c1e5b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a, tag v1.4.2-us1 on eu-west-1, us-east-2',
    'hooks.slack.com/services is where webhooks live; discord.com/api/webhooks too; SG.prefix keys are SendGrid',
    'pip install pypi-simple; glpat- tokens expire; dop_v1_ is DigitalOcean; EAAA starts Square tokens',
  ];

  it.each(CLEAN)('leaves %j alone', (text) => {
    expect(sanitizer.sanitize(text)).toEqual({ value: text, report: EMPTY_REPORT });
  });

  it('leaves an ordinary harness payload alone', () => {
    const payload = {
      session_id: 'c0ffee00-5ec2-4e7a-9d1b-0000000000aa',
      transcript_path: '/home/dev/.claude/projects/app/c0ffee00.jsonl',
      cwd: '/home/dev/app',
      permission_mode: 'acceptEdits',
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_use_id: 'toolu_01ABCdef234',
      sessionID: 'ses_01', callID: 'call_01',
      prompt: 'Refactor the token counter; keep max_tokens at 4096.',
      tool_input: { file_path: '/home/dev/app/src/count.ts', old_string: 'let tokens = 0;', new_string: 'let tokenCount = 0;' },
      tool_response: { success: true, usage: { input_tokens: 1200, output_tokens: 345, cache_read_input_tokens: 0 } },
    };
    expect(sanitizer.sanitize(payload)).toEqual({ value: payload, report: EMPTY_REPORT });
  });
});

describe('performance', () => {
  /**
   * CPU milliseconds of the best of three runs after a warm-up. CPU time, not wall time:
   * the bound is on the sanitizer's work, which a busy machine delays but does not grow
   * (each test file runs in a process of its own).
   */
  function fastest(run: () => unknown): number {
    run();
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const start = process.cpuUsage();
      run();
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1000);
    }
    return best;
  }

  const SOURCE = [
    "import { readFile } from 'node:fs/promises';",
    'export async function loadConfig(path: string): Promise<Config> {',
    "  const text = await readFile(path, 'utf8');",
    '  const parsed = JSON.parse(text) as Partial<Config>;',
    '  return { maxTokens: parsed.max_tokens ?? 4096, key: parsed.key ?? "default", ...parsed };',
    '}',
  ].join('\n');

  function realisticPayload(): Record<string, unknown> {
    const events: unknown[] = [];
    let size = 0;
    for (let i = 0; size < 1024 * 1024; i++) {
      const secret = SECRET_CORPUS[i % SECRET_CORPUS.length]!.context;
      const event = {
        session_id: `c0ffee00-5ec2-4e7a-9d1b-${String(i).padStart(12, '0')}`,
        hook_event_name: 'PostToolUse',
        tool_name: i % 2 ? 'Bash' : 'Edit',
        tool_use_id: `toolu_${i}`,
        cwd: '/home/dev/app',
        tool_input: { command: 'git log --oneline -n 3 && cat src/config.ts', env: { NODE_ENV: 'test', password: `pw-${i}` } },
        tool_response: {
          stdout: `3f2a9c1e5b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a fix: config\n${SOURCE.repeat(4)}\n${i % 5 === 0 ? secret : 'no secrets here'}\n`,
          usage: { input_tokens: 1200 + i, output_tokens: 30 },
        },
      };
      size += JSON.stringify(event).length;
      events.push(event);
    }
    return { events };
  }

  it('sanitizes a 1 MiB payload well under a second', () => {
    const payload = realisticPayload();
    expect(JSON.stringify(payload).length).toBeGreaterThanOrEqual(1024 * 1024);
    expect(fastest(() => sanitizer.sanitize(payload))).toBeLessThan(500);
    expect(findSurvivingSecrets(JSON.stringify(sanitizer.sanitize(payload).value))).toEqual([]);
  });

  it('sanitizes a single 1 MiB string (long tool output) well under a second', () => {
    const stdout = JSON.stringify(realisticPayload(), null, 2);
    expect(fastest(() => sanitizer.sanitize({ stdout }))).toBeLessThan(500);
  });

  it.each([
    ['a…', 'a'],
    ['Bearer …', 'Bearer '],
    ['BEGIN without END', '-----BEGIN PRIVATE KEY-----'],
    ['xoxb-…', 'xoxb-'],
    ['eyJ…', 'eyJ'],
    ['eyJ segments', 'eyJabcdefghij.'],
    ['sk-…', 'sk-'],
    ['<private>…', '<private>'],
    ['password=…', 'password='],
    ['password="…', 'password="'],
    ['key=…', 'key='],
    ['$x=password=…', '$x=password='],
    ['API_KEY=a&b=…', 'API_KEY=a&b='],
    ['Authorization: …', 'Authorization: '],
    ['X-Api-Key: …', 'X-Api-Key: '],
    ['scheme://user:…', 'https://a:'],
    ['aws_secret_access_key=…', 'aws_secret_access_key='],
    ['ghp_…', 'ghp_'],
    ['whitespace', ' \n\t'],
    ['dp.st.…', 'dp.st.'],
    ['ops_eyJ/…', 'ops_eyJ/'],
    ['ATATT3=…', 'ATATT3='],
    ['hex-us…', `${'ab12'.repeat(8)}-us`],
    ['abc1Q~…', 'abc1Q~'],
    ['hooks.slack.com/services/…', 'hooks.slack.com/services/'],
  ])('stays bounded on 200 KB of %s', (_, unit) => {
    const text = unit.repeat(Math.ceil((200 * 1024) / unit.length));
    expect(fastest(() => sanitizer.sanitize(text))).toBeLessThan(300);
    expectFixedPoint(sanitizer.sanitize(text));
  });
});
