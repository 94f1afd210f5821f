/**
 * An independent detector as the oracle: secretlint's recommended preset scans every
 * sample of the corpus, and whatever it reports must not survive our sanitizer.
 */
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { createSanitizer } from '../src/hooks/sanitize';
import { findSurvivingSecrets, SECRET_CORPUS } from './fixtures/secrets';

const sanitizer = createSanitizer();

interface Finding {
  ruleId: string;
  text: string;
}

async function secretlintFindings(content: string): Promise<Finding[]> {
  const result = await lintSource({
    source: { content, filePath: '/corpus/sample.txt', ext: '.txt', contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] }, noPhysicFilePath: true },
  });
  return result.messages.map((message) => ({ ruleId: message.ruleId, text: content.slice(message.range[0], message.range[1]) }));
}

// The eight formats the hardening probes found stored in clear (issue 10, item 4).
const PROBED_KINDS = [
  'slack_webhook', 'npm_token', 'pypi_token', 'huggingface_token', 'sendgrid_key', 'gitlab_token', 'digitalocean_token', 'twilio_key',
];

describe('secretlint (recommended preset) as the oracle', () => {
  it('finds nothing secretlint finds left in what we keep', async () => {
    const survivors: { kind: string; ruleId: string }[] = [];
    const rules = new Set<string>();
    let findings = 0;
    for (const sample of SECRET_CORPUS) {
      const redacted = sanitizer.redactText(sample.context);
      for (const finding of await secretlintFindings(sample.context)) {
        findings++;
        rules.add(finding.ruleId);
        if (redacted.includes(finding.text)) survivors.push({ kind: sample.kind, ruleId: finding.ruleId });
      }
      // What secretlint reports in our output is a leak too, unless what it saw is our
      // marker (`postgres://app:[REDACTED:url_credentials]@db` still looks like a password).
      for (const finding of await secretlintFindings(redacted)) {
        if (!finding.text.includes('[REDACTED:')) survivors.push({ kind: sample.kind, ruleId: `${finding.ruleId} (after)` });
      }
    }
    expect(survivors).toEqual([]);
    // The oracle was really consulted: most of its rules fired on the corpus (39 findings
    // of 23 rules when this was written).
    expect(findings).toBeGreaterThanOrEqual(35);
    expect(rules.size).toBeGreaterThanOrEqual(20);
  });

  it.each(PROBED_KINDS)('redacts %s, a format the probes found in clear', (kind) => {
    const samples = SECRET_CORPUS.filter((sample) => sample.kind === kind);
    expect(samples.length).toBeGreaterThanOrEqual(1);
    for (const sample of samples) {
      const redacted = sanitizer.redactText(sample.context);
      expect(findSurvivingSecrets(redacted)).toEqual([]);
      expect(redacted).toContain(`[REDACTED:${kind}]`);
    }
  });
});
