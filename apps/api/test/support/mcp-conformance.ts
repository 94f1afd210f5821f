import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Node22Tools } from './node22-tools';

/**
 * The official MCP conformance suite's server scenarios, for the 2025-11-25 revision
 * (initialize handshake) and 2026-07-28 (stateless, `_meta` envelope). Every scenario of the
 * suite runs (`--suite all`); the expected-failures file of each revision lists the checks
 * that do not apply to a memory server, one per line with the reason, and the suite itself
 * fails the run when a listed check starts passing.
 */
export const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
const expectedFailures = (revision: string) => fileURLToPath(new URL(`../fixtures/mcp-conformance/${revision}.yaml`, import.meta.url));

export interface Node22Run {
  code: number | null;
  /** stdout and stderr, interleaved as they came. */
  output: string;
  stdout: string;
}

/**
 * Runs a Node 22 tool; asynchronously, since what it talks to (a proxy, a callback) may live
 * in this process and must keep serving meanwhile. `onStdout` sees its stdout so far, as it
 * comes; `signal` ends the tool.
 */
export function runNode22(tools: Node22Tools, args: string[], onStdout?: (stdout: string) => void, signal?: AbortSignal): Promise<Node22Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tools.node, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(signal && { signal }) });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      stdout += chunk;
      onStdout?.(stdout);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, stdout }));
  });
}

/** Every server scenario of `revision` against the MCP endpoint at `url`. */
export function runServerSuite(tools: Node22Tools, url: string, revision: string): Promise<Node22Run> {
  return runNode22(tools, [tools.conformance, 'server', '--url', url, '--suite', 'all', '--spec-version', revision, '--expected-failures', expectedFailures(revision), '--timeout', '10000']);
}

/** The suite passed, and the scenarios this server is about did run and pass. */
export function expectEveryApplicableCheck(revision: string, { code, output }: Node22Run): void {
  const summary = output.slice(output.indexOf('=== SUMMARY ==='));
  expect(code, summary).toBe(0);
  const always = ['tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'];
  const perRevision = revision === '2026-07-28' ? ['server-stateless', 'http-header-validation', 'caching', 'sep-2164-resource-not-found'] : ['server-initialize', 'ping'];
  for (const scenario of [...always, ...perRevision]) {
    expect(summary, scenario).toMatch(new RegExp(`${scenario}: [1-9]\\d* passed`));
  }
}
