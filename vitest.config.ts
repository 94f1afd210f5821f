import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/*/test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['apps/api/test/support/global-setup.ts'],
    setupFiles: ['apps/api/test/support/sql-tenancy-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll waits for a condition; its default second is shorter than a loaded machine may take.
    expect: { poll: { timeout: 10_000 } },
    // The JSON report is what .ci/run counts ("N passed, N failed").
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
